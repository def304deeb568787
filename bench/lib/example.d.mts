/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0, then released).
 * @returns The port.
 */
export function freePort(): Promise<number>;

/**
 * A process's resident memory now (`VmRSS`) and at its peak so far (`VmHWM`), from `/proc/PID/status`
 * (proc(5)), in MB of 2^20 bytes.
 * @param pid - The process.
 * @returns NaN for each where /proc is missing or the process is gone.
 */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number };
