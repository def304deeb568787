#!/usr/bin/env node
/**
 * The cost of the access log and metrics on the cache-hit path (item 5 of `npm run bench`): the
 * built Node example (`examples/node/dist/server.js`, `RATE_LIMIT=off`, memory store) started four
 * times, `off` (`ACCESS_LOG=off`, no `METRICS_PORT`: the log and metrics off, request ids on, as
 * `REQUEST_ID` is by default), `on` (`ACCESS_LOG=json` into a pipe this script drains, as a
 * container runtime would, and `METRICS_PORT`) and `bare` (`off` with `REQUEST_ID=off` too: nothing
 * observed at all), each answering the same gateway cache hits: a detail (`/v1/anime/1`, ~3 KB) and
 * a search page (`/v1/anime?q=naruto`, ~30 KB). `off / bare` is what the request ids cost by
 * themselves, `on / bare` all three together. `busy` is `off` with one change:
 * each answer first busy-waits `BUSY_US` µs (default 0.5; `bench/lib/busy-response.mjs`). It shows
 * what that much CPU per request costs over loopback on the machine at hand, which can be several
 * times what it costs in process: a yardstick for `on`. Load: `wrk -c64` on 127.0.0.1.
 *
 * Each round starts the four servers afresh, one after another in an order rotated from round to
 * round (with `ROUNDS` a multiple of four, each is started first equally often; see the loop below),
 * warms each up, then measures them in turn for `SLICES` slices of `SLICE` each (rotated order); a
 * round's ratio to `off` is the median of its slices' ratios, and the medians over rounds are shown.
 * Fresh processes, because a process keeps its own speed: two `off` servers measured round after
 * round stayed 10–16 % apart, while started anew each round they came out 0.95–1.0 of each other.
 * Short slices side by side, because a machine's speed drifts: on a 2-vCPU VM an `off` server did
 * 16k and then 28k req/s within a minute.
 * With two CPUs or more and `taskset` (util-linux), every server runs on CPU 1 and wrk (one thread)
 * on CPU 0, so the server has its core to itself, as it would behind a load balancer, and wrk's
 * threads do not land on it by chance: on that VM the rounds' on/off ratios of the detail page
 * spread over 0.57–1.40 unpinned (16 rounds of 5 s a server) and over 0.77–0.98 pinned, in slices
 * (9 rounds). This script, which drains the `on` servers' log pipe, moves to CPU 0 too: the log's
 * reader is the host's work (a container runtime's), and on CPU 1 it took its time from the server.
 * Without them: `wrk -t2`, unpinned (`pinned: false` below).
 *
 *   node bench/operations.mjs [--json]     # after `npm run build`
 *   SLICE=1s SLICES=6 WARMUP=2s ROUNDS=8 node bench/operations.mjs
 *
 * Output: a Markdown table on stdout; with `--json`, the last line is one JSON object
 * `{ pinned, rows: [{ request, bytes, offRps, onRps, ratio, ratios, offCpu, onCpu, cpuRatio, bareRps, bareRatio, onBareRatio, bareCpu, busyUs, busyRatio, busyCpu, logLines }] }`:
 * `pinned` as above; req/s of each server (medians of its slices), `ratio` = on/off req/s,
 * `bareRatio` = off/bare, `onBareRatio` = on/bare and `busyRatio` = busy/off req/s (medians of the rounds' ratios; `ratios`: on/off of each round), CPU µs
 * per request of the server process over all its slices (from /proc) and `cpuRatio` = off/on CPU
 * per request, which is what the throughput ratio would be on an otherwise idle core;
 * `logLines` is how many lines the `on` servers wrote in all (one per request they answered,
 * warm-ups included). Needs `wrk` on the PATH.
 * @module
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './lib/example.mjs';
import { cpuSeconds, median, readWrk } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const slice = env.SLICE ?? '1s';
const slices = Number(env.SLICES ?? 6);
const warmup = env.WARMUP ?? '2s';
const rounds = Number(env.ROUNDS ?? 8);
const targets = { detail: '/v1/anime/1', search: '/v1/anime?q=naruto' };
const json = process.argv.includes('--json');
const pinned = availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
// This script drains the log pipe: its place is with the load, not on the server's CPU.
if (pinned) spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)]);
// On CPU `cpu` when pinned, else as it is.
const onCpu = (cpu, command, args) => (pinned ? ['taskset', ['-c', cpu, command, ...args]] : [command, args]);

const VARIANTS = ['off', 'bare', 'on', 'busy'];
const busyUs = Number(env.BUSY_US ?? 0.5);

async function start(variant) {
  const on = variant === 'on';
  const vars = {
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT: 'off',
    DATABASE_URL: '',
    REDIS_URL: '',
    ACCESS_LOG: on ? 'json' : 'off',
    ACCESS_LOG_SAMPLE: '',
    REQUEST_ID: variant === 'bare' ? 'off' : 'on',
    METRICS_PORT: on ? String(await freePort()) : '',
  };
  if (variant === 'busy') vars.BUSY_US = String(busyUs);
  const preload = variant === 'busy' ? ['--import', `${root}bench/lib/busy-response.mjs`] : [];
  const child = spawn(...onCpu('1', process.execPath, [...preload, `${root}examples/node/dist/server.js`]), { cwd: root, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'ignore'] });
  const state = { child, url: '', lines: 0 };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${variant}: no URL within 30 s`))), 30_000);
    let head = '';
    child.stdout.on('data', (chunk) => {
      if (state.url) {
        // Drained and counted, not kept: the log's reader costs this process, not the server.
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) state.lines++;
        return;
      }
      head += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(head);
      if (!match) return;
      clearTimeout(timer);
      state.url = match[1];
      resolve(state);
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${variant} exited (${code}): ${head}`))));
  });
}

// Run asynchronously: while wrk runs, this process keeps draining the `on` server's log pipe. A
// synchronous run left the pipe full (64 KiB) for the whole measurement, so the server kept
// seconds of log lines in its own memory, which no container runtime's reader makes it do.
const execFileAsync = promisify(execFile);

async function wrk(url, time, pid) {
  const before = cpuSeconds(pid);
  const { stdout: out } = await execFileAsync(...onCpu('0', 'wrk', [pinned ? '-t1' : '-t2', '-c64', `-d${time}`, url]), { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  const { rps, requests, non2xx } = readWrk(out);
  if (non2xx) throw new Error(`${url}: ${non2xx} answers were not 2xx`);
  return { rps, requests, cpu };
}

function stop(servers) {
  for (const { child } of servers) child.kill('SIGTERM');
  return Promise.all(servers.map(({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))));
}

const rows = [];
let logLines = 0;
let bareLines = 0;
for (const [request, path] of Object.entries(targets)) {
  const rps = { off: [], bare: [], on: [], busy: [] };
  const cpu = { off: [0, 0], bare: [0, 0], on: [0, 0], busy: [0, 0] }; // CPU seconds, requests
  // off/bare, on/off, on/bare, busy/off
  const ratios = { bare: [], on: [], onBare: [], busy: [] };
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const servers = {};
    // Started in a rotated order too: the first server started in a round came out the slowest of
    // four alike (four `off` servers started in one order on a 2-vCPU VM: the third did 1.0–1.5 × the
    // first's req/s, the median 1.16 over 6 rounds; started in rotation, the medians of all three
    // to the first were 1.04 over 8).
    for (let i = 0; i < VARIANTS.length; i++) {
      const variant = VARIANTS[(i + round) % VARIANTS.length];
      servers[variant] = await start(variant);
    }
    try {
      bytes = Number((await fetch(`${servers.off.url}${path}`)).headers.get('content-length'));
      const url = (variant) => `${servers[variant].url}${path}`;
      for (const variant of VARIANTS) await wrk(url(variant), warmup, servers[variant].child.pid);
      const roundRatios = { bare: [], on: [], onBare: [], busy: [] };
      for (let k = 0; k < slices; k++) {
        const measured = {};
        for (let i = 0; i < VARIANTS.length; i++) {
          const variant = VARIANTS[(i + k + round) % VARIANTS.length];
          const m = await wrk(url(variant), slice, servers[variant].child.pid);
          measured[variant] = m;
          rps[variant].push(m.rps);
          cpu[variant][0] += m.cpu;
          cpu[variant][1] += m.requests;
        }
        roundRatios.bare.push(measured.off.rps / measured.bare.rps);
        roundRatios.on.push(measured.on.rps / measured.off.rps);
        roundRatios.onBare.push(measured.on.rps / measured.bare.rps);
        roundRatios.busy.push(measured.busy.rps / measured.off.rps);
      }
      for (const name of Object.keys(ratios)) ratios[name].push(median(roundRatios[name]));
      process.stderr.write(
        `${request} round ${round + 1}: on/off ${ratios.on.at(-1).toFixed(3)}, off/bare ${ratios.bare.at(-1).toFixed(3)}, on/bare ${ratios.onBare.at(-1).toFixed(3)}, busy/off ${ratios.busy.at(-1).toFixed(3)}\n`,
      );
    } finally {
      await stop(Object.values(servers));
      logLines += servers.on.lines;
      bareLines += servers.bare.lines;
    }
  }
  const cpuPerRequest = (variant) => (cpu[variant][0] * 1e6) / cpu[variant][1];
  rows.push({
    request,
    bytes,
    offRps: median(rps.off),
    onRps: median(rps.on),
    ratio: median(ratios.on),
    ratios: ratios.on,
    offCpu: cpuPerRequest('off'),
    onCpu: cpuPerRequest('on'),
    cpuRatio: cpuPerRequest('off') / cpuPerRequest('on'),
    bareRps: median(rps.bare),
    bareRatio: median(ratios.bare),
    onBareRatio: median(ratios.onBare),
    bareCpu: cpuPerRequest('bare'),
    busyUs,
    busyRatio: median(ratios.busy),
    busyCpu: cpuPerRequest('busy'),
  });
}
// Only the on servers log.
if (bareLines > 0) throw new Error(`the bare servers wrote ${bareLines} log lines; ACCESS_LOG=off should write none`);
for (const row of rows) row.logLines = logLines;

if (json) {
  console.log(JSON.stringify({ pinned, rows }));
} else {
  const load = pinned ? 'wrk -t1 -c64 on CPU 0, servers on CPU 1' : 'wrk -t2 -c64, unpinned';
  console.log(`${rounds} round(s) of ${slices} × ${slice} per server after ${warmup} warm-up (${load}); medians.\n`);
  console.log('| cache hit | bytes | off req/s | on req/s | on / off | off µs CPU/req | on µs CPU/req | off / on CPU | off / bare | on / bare | bare µs CPU/req | busy / off | busy µs CPU/req |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.request} | ${r.bytes} | ${r.offRps.toFixed(0)} | ${r.onRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.offCpu.toFixed(1)} | ${r.onCpu.toFixed(1)} | ${r.cpuRatio.toFixed(2)} | ${r.bareRatio.toFixed(2)} | ${r.onBareRatio.toFixed(2)} | ${r.bareCpu.toFixed(1)} | ${r.busyRatio.toFixed(2)} | ${r.busyCpu.toFixed(1)} |`,
    );
  }
  console.log(`\nThe on servers wrote ${logLines} access log lines.`);
}
