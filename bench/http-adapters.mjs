#!/usr/bin/env node
/**
 * Adapter overhead, as ratios within one run: for Node, Bun and Deno, the same page served by the
 * runtime's raw server, by our adapter (prepared bytes), and by the whole app through the adapter
 * (see `http-adapters-server.mjs`). Load: `wrk -t2 -c64 --latency` on 127.0.0.1 after a warm-up;
 * each server is started here and stopped by its PID.
 *
 *   node bench/http-adapters.mjs                 # after `npm run build`
 *   DURATION=5s WARMUP=1s RUNTIMES=node,bun,deno VARIANTS=raw,adapter,app,app-gateway BENCH_PATH='/v1/anime?limit=25'
 *
 * Prints a Markdown table, and JSON rows with `--json`. Needs `wrk` on the PATH.
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const duration = env.DURATION ?? '5s';
const warmup = env.WARMUP ?? '1s';
const runtimes = (env.RUNTIMES ?? 'node,bun,deno').split(',');
const variants = (env.VARIANTS ?? 'raw,adapter,app,app-gateway').split(',');
const server = `${root}bench/http-adapters-server.mjs`;
const commands = {
  node: [process.execPath, [server]],
  bun: [`${root}node_modules/.bin/bun`, [server]],
  // npm: specifiers through node_modules, as in examples/deno (deno.json maps the three packages).
  deno: [`${root}node_modules/.bin/deno`, ['run', '--allow-net', '--allow-env', '--allow-read', '--config', `${root}examples/deno/deno.json`, server]],
};

function start(runtime, variant) {
  const [command, args] = commands[runtime];
  const child = spawn(command, args, { cwd: root, env: { ...env, VARIANT: variant, PORT: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${runtime} ${variant}: no URL within 20 s`))), 20_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, url: match[1], line: out.trim() });
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

function wrk(url, time) {
  const out = execFileSync('wrk', ['-t2', '-c64', `-d${time}`, '--latency', url], { encoding: 'utf8' });
  const ms = (text) => (text.endsWith('us') ? parseFloat(text) / 1000 : text.endsWith('ms') ? parseFloat(text) : parseFloat(text) * 1000);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: parseFloat(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    p50: ms(/50%\s+(\S+)/.exec(out)[1]),
    p99: ms(/99%\s+(\S+)/.exec(out)[1]),
    non2xx: errors ? Number(errors[1]) : 0,
  };
}

const rows = [];
for (const runtime of runtimes) {
  for (const variant of variants) {
    const { child, url, line } = await start(runtime, variant);
    try {
      const target = `${url}${env.BENCH_PATH ?? '/v1/anime?limit=25'}`;
      wrk(target, warmup);
      rows.push({ runtime, variant, bytes: Number(/ (\d+) B /.exec(line)?.[1]), ...wrk(target, duration) });
      process.stderr.write(`${line}: ${rows.at(-1).rps.toFixed(0)} req/s\n`);
    } finally {
      await stop(child);
    }
  }
}
for (const row of rows) {
  const raw = rows.find((r) => r.runtime === row.runtime && r.variant === 'raw');
  row.ratio = raw ? row.rps / raw.rps : null;
}
if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 2));
else {
  console.log(`| runtime | variant | body B | req/s | p50 ms | p99 ms | × raw (same runtime) | non-2xx |`);
  console.log(`|---|---|---:|---:|---:|---:|---:|---:|`);
  for (const r of rows) {
    console.log(`| ${r.runtime} | ${r.variant} | ${r.bytes} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.ratio?.toFixed(2) ?? 'n/a'} | ${r.non2xx} |`);
  }
}
