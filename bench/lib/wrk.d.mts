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
 * The median of some numbers: the middle one, or the mean of the middle two.
 * @param values - At least one number.
 * @returns The median.
 */
export function median(values: readonly number[]): number;
