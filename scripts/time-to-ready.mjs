#!/usr/bin/env node
/**
 * Time from launching a server command to its "listening on" line, then stops it.
 *
 * ```
 * node scripts/time-to-ready.mjs npm start
 * node scripts/time-to-ready.mjs npm run start:bun
 * ```
 *
 * The command runs with `PORT=0` (a free port) in its own process group, which is stopped once the
 * line appears (or after 15 minutes). Prints `ready in N ms` (wall clock, so a busy machine adds to it).
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/time-to-ready.mjs COMMAND [ARG…]');
  process.exit(2);
}
const started = performance.now();
const child = spawn(command, args, { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
const stop = (code) => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  process.exit(code);
};
const timer = setTimeout(() => {
  console.error('not ready after 15 minutes');
  stop(1);
}, 900_000);
let seen = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  seen += chunk;
  if (/listening on /.test(seen)) {
    clearTimeout(timer);
    console.log(`ready in ${Math.round(performance.now() - started)} ms`);
    stop(0);
  }
});
child.on('exit', (code) => {
  console.error(`exited (${code}) before it was ready`);
  process.exit(1);
});
