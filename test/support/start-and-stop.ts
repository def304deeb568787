/**
 * The tests of how every example server (Node, Bun, Deno) starts and stops: a bad variable or a
 * start-up failure is one line on stderr and a non-zero exit code, and its npm start script stops
 * the whole process tree on a SIGTERM or SIGINT sent to npm alone, answering what is in flight.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runExample, startExample, type ExampleRuntime } from './example-servers.js';

/** The npm script that starts each example from the repository root. */
const SCRIPTS: Record<ExampleRuntime, string[]> = {
  node: ['start'],
  bun: ['run', 'start:bun'],
  deno: ['run', 'start:deno'],
};

/** The processes of a process group (Linux: field 5 of /proc/PID/stat), zombies left out. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so read after the last `)`.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return members;
}

/** Polls until `check` holds, or fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a TCP connection to the port is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** `npm start` (or the runtime's script) in a process group of its own, once it listens. */
async function startScript(runtime: ExampleRuntime): Promise<{ npm: ChildProcess; port: number; output: () => string }> {
  const npm = spawn('npm', SCRIPTS[runtime], {
    cwd: repoRoot,
    // The memory store and gateway, whatever the test run has set for other suites; no access log to read.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', ACCESS_LOG: 'off', RATE_LIMIT: 'off', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /listening on http:\/\/127\.0\.0\.1:\d+\/v1/.test(output) || npm.exitCode !== null, 120_000, `npm ${SCRIPTS[runtime].join(' ')} listens`);
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(output)?.[1]);
  if (!port) throw new Error(`npm ${SCRIPTS[runtime].join(' ')} did not start:\n${output}`);
  return { npm, port, output: () => output };
}

/**
 * Sends a request on a socket of its own and reads nothing until told to, so that its answer is
 * still on its way when the server is told to stop (a 200 KB OpenAPI document).
 */
function pausedRequest(port: number): { sent: Promise<void>; read(): Promise<{ status: number; body: Buffer; length: number }> } {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  const sent = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', () => resolve()));
    socket.once('error', reject);
  });
  return {
    sent,
    read: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('error', reject);
        socket.once('end', () => {
          const all = Buffer.concat(chunks);
          const head = all.subarray(0, all.indexOf('\r\n\r\n')).toString();
          resolve({
            status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
            length: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]),
            body: all.subarray(all.indexOf('\r\n\r\n') + 4),
          });
        });
        socket.resume();
      }),
  };
}

/**
 * Defines the start and stop tests of one example server.
 * @param runtime - Which example.
 */
export function defineStartAndStopTests(runtime: ExampleRuntime): void {
  describe(`the ${runtime} example at start`, () => {
    it.each([
      ['PORT', 'notaport', 'Invalid configuration: PORT must be a port number from 0 to 65535, not "notaport"'],
      [
        'STATUS_INTERVAL_SECONDS',
        '3600',
        'Invalid configuration: STATUS_INTERVAL_SECONDS must be a whole number of seconds from 1 to 120 (staleAfterSeconds: how long a status result counts), not "3600"',
      ],
      [
        'RESTRICTED_ROUTES',
        'v1/top/anime',
        'Invalid configuration: RESTRICTED_ROUTES must be route patterns of this API separated by commas, such as /v1/top/*,/v1/anime/:id/full, not "v1/top/anime": v1/top/anime matches no route (did you mean /v1/top/anime?)',
      ],
      ['RATE_LIMIT', 'false', 'Invalid configuration: RATE_LIMIT must be "on" or "off", not "false"'],
    ])('refuses %s=%s with exit code 2 and one line on stderr, no stack trace', async (name, value, line) => {
      const result = await runExample(runtime, { [name]: value });
      expect(result.code).toBe(2);
      // One line of pino's JSON, at its level 60 (fatal).
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stderr)).toMatchObject({ level: 60, msg: line, pid: expect.any(Number), hostname: expect.any(String) });
      expect(result.output).not.toContain('listening on');
    });

    describe('with its port taken', () => {
      let taken: Server;
      beforeAll(async () => {
        taken = createServer();
        await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      });
      afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

      it('stops with exit code 1 and one line on stderr, no stack trace', async () => {
        const result = await runExample(runtime, { PORT: String((taken.address() as AddressInfo).port) });
        expect(result.code).toBe(1);
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]!).msg).toMatch(/^Could not start: .*(in use|EADDRINUSE).*set PORT/);
      });
    });

    it('warns in one line that restricted routes without Server Keys answer 401 to everyone, and serves', async () => {
      const server = await startExample(runtime, { RESTRICTED_ROUTES: '/v1/top/*', SERVER_KEYS: '', ACCESS_LOG: 'off' });
      try {
        expect(server.output()).toContain('"msg":"Warning: RESTRICTED_ROUTES is set but SERVER_KEYS is empty: /v1/top/* answer 401 to every client."}\n');
        const res = await fetch(`${server.url}/v1/top/anime`);
        expect(res.status).toBe(401);
        await res.arrayBuffer();
      } finally {
        await server.close();
      }
    });
  });

  it('exits within SHUTDOWN_TIMEOUT_MS of a SIGTERM when a client does not read its answers', async () => {
    const server = await startExample(runtime, { SHUTDOWN_TIMEOUT_MS: '1000', ACCESS_LOG: 'off', RATE_LIMIT: 'off' });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    try {
      socket.pause();
      await new Promise((resolve) => socket.once('connect', resolve));
      // 100 pipelined OpenAPI documents, 20 MB, more than the socket buffers hold: answers stay pending.
      socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(100));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
      const started = Date.now();
      server.process.kill('SIGTERM');
      const code = await exited;
      // Well within the test's own timeout, however slow the machine: the bound holds, not a close that waits for the client.
      expect(Date.now() - started).toBeLessThan(10_000);
      // Either the runtime dropped the connection at once (0), or the bound ended the wait (1), saying so.
      if (code !== 0) {
        expect(code).toBe(1);
        expect(server.output()).toContain('Stopped after 1000 ms (SHUTDOWN_TIMEOUT_MS) with requests still in flight.');
      }
    } finally {
      socket.destroy();
      await server.close();
    }
  }, 60_000);

  describe.each(['SIGTERM', 'SIGINT'] as const)(`npm ${SCRIPTS[runtime].join(' ')} sent %s (to npm alone)`, (signal) => {
    it('stops every process it started and closes the port, answering the request in flight', async () => {
      const { npm, port, output } = await startScript(runtime);
      const pgid = npm.pid!;
      try {
        const inFlight = pausedRequest(port);
        await inFlight.sent;
        // Time for the server to read the request and start its answer.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(groupMembers(pgid).length).toBeGreaterThan(0);
        process.kill(npm.pid!, signal);
        // The answer is read only now, after the signal: it arrives whole.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const answer = await inFlight.read();
        expect(answer.status).toBe(200);
        expect(answer.body.length).toBe(answer.length);
        expect(JSON.parse(answer.body.toString())).toHaveProperty('openapi');
        await until(() => groupMembers(pgid).length === 0, 15_000, `every process of npm ${SCRIPTS[runtime].join(' ')} has exited (left: ${groupMembers(pgid).join(', ')})`);
        expect(await refuses(port)).toBe(true);
        expect(output()).not.toMatch(/^\s+at /m);
      } finally {
        // Whatever a failure left behind: this test's process group only.
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, 180_000);
  });
}
