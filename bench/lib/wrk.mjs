/**
 * What the wrk benches (`bench/http-adapters.mjs`, `bench/examples.mjs`, `bench/operations.mjs`)
 * share: the load settings they read from the environment, and what they read after each run:
 * wrk's report, the server process's CPU time, and medians over rounds. Plain Node ESM, as the
 * benches that import it run with `node` and no build step.
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * The load settings of the benches that measure each runtime under wrk, from the environment:
 * `DURATION` of a measured run, `WARMUP` before it, `ROUNDS`, and the `RUNTIMES` to measure.
 * @param {string} warmup - The warm-up when `WARMUP` is not set.
 * @returns {{ duration: string, warmup: string, rounds: number, runtimes: string[] }} 5s, `warmup`,
 *   3 rounds and node, bun and deno unless the environment says otherwise.
 */
export function loadSettings(warmup) {
  const env = process.env;
  return {
    duration: env.DURATION ?? '5s',
    warmup: env.WARMUP ?? warmup,
    rounds: Number(env.ROUNDS ?? 3),
    runtimes: (env.RUNTIMES ?? 'node,bun,deno').split(','),
  };
}

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

/** A latency as wrk prints it (`850.00us`, `1.20ms`, `2.00s`), in milliseconds. */
const ms = (text) => (text.endsWith('us') ? parseFloat(text) / 1000 : text.endsWith('ms') ? parseFloat(text) : parseFloat(text) * 1000);

/**
 * The latencies of a report of `wrk --latency`.
 * @param {string} out - wrk's stdout.
 * @returns {{ p50: number, p99: number, max: number }} The median, the 99th percentile and the
 *   slowest, in milliseconds.
 */
export function readLatency(out) {
  return {
    p50: ms(/^\s+50%\s+(\S+)/m.exec(out)[1]),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(out)[1]),
    max: ms(/Latency\s+\S+\s+\S+\s+(\S+)/.exec(out)[1]),
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
