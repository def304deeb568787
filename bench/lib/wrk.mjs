/**
 * What the wrk benches (`bench/http-adapters.mjs`, `bench/operations.mjs`) read after each run:
 * wrk's report, the server process's CPU time, and medians over rounds. Plain Node ESM, as the
 * benches that import it run with `node` and no build step.
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * CPU seconds a process has used (user + system, all threads), from `/proc/PID/stat`.
 * @param {number} pid - The process.
 * @returns {number} Seconds, or NaN where /proc is missing.
 */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100 on Linux)
  } catch {
    return NaN;
  }
}

/**
 * The numbers every wrk report holds.
 * @param {string} out - wrk's stdout.
 * @returns {{ rps: number, requests: number, non2xx: number }} Requests/s, requests completed, and
 *   "Non-2xx or 3xx responses" (0 when wrk prints no such line, which it does when there are none).
 */
export function readWrk(out) {
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: parseFloat(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    requests: Number(/(\d+) requests in/.exec(out)[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
  };
}

/**
 * The median of some numbers: the middle one, or the mean of the middle two.
 * @param {number[]} values - At least one number.
 * @returns {number} The median.
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
