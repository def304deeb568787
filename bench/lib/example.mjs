/**
 * What the benches that run the example server share: a free port to start it on, and its memory as
 * Linux reports it. Plain Node ESM, as `bench/operations.mjs` imports it with `node` and no build step.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

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
