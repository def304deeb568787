/**
 * What the benches that run the example server share: a free port to start it on, starting the
 * Node example from its sources and stopping it, and its memory as Linux reports it. Plain Node ESM,
 * as `bench/operations.mjs` imports it with `node` and no build step.
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The processes {@link killOnExit} was given that have not exited yet. */
const running = new Set();
let guarded = false;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0, then released).
 * @returns {Promise<number>} The port.
 */
export async function freePort() {
  const probe = createServer();
  await new Promise((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = probe.address();
  await new Promise((resolve) => probe.close(() => resolve(undefined)));
  if (address === null || typeof address === 'string') throw new Error('no TCP port from the kernel');
  return address.port;
}

/**
 * A process's resident memory now (`VmRSS`) and at its peak so far (`VmHWM`), from `/proc/PID/status`
 * (proc(5)), in MB of 2^20 bytes.
 * @param {number} pid - The process.
 * @returns {{ rssMb: number, hwmMb: number }} NaN for each where /proc is missing or the process is gone.
 */
export function memoryOf(pid) {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // Gone, or not Linux: NaN below.
  }
  const field = (name) => {
    const match = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) / 1024 : NaN;
  };
  return { rssMb: field('VmRSS'), hwmMb: field('VmHWM') };
}

/**
 * Kills a child process with SIGKILL should this process exit before it, however this one exits.
 * @param {import('node:child_process').ChildProcess} child - The child.
 */
export function killOnExit(child) {
  if (!guarded) {
    guarded = true;
    process.once('exit', () => {
      for (const other of running) other.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/**
 * Starts the Node example from its sources, as `npm start` runs it (tsx with the example's
 * tsconfig.json, and its raw imports), and keeps the last 4 KB it writes on stderr. It is killed
 * should this process exit first ({@link killOnExit}).
 * @param {Record<string, string | undefined>} vars - Variables over this process's; `undefined` unsets one.
 * @param {'ignore' | number} stdout - Where its standard output goes: nowhere, or a file descriptor.
 * @returns {{ child: import('node:child_process').ChildProcess, stderr(): string }} The process and its stderr so far.
 */
export function spawnNodeExample(vars, stdout) {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  env.TSX_TSCONFIG_PATH = `${root}examples/node/tsconfig.json`;
  const args = ['--import', 'tsx', '--import', `${root}examples/node/raw-imports.mjs`, `${root}examples/node/server.ts`];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', stdout, 'pipe'] });
  killOnExit(child);
  let tail = '';
  child.stderr.on('data', (chunk) => (tail = (tail + chunk.toString()).slice(-4096)));
  return { child, stderr: () => tail };
}

/**
 * Stops a child process: SIGTERM, then SIGKILL if it is still running after `graceMs`.
 * @param {import('node:child_process').ChildProcess} child - The child.
 * @param {number} graceMs - How long it may take to exit by itself.
 * @returns {Promise<void>} Resolves once it has exited.
 */
export async function stopChild(child, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
