/**
 * `spawnServer`: starts a server process for socket tests (srvx `testsExec`, hattip testbed) and
 * waits until it prints the URL it listens on.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Options of {@link spawnServer}. */
export interface SpawnServerOptions {
  /** The executable, e.g. `process.execPath`, a path to `bun` or `deno`. */
  command: string;
  /** Its arguments, e.g. `['examples/node/dist/server.js']`. */
  args?: readonly string[];
  /** Working directory. @default process.cwd() */
  cwd?: string;
  /** Extra environment variables, on top of this process's environment. `PORT` defaults to `0` (a free port). */
  env?: Record<string, string>;
  /** How long to wait for the URL before giving up. @default 20000 */
  timeoutMs?: number;
}

/** A server process that printed its URL. */
export interface SpawnedServer {
  /** The origin the server printed, e.g. `http://127.0.0.1:41231` (any path it printed is dropped). */
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** The child process. */
  process: ChildProcess;
  /** Sends SIGTERM, and SIGKILL if the process has not exited after `graceMs`; resolves on exit. */
  close(graceMs?: number): Promise<void>;
}

const URL_PATTERN = /https?:\/\/[^\s/]+/;

/**
 * Spawns a server and resolves once it prints an `http://host:port` URL on stdout.
 * @param options - Command, arguments, environment and time limit.
 * @returns The running server.
 * @throws {Error} with the process output when it exits or stays silent past `timeoutMs`.
 * @example
 * ```ts
 * const server = await spawnServer({ command: process.execPath, args: ['dist/server.js'] });
 * afterAll(() => server.close());
 * await fetch(`${server.url}/v1/anime/1`);
 * ```
 */
export function spawnServer(options: SpawnServerOptions): Promise<SpawnedServer> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: { ...process.env, PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void close(0);
      reject(new Error(`${options.command} ${(options.args ?? []).join(' ')}: ${why}\n--- output ---\n${output}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = URL_PATTERN.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      resolve({ url: match[0], output: () => output, process: child, close });
    });
    const onExit = (code: number | null) => fail(`exited with code ${code} before printing a URL`);
    child.once('exit', onExit);
    child.once('error', (error) => fail(error.message));
  });
}
