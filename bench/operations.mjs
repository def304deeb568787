#!/usr/bin/env node
/**
 * The cost of the access log and metrics on the cache-hit path (item 5 of `npm run bench`): the
 * built Node example (`examples/node/dist/server.js`, `RATE_LIMIT=off`, memory store) started three
 * times, `off` (`ACCESS_LOG=off`, no `METRICS_PORT`), `on` (`ACCESS_LOG=json` into a pipe this script
 * drains, as a container runtime would, and `METRICS_PORT`) and `ids` (`ACCESS_LOG=json` with
 * `ACCESS_LOG_SAMPLE=0`, no `METRICS_PORT`: every request timed and given an `X-Request-Id`, no line
 * written, no metrics kept), each answering the same gateway cache hits: a detail (`/v1/anime/1`,
 * ~3 KB) and a search page (`/v1/anime?q=naruto`, ~30 KB). `ids` shows how much of `on`'s cost is
 * the observed request itself rather than the log and the metrics. Load: `wrk -t2 -c64` on
 * 127.0.0.1, a warm-up before each measurement. Each round starts the servers afresh and measures
 * them in a rotated order; the ratios to `off` are taken inside a round, and medians over rounds are
 * shown. Fresh processes, because a process keeps its own speed: two `off` servers measured round
 * after round stayed 10–16 % apart, while started anew each round they came out 0.95–1.0 of each other.
 *
 *   node bench/operations.mjs [--json]     # after `npm run build`
 *   DURATION=5s WARMUP=2s ROUNDS=9 node bench/operations.mjs
 *
 * Output: a Markdown table on stdout; with `--json`, the last line is one JSON object
 * `{ rows: [{ request, bytes, offRps, onRps, ratio, offCpu, onCpu, cpuRatio, idsRps, idsRatio, idsCpu, logLines }] }`:
 * req/s of each server (medians), `ratio` = on/off req/s and `idsRatio` = ids/off req/s (medians of
 * the per-round ratios), CPU µs per request of the server process (from /proc) and `cpuRatio` =
 * off/on CPU per request, which is what the throughput ratio would be on an otherwise idle core;
 * `logLines` is how many lines the `on` servers wrote in all (one per request they answered,
 * warm-ups included). Needs `wrk` on the PATH.
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuSeconds, median, readWrk } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const duration = env.DURATION ?? '5s';
const warmup = env.WARMUP ?? '2s';
const rounds = Number(env.ROUNDS ?? 9);
const targets = { detail: '/v1/anime/1', search: '/v1/anime?q=naruto' };
const json = process.argv.includes('--json');

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const VARIANTS = ['off', 'ids', 'on'];

async function start(variant) {
  const on = variant === 'on';
  const vars = {
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT: 'off',
    DATABASE_URL: '',
    REDIS_URL: '',
    ACCESS_LOG: variant === 'off' ? 'off' : 'json',
    ACCESS_LOG_SAMPLE: variant === 'ids' ? '0' : '',
    METRICS_PORT: on ? String(await freePort()) : '',
  };
  const child = spawn(process.execPath, [`${root}examples/node/dist/server.js`], { cwd: root, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'ignore'] });
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
  const { stdout: out } = await execFileAsync('wrk', ['-t2', '-c64', `-d${time}`, url], { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  const { rps, requests, non2xx } = readWrk(out);
  if (non2xx) throw new Error(`${url}: ${non2xx} answers were not 2xx`);
  return { rps, cpu: (cpu * 1e6) / requests };
}

function stop(servers) {
  for (const { child } of servers) child.kill('SIGTERM');
  return Promise.all(servers.map(({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))));
}

const rows = [];
let logLines = 0;
let idsLines = 0;
for (const [request, path] of Object.entries(targets)) {
  const samples = { off: [], ids: [], on: [] };
  const ratios = { ids: [], on: [] };
  const cpuRatios = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const servers = {};
    for (const variant of VARIANTS) servers[variant] = await start(variant);
    try {
      bytes = Number((await fetch(`${servers.off.url}${path}`)).headers.get('content-length'));
      const measured = {};
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
      for (const variant of order) {
        const url = `${servers[variant].url}${path}`;
        await wrk(url, warmup, servers[variant].child.pid);
        measured[variant] = await wrk(url, duration, servers[variant].child.pid);
        samples[variant].push(measured[variant]);
        process.stderr.write(`${variant} ${request} round ${round + 1}: ${measured[variant].rps.toFixed(0)} req/s, ${measured[variant].cpu.toFixed(1)} µs CPU/req\n`);
      }
      for (const variant of ['ids', 'on']) ratios[variant].push(measured[variant].rps / measured.off.rps);
      cpuRatios.push(measured.off.cpu / measured.on.cpu);
    } finally {
      await stop(Object.values(servers));
      logLines += servers.on.lines;
      idsLines += servers.ids.lines;
    }
  }
  rows.push({
    request,
    bytes,
    offRps: median(samples.off.map((s) => s.rps)),
    onRps: median(samples.on.map((s) => s.rps)),
    ratio: median(ratios.on),
    offCpu: median(samples.off.map((s) => s.cpu)),
    onCpu: median(samples.on.map((s) => s.cpu)),
    cpuRatio: median(cpuRatios),
    idsRps: median(samples.ids.map((s) => s.rps)),
    idsRatio: median(ratios.ids),
    idsCpu: median(samples.ids.map((s) => s.cpu)),
  });
}
// The ids servers time and name every request but must write nothing.
if (idsLines > 0) throw new Error(`the ids servers wrote ${idsLines} log lines; ACCESS_LOG_SAMPLE=0 should write none`);
for (const row of rows) row.logLines = logLines;

if (json) {
  console.log(JSON.stringify({ rows }));
} else {
  console.log(`${rounds} round(s) of wrk -t2 -c64 -d${duration} after -d${warmup} warm-up; medians over rounds.\n`);
  console.log('| cache hit | bytes | off req/s | on req/s | on / off | off µs CPU/req | on µs CPU/req | off / on CPU | ids / off | ids µs CPU/req |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.request} | ${r.bytes} | ${r.offRps.toFixed(0)} | ${r.onRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.offCpu.toFixed(1)} | ${r.onCpu.toFixed(1)} | ${r.cpuRatio.toFixed(2)} | ${r.idsRatio.toFixed(2)} | ${r.idsCpu.toFixed(1)} |`,
    );
  }
  console.log(`\nThe on servers wrote ${logLines} access log lines.`);
}
