/**
 * The operations every example server offers, whatever its runtime: one access log line per
 * request, `X-Request-Id`, `/healthz` and `/readyz`, `/metrics` on `METRICS_PORT` only (checked by
 * `promtool check metrics` when it is installed), the deprecation variables, and a self-check that a
 * blocked local client cannot turn down. Each example's tests call {@link defineRuntimeOperationsTests}.
 */
import { execFile } from 'node:child_process';
import type { SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runExample, startExample, type ExampleRuntime } from '../support/example-servers.js';

/** Starts the example with these variables (on top of `HOST=127.0.0.1` and a free `PORT`). */
export type StartExample = (env: Record<string, string>) => Promise<SpawnedServer>;

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const hasPromtool = await new Promise<boolean>((resolve) => execFile('promtool', ['--version'], (error) => resolve(!error)));
if (!hasPromtool) console.warn('promtool is not installed (Debian package `prometheus`): the /metrics format check is skipped.');

/**
 * Defines the runtime-independent operations tests for one example server.
 * @param runtime - Shown in the suite's name.
 * @param start - Starts the example.
 */
export function defineRuntimeOperationsTests(runtime: string, start: StartExample): void {
  describe(`operations: ${runtime}`, () => {
    let server: SpawnedServer;
    let metricsUrl: string;
    beforeAll(async () => {
      const port = await freePort();
      metricsUrl = `http://127.0.0.1:${port}/metrics`;
      server = await start({
        METRICS_PORT: String(port),
        STATUS_INTERVAL_SECONDS: '1',
        API_DEPRECATED_AT: '2027-01-01T00:00:00Z',
        API_SUNSET_AT: '2027-07-01T00:00:00Z',
        API_SUCCESSOR_URL: 'https://api.example.org/v2',
      });
    }, 60_000);
    afterAll(() => server?.close());

    it('answers /healthz and /readyz with 200, never cached, without the version headers', async () => {
      for (const path of ['/healthz', '/readyz']) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('deprecation')).toBeNull();
      }
    });

    it('sends the version headers on /v1 answers of every status', async () => {
      for (const path of ['/v1/anime/1', '/v1/anime/999999999', '/v1/anime?page=0']) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.headers.get('deprecation'), path).toBe('@1798761600');
        expect(res.headers.get('sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
        expect(res.headers.get('link')).toBe('<https://api.example.org/v2>; rel="successor-version"');
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('serves /metrics on METRICS_PORT only, counting exactly the requests sent', async () => {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      const series = 'catalogue_http_requests_total{route="/v1/genres/anime",status="200"}';
      const before = await (await fetch(metricsUrl)).text();
      const statuses = [(await fetch(`${server.url}/v1/genres/anime`)).status, (await fetch(`${server.url}/v1/genres/anime`)).status];
      const after = await (await fetch(metricsUrl)).text();
      expect(sample(after, series) - sample(before, series)).toBe(statuses.filter((s) => s === 200).length);
    });

    it.skipIf(!hasPromtool)('serves metrics that pass promtool check metrics', async () => {
      const text = await (await fetch(metricsUrl)).text();
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr }));
        child.stdin!.end(text);
      });
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    });

    it('keeps the self-check up while the local client is blocked', async () => {
      const checks = async () => {
        const text = await (await fetch(metricsUrl)).text();
        return ['up', 'degraded', 'fail'].map((outcome) => sample(text, `catalogue_status_checks_total{service="catalogue-api",outcome="${outcome}"}`));
      };
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await fetch(`${server.url}/v1/anime/1`)).status);
      expect(statuses.slice(-1)).toEqual([403]);
      const [up, degraded, fail] = await checks();
      await expect.poll(async () => (await checks()).reduce((a, b) => a + b), { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(up! + degraded! + fail! + 2);
      expect((await checks())[2]).toBe(fail);
    }, 40_000);

    it('writes an access log line within seconds of its answer, while it serves (no batch waits for more)', async () => {
      const path = `/v1/anime/1?fresh=${Math.random()}`;
      const res = await fetch(`${server.url}${path}`);
      const id = res.headers.get('x-request-id');
      await res.arrayBuffer();
      await expect.poll(() => server.output().includes(`"requestId":"${id}"`), { timeout: 3_000, interval: 50 }).toBe(true);
    });

    it('wrote one access log line per request, with the route template and request id', async () => {
      const text = await (await fetch(metricsUrl)).text();
      const answered = text
        .split('\n')
        .filter((line) => line.startsWith('catalogue_http_requests_total{'))
        .reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);
      await server.close();
      const all = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const lines = all.filter((line) => line.msg === 'request completed');
      expect(lines).toHaveLength(answered);
      // pino's own fields on every line, the server's start-up and shutdown lines among them.
      for (const line of all) {
        expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number), pid: expect.any(Number), hostname: expect.any(String), msg: expect.any(String) });
      }
      expect(all.map((line) => line.msg)).toEqual(expect.arrayContaining([expect.stringMatching(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/), 'stopped']));
      expect(lines.find((line) => line.path === '/v1/anime/999999999')).toMatchObject({ route: '/v1/anime/:id', status: 404, method: 'GET' });
      for (const line of lines) expect(Object.keys(line)).toEqual(expect.arrayContaining(['time', 'path', 'status', 'bytes', 'durationMs', 'requestId', 'client']));
    });
  });
}

/** The access log lines of a server's output. */
const accessLines = (output: string) => output.split('\n').filter((line) => line.startsWith('{') && line.endsWith(',"msg":"request completed"}'));

/** Stops the server and returns all it wrote, once its output has been read to the end. */
async function stopAndRead(server: SpawnedServer): Promise<string> {
  await server.close();
  const stdout = server.process.stdout!;
  if (!stdout.closed) await new Promise((resolve) => stdout.once('close', resolve));
  return server.output();
}

/**
 * Defines the tests of the operations variables (`readOperationsEnv` in core) as one example
 * server takes them: request ids whatever the log settings, log lines at pino's numeric level, and
 * a start refused on a value it cannot read.
 * @param runtime - Which example.
 */
export function defineRuntimeSettingsTests(runtime: ExampleRuntime): void {
  describe(`operations settings: ${runtime} (examples/${runtime})`, () => {
    let quiet: SpawnedServer;
    let anonymous: SpawnedServer;
    beforeAll(async () => {
      [quiet, anonymous] = await Promise.all([startExample(runtime, { ACCESS_LOG: 'off' }), startExample(runtime, { REQUEST_ID: 'off' })]);
    });
    afterAll(() => Promise.all([quiet?.close(), anonymous?.close()]));

    it('sends X-Request-Id with ACCESS_LOG=off and no METRICS_PORT, and logs nothing', async () => {
      for (const path of ['/v1/anime/1', '/healthz', '/api/status']) {
        expect((await fetch(`${quiet.url}${path}`)).headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(accessLines(await stopAndRead(quiet))).toEqual([]);
    });

    it("sends no X-Request-Id with REQUEST_ID=off, and logs lines at pino's level 30 without one", async () => {
      const res = await fetch(`${anonymous.url}/v1/anime/1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBeNull();
      const lines = accessLines(await stopAndRead(anonymous));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\{"level":30,/);
      expect(JSON.parse(lines[0]!)).not.toHaveProperty('requestId');
    });

    it('keeps answering while nothing reads its access log', async () => {
      const server = await startExample(runtime, { RATE_LIMIT: 'off' });
      try {
        // Once the pipe (64 KiB on Linux) and the reader's buffer are full, a log written
        // synchronously would stop the server itself. 3,000 lines are ~1 MB.
        server.process.stdout!.pause();
        for (let round = 0; round < 60; round++) {
          const statuses = await Promise.all(Array.from({ length: 50 }, () => fetch(`${server.url}/v1/anime/1`).then(async (res) => (await res.arrayBuffer(), res.status))));
          expect(new Set(statuses)).toEqual(new Set([200]));
        }
      } finally {
        server.process.stdout!.resume();
        await server.close();
      }
    }, 60_000);

    // Every message is checked in core (operations-env.test.ts); here, that the server stops on one.
    it.each([
      ['ACCESS_LOG', 'OFF', 'ACCESS_LOG must be "json" or "off", not "OFF"'],
      ['API_SUNSET_AT', 'next spring', 'API_SUNSET_AT must be an ISO 8601 date'],
    ])('refuses to start with %s=%s', async (name, value, message) => {
      const result = await runExample(runtime, { [name]: value });
      expect(JSON.parse(result.stderr).msg).toContain(message);
      expect(result.output).not.toContain('listening on');
      expect(result.code).not.toBe(0);
    });
  });
}
