/**
 * The load settings of the benches that measure each runtime under wrk, from the environment:
 * `DURATION` of a measured run, `WARMUP` before it, `ROUNDS`, and the `RUNTIMES` to measure.
 * @param warmup - The warm-up when `WARMUP` is not set.
 * @returns 5s, `warmup`, 3 rounds and node, bun and deno unless the environment says otherwise.
 */
export function loadSettings(warmup: string): { duration: string; warmup: string; rounds: number; runtimes: string[] };

/**
 * CPU seconds a process has used (user + system, all threads), from `/proc/PID/stat`.
 * @param pid - The process.
 * @returns Seconds, or NaN where /proc is missing.
 */
export function cpuSeconds(pid: number): number;

/**
 * The numbers every wrk report holds.
 * @param out - wrk's stdout.
 * @returns Requests/s, requests completed, and "Non-2xx or 3xx responses" (0 when wrk prints no such line).
 */
export function readWrk(out: string): { rps: number; requests: number; non2xx: number };

/**
 * The latencies of a report of `wrk --latency`.
 * @param out - wrk's stdout.
 * @returns The median, the 99th percentile and the slowest, in milliseconds.
 */
export function readLatency(out: string): { p50: number; p99: number; max: number };

/**
 * The median of some numbers: the middle one, or the mean of the middle two.
 * @param values - At least one number.
 * @returns The median.
 */
export function median(values: readonly number[]): number;
