#!/usr/bin/env node
/**
 * The example servers as the README starts them (`npm start`, `npm run start:bun`,
 * `npm run start:deno`: access log and request ids on, their defaults; `RATE_LIMIT=off` only, so
 * that one load generator is not refused) against each runtime's raw server sending the very same
 * bytes (`bench/lib/raw-server.mjs`, fed with the answers recorded from the example at start).
 * Two modes: `cache` (the gateway's response cache answers repeats: every measured request is a
 * hit) and `nocache` (`CACHE=off`: every request is routed, searched and serialized). The access
 * log goes into a pipe this script drains, as a container runtime's reader would.
 *
 * Each round measures raw and the example for each request one after the other (order rotated),
 * after a warm-up; `× raw` is the median over rounds of example req/s over raw req/s of the same
 * round. Load: `wrk -t2 -c64` on 127.0.0.1, unpinned.
 *
 *   node bench/examples.mjs [--json]     # after `npm run build`
 *   RUNTIMES=node,bun,deno MODES=cache,nocache DURATION=5s WARMUP=2s ROUNDS=3
 *
 * Output: a Markdown table; with `--json` the last line is a JSON array of rows
 * `{ runtime, mode, request, target, bytes, rawRps, rps, ratio, p99, rawP99, cpu, rawCpu, cpuRatio }`
 * (`cpu`: the server's CPU µs per request from /proc; `cpuRatio` = raw's over the example's, the
 * throughput ratio on an otherwise idle core, which moves far less than req/s on a shared machine).
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './lib/example.mjs';
import { cpuSeconds, loadSettings, median, readLatency, readWrk } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const { duration, warmup, rounds, runtimes } = loadSettings('2s');
const modes = (env.MODES ?? 'cache,nocache').split(',');
const json = process.argv.includes('--json');

/** What each mode measures: the search page always, the detail and the top-scored list without the cache. */
const TARGETS = {
  search: '/v1/anime?q=naruto&limit=25',
  detail: '/v1/anime/20/full',
  scored: '/v1/anime?limit=25&order_by=score&sort=desc',
};
const REQUESTS = { cache: ['search'], nocache: ['detail', 'scored', 'search'] };

// How the README starts each example (package.json's scripts, without npm in between: the scripts
// `exec` the runtime, so this is the same process). The pre-scripts' builds are `npm run build`'s.
const bin = (name) => join(root, 'node_modules/.bin', name);
const EXAMPLES = {
  node: ['node', ['--import', 'tsx', '--import', './examples/node/raw-imports.mjs', 'examples/node/server.ts'], { TSX_TSCONFIG_PATH: 'examples/node/tsconfig.json' }],
  'node-dist': ['node', ['examples/node/dist/server.js'], {}],
  bun: [bin('bun'), ['examples/bun/server.ts'], {}],
  deno: [bin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--config', 'examples/deno/deno.json', 'examples/deno/server.ts'], {}],
};
const RAW = {
  node: ['node', ['bench/lib/raw-server.mjs']],
  bun: [bin('bun'), ['bench/lib/raw-server.mjs']],
  deno: [bin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', 'bench/lib/raw-server.mjs']],
};

function launch(command, args, vars, pattern) {
  const child = spawn(command, args, { cwd: root, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${command}: no URL within 60 s`))), 60_000);
    let head = '';
    let url = '';
    child.stdout.on('data', (chunk) => {
      // Drained, not kept: the log's reader is the host's work.
      if (url) return;
      head += chunk;
      const match = pattern.exec(head);
      if (!match) return;
      clearTimeout(timer);
      url = match[1];
      resolve({ child, url });
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${command} exited (${code}): ${head.slice(0, 500)}`))));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

const execFileAsync = promisify(execFile);
/** One wrk run; the server's CPU per request (user + system, from /proc) beside req/s. */
async function wrk(url, time, pid) {
  const before = cpuSeconds(pid);
  const { stdout: out } = await execFileAsync('wrk', ['-t2', '-c64', `-d${time}`, '--latency', url], { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  const { rps, requests, non2xx } = readWrk(out);
  if (non2xx) throw new Error(`${url}: ${non2xx} answers were not 2xx`);
  return { rps, p99: readLatency(out).p99, cpu: (cpu * 1e6) / requests };
}

/** The example's answer to a target, as the raw server will send it (a second GET: a cache hit when the cache is on). */
async function record(url, target) {
  await fetch(url + target).then((r) => r.arrayBuffer());
  const response = await fetch(url + target);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = {};
  for (const [name, value] of response.headers) if (name !== 'content-length' && name !== 'date' && name !== 'connection' && name !== 'keep-alive') headers[name] = value;
  return { status: response.status, headers, body: body.toString('base64'), bytes: body.byteLength };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-examples-'));
const rows = [];
for (const runtime of runtimes) {
  for (const mode of modes) {
    const requests = REQUESTS[mode];
    const [command, args, extra] = EXAMPLES[runtime];
    const vars = { ...extra, PORT: String(await freePort()), HOST: '127.0.0.1', RATE_LIMIT: 'off', CACHE: mode === 'cache' ? '' : 'off', DATABASE_URL: '', REDIS_URL: '', METRICS_PORT: '' };
    const example = await launch(command, args, vars, /listening on (http:\/\/[^/\s]+)/);
    let raw;
    try {
      const answers = {};
      const bytes = {};
      for (const name of requests) {
        const answer = await record(example.url, TARGETS[name]);
        answers[TARGETS[name]] = answer;
        bytes[name] = answer.bytes;
      }
      const file = join(dir, `${runtime}-${mode}.json`);
      writeFileSync(file, JSON.stringify(answers));
      const [rawCommand, rawArgs] = RAW[runtime.replace(/-.*/, '')];
      raw = await launch(rawCommand, rawArgs, { PORT: '0', ANSWERS: file }, /raw listening on (http:\/\/\S+)/);
      const samples = Object.fromEntries(requests.map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const name of requests) {
          const order = round % 2 === 0 ? [raw, example] : [example, raw];
          const measured = new Map();
          for (const server of order) {
            await wrk(server.url + TARGETS[name], warmup, server.child.pid);
            measured.set(server, await wrk(server.url + TARGETS[name], duration, server.child.pid));
          }
          const r = measured.get(raw);
          const e = measured.get(example);
          samples[name].push({ rawRps: r.rps, rps: e.rps, ratio: e.rps / r.rps, p99: e.p99, rawP99: r.p99, cpu: e.cpu, rawCpu: r.cpu, cpuRatio: r.cpu / e.cpu });
          process.stderr.write(
            `${runtime} ${mode} ${name} round ${round + 1}: raw ${r.rps.toFixed(0)}, example ${e.rps.toFixed(0)} req/s (${(e.rps / r.rps).toFixed(3)} × raw); CPU µs/req raw ${r.cpu.toFixed(1)}, example ${e.cpu.toFixed(1)}\n`,
          );
        }
      }
      for (const name of requests) {
        const s = samples[name];
        const pick = (key) => median(s.map((x) => x[key]));
        rows.push({ runtime, mode, request: name, target: TARGETS[name], bytes: bytes[name], rawRps: pick('rawRps'), rps: pick('rps'), ratio: pick('ratio'), p99: pick('p99'), rawP99: pick('rawP99'), cpu: pick('cpu'), rawCpu: pick('rawCpu'), cpuRatio: pick('cpuRatio') });
      }
    } finally {
      await stop(example.child);
      if (raw) await stop(raw.child);
    }
  }
}

if (json) console.log(JSON.stringify(rows));
else {
  console.log(`${rounds} round(s) of wrk -t2 -c64 -d${duration} after -d${warmup} warm-up; medians over rounds.\n`);
  console.log('| runtime | mode | request | body B | raw req/s | example req/s | × raw | p99 ms | CPU µs/req raw | CPU µs/req example | raw CPU / example CPU |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.runtime} | ${r.mode} | \`${r.target}\` | ${r.bytes} | ${r.rawRps.toFixed(0)} | ${r.rps.toFixed(0)} | ${r.ratio.toFixed(3)} | ${r.p99.toFixed(2)} | ${r.rawCpu.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.cpuRatio.toFixed(3)} |`,
    );
  }
}
