#!/usr/bin/env node
/**
 * HTTP throughput and latency of the example server against each runtime's raw server returning
 * the same bytes (item 1 of `npm run bench`). For Node, Bun and Deno, the servers of
 * `http-adapters-server.mjs` (`raw`, `app`, `app-cache`, optionally `adapter`) answer three
 * requests: a search page (`/v1/anime?q=naruto`, ~30 KB), a detail (`/v1/anime/1/full`, ~4 KB)
 * and an error (`/v1/anime?limit=99`, a 400 envelope). Load: `wrk -t2 -c64 --latency` on
 * 127.0.0.1, a warm-up before each measurement; every round measures every variant of a request in
 * a rotated order, ratios are taken inside a round against that round's raw server of the same
 * runtime and request, and the table shows medians over the rounds. Servers are started here
 * and stopped by their PID.
 *
 *   node bench/http-adapters.mjs [--json]        # after `npm run build`
 *   DURATION=5s WARMUP=1s ROUNDS=3 RUNTIMES=node,bun,deno VARIANTS=raw,app,app-cache REQUESTS=search,detail,error
 *   DURATION=2s WARMUP=1s ROUNDS=1 node bench/http-adapters.mjs   # quick mode (~1 min)
 *
 * Output: a Markdown table on stdout; with `--json`, the last stdout line is instead one JSON array
 * of rows `{ runtime, variant, request, bytes, rps, p50, p99, ratio, non2xx }`:
 * - `runtime`: `node` | `bun` | `deno`; `variant`: `raw` | `adapter` | `app` | `app-cache`;
 *   `request`: `search` | `detail` | `error`; `bytes`: body size in bytes;
 * - `rps`: requests/s, `p50` and `p99`: latency in ms (wrk `--latency`), medians over rounds;
 * - `ratio`: median over rounds of rps / rps of `raw` on the same runtime and request (1 for raw);
 * - `non2xx`: wrk's "Non-2xx or 3xx responses" summed over the measured rounds (every `error` request
 *   counts, by design; for `search` and `detail` it must be 0).
 * The Markdown table also shows the server process's CPU per request (user + system time from
 * /proc over the measured run, divided by the requests wrk completed): on a shared, noisy machine
 * it moves far less than req/s, and raw's CPU/req over the variant's is the throughput ratio the
 * variant would reach on an otherwise idle core. Progress goes to stderr. Needs `wrk` on the PATH; Bun and Deno come from node_modules/.bin.
 *
 * The Node tail under saturation (about 1 % of requests over 1.2 s at 64 connections in an early prototype) was
 * connections waiting to be accepted, not slow answers; `tail-server.ts` measures it and its header
 * gives the finding and the fix (a per-turn work budget in adapter-node's `serve()`).
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, loadSettings, median, readLatency, readWrk } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const { duration, warmup, rounds, runtimes } = loadSettings('1s');
const variants = (env.VARIANTS ?? 'raw,adapter,app,app-cache').split(',');
const requests = (env.REQUESTS ?? 'search,detail,error').split(',');
const targets = { search: '/v1/anime?q=naruto', detail: '/v1/anime/1/full', error: '/v1/anime?limit=99' };
const server = `${root}bench/http-adapters-server.mjs`;
const commands = {
  node: [process.execPath, [server]],
  bun: [`${root}node_modules/.bin/bun`, [server]],
  // npm: specifiers through node_modules, as in examples/deno (deno.json maps the three packages).
  deno: [`${root}node_modules/.bin/deno`, ['run', '--allow-net', '--allow-env', '--allow-read', '--config', `${root}examples/deno/deno.json`, server]],
};
if (!variants.includes('raw')) throw new Error('VARIANTS must include raw: every ratio is against it');

function start(runtime, variant) {
  const [command, args] = commands[runtime];
  const child = spawn(command, args, { cwd: root, env: { ...env, VARIANT: variant, PORT: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${runtime} ${variant}: no URL within 30 s`))), 30_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+) bytes (\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const bytes = Object.fromEntries(match[2].split(',').map((pair) => pair.split('=')).map(([name, n]) => [name, Number(n)]));
      resolve({ child, url: match[1], bytes });
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${runtime} ${variant} exited (${code}): ${out}`))));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** One wrk run against the server `pid`; latencies in ms, server CPU in µs per request. */
function wrk(url, time, pid) {
  const before = cpuSeconds(pid);
  const out = execFileSync('wrk', ['-t2', '-c64', `-d${time}`, '--latency', url], { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  const socketErrors = /Socket errors: (.*)/.exec(out);
  if (socketErrors) process.stderr.write(`  wrk socket errors: ${socketErrors[1]}\n`);
  const { rps, requests, non2xx } = readWrk(out);
  return { rps, ...readLatency(out), non2xx, cpu: (cpu * 1e6) / requests };
}

const rows = [];
for (const runtime of runtimes) {
  const servers = {};
  try {
    for (const variant of variants) servers[variant] = await start(runtime, variant);
    const samples = {}; // `${variant} ${request}` → [{ rps, p50, p99, max, non2xx, ratio }]
    for (let round = 0; round < rounds; round++) {
      for (const request of requests) {
        const order = variants.map((_, i) => variants[(i + round) % variants.length]);
        const measured = {};
        for (const variant of order) {
          const url = `${servers[variant].url}${targets[request]}`;
          wrk(url, warmup, servers[variant].child.pid);
          measured[variant] = wrk(url, duration, servers[variant].child.pid);
          const m = measured[variant];
          process.stderr.write(`${runtime} ${variant} ${request} round ${round + 1}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99.toFixed(2)} ms, max ${m.max.toFixed(1)} ms, ${m.cpu.toFixed(1)} µs CPU/req\n`);
        }
        for (const variant of variants) {
          (samples[`${variant} ${request}`] ??= []).push({ ...measured[variant], ratio: measured[variant].rps / measured.raw.rps });
        }
      }
    }
    for (const variant of variants) {
      for (const request of requests) {
        const s = samples[`${variant} ${request}`];
        rows.push({
          runtime,
          variant,
          request,
          bytes: servers[variant].bytes[request],
          rps: median(s.map((x) => x.rps)),
          p50: median(s.map((x) => x.p50)),
          p99: median(s.map((x) => x.p99)),
          ratio: median(s.map((x) => x.ratio)),
          non2xx: s.reduce((sum, x) => sum + x.non2xx, 0),
          max: Math.max(...s.map((x) => x.max)),
          cpu: median(s.map((x) => x.cpu)),
        });
      }
    }
  } finally {
    for (const { child } of Object.values(servers)) await stop(child);
  }
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows.map(({ runtime, variant, request, bytes, rps, p50, p99, ratio, non2xx }) => ({ runtime, variant, request, bytes, rps, p50, p99, ratio, non2xx }))));
} else {
  console.log(`${rounds} round(s) of wrk -t2 -c64 -d${duration} after -d${warmup} warm-up; medians over rounds.\n`);
  console.log(`| runtime | request | variant | body B | req/s | p50 ms | p99 ms | max ms | server CPU µs/req | × raw (same runtime, request) | non-2xx |`);
  console.log(`|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|`);
  for (const r of rows.sort((a, b) => runtimes.indexOf(a.runtime) - runtimes.indexOf(b.runtime) || requests.indexOf(a.request) - requests.indexOf(b.request))) {
    console.log(`| ${r.runtime} | ${r.request} | ${r.variant} | ${r.bytes} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.non2xx} |`);
  }
}
