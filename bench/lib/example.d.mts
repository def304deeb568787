import type { ChildProcess } from 'node:child_process';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0, then released).
 * @returns The port.
 */
export function freePort(): Promise<number>;

/**
 * Kills a child process with SIGKILL should this process exit before it, however this one exits.
 * @param child - The child.
 */
export function killOnExit(child: ChildProcess): void;

/**
 * Starts the Node example from its sources, as `npm start` runs it (tsx with the example's
 * tsconfig.json, and its raw imports), and keeps the last 4 KB it writes on stderr. It is killed
 * should this process exit first ({@link killOnExit}).
 * @param vars - Variables over this process's; `undefined` unsets one.
 * @param stdout - Where its standard output goes: nowhere, or a file descriptor.
 * @returns The process and its stderr so far.
 */
export function spawnNodeExample(vars: Record<string, string | undefined>, stdout: 'ignore' | number): { child: ChildProcess; stderr(): string };

/**
 * Stops a child process: SIGTERM, then SIGKILL if it is still running after `graceMs`.
 * @param child - The child.
 * @param graceMs - How long it may take to exit by itself.
 * @returns Resolves once it has exited.
 */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void>;

/**
 * A process's resident memory now (`VmRSS`) and at its peak so far (`VmHWM`), from `/proc/PID/status`
 * (proc(5)), in MB of 2^20 bytes.
 * @param pid - The process.
 * @returns NaN for each where /proc is missing or the process is gone.
 */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number };
