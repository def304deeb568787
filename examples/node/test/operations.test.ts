/**
 * Running the Node example in production: its access log, `/metrics` on `METRICS_PORT`, `/healthz`
 * and `/readyz`, the deprecation variables, the status self-check under a blocked local client, and
 * its word at start on an unreachable Redis. Every server is the built example, over real sockets.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { defineHttpContract, type SpawnedServer } from '@catalogue-api/testkit';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRuntimeSettingsTests } from '../../../test/operations/runtime-operations.js';
import { freePort, startExample } from '../../../test/support/example-servers.js';

const { REDIS_URL, DATABASE_URL } = process.env;
const example = (env: Record<string, string>) => startExample('node', env);

/** The access log lines a server wrote to stdout (beside its start-up and shutdown lines). */
function logLines(server: SpawnedServer): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request completed');
}

/** The value of one sample in Prometheus text, e.g. `catalogue_http_requests_total{route="/v1/anime/:id",status="200"}`. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

function promtool(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
    child.stdin!.end(text);
  });
}

const hasPromtool = await new Promise<boolean>((resolve) => execFile('promtool', ['--version'], (error) => resolve(!error)));
if (!hasPromtool) console.warn('promtool is not installed (Debian package `prometheus`): the /metrics format check is skipped.');

describe('access log over a whole HTTP contract run', () => {
  const keys = ['ops-test-key-5b1e8d0c7a', 'ops-test-key-93f6a2e4d1'];
  let server: SpawnedServer;
  let metricsUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    server = await example({ RATE_LIMIT: 'off', SERVER_KEYS: keys.join(','), ACCESS_LOG: 'json', METRICS_PORT: String(port) });
  });
  afterAll(() => server?.close());

  // The whole contract in the Server Key tier, so that every request carries a key.
  defineHttpContract({ runtime: 'node (examples/node, access log on, Server Key tier)', baseUrl: () => server.url, headers: { 'x-server-key': keys[0]! } });

  it('wrote one line per request with every field, and no Server Key or If-None-Match value in any', async () => {
    const etag = (await fetch(`${server.url}/v1/anime/1`)).headers.get('etag')!;
    const conditional = await fetch(`${server.url}/v1/anime/1`, { headers: { 'if-none-match': etag, 'x-server-key': keys[1]! } });
    expect(conditional.status).toBe(304);
    const wrong = await fetch(`${server.url}/v1/anime/1`, { headers: { 'x-server-key': `${keys[1]}-not-it` } });
    expect(wrong.status).toBe(401);
    const requestId = wrong.headers.get('x-request-id');
    const metrics = await (await fetch(metricsUrl)).text();
    await server.close();

    // One line per request the app answered: as many as the metrics counted.
    const answered = metrics
      .split('\n')
      .filter((line) => line.startsWith('catalogue_http_requests_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);
    const lines = logLines(server);
    expect(answered).toBeGreaterThan(50);
    expect(lines).toHaveLength(answered);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['time', 'method', 'path', 'status', 'bytes', 'durationMs', 'requestId', 'client']));
      expect(typeof line.path).toBe('string');
      expect(String(line.path)).not.toContain('?');
    }
    const text = server.output();
    for (const key of keys) expect(text).not.toContain(key);
    expect(text).not.toContain(etag);
    expect(text).not.toContain('not-the-tag');
    const last = lines.find((line) => line.requestId === requestId);
    expect(last).toMatchObject({ method: 'GET', path: '/v1/anime/1', route: '/v1/anime/:id', status: 401 });
    expect(lines.find((line) => line.status === 304)).toMatchObject({ tier: 'server', cache: 'not_modified', route: '/v1/anime/:id' });
    expect(lines.filter((line) => line.tier === 'server').every((line) => /^key:[0-9a-f]{12}$/.test(String(line.client)))).toBe(true);
    expect(text).not.toMatch(/"client":"127\.0\.0\.1"/);
  });
});

describe('access log switches and request ids', () => {
  it('writes no line with ACCESS_LOG=off, and returns a trusted proxy X-Request-Id, never an untrusted one', async () => {
    const quiet = await example({ ACCESS_LOG: 'off' });
    await fetch(`${quiet.url}/v1/anime/1`);
    await quiet.close();
    expect(logLines(quiet)).toEqual([]);

    const trusting = await example({ TRUST_PROXY: '127.0.0.1' });
    const kept = await fetch(`${trusting.url}/v1/anime/1`, { headers: { 'x-request-id': 'edge-42' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42');
    await trusting.close();

    const untrusting = await example({});
    const replaced = await fetch(`${untrusting.url}/v1/anime/1`, { headers: { 'x-request-id': 'edge-42' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await untrusting.close();
  });

  it('returns an X-Request-Id with the log and metrics off, and none with REQUEST_ID=off', async () => {
    const quiet = await example({ ACCESS_LOG: 'off', TRUST_PROXY: '127.0.0.1' });
    expect((await fetch(`${quiet.url}/v1/anime/1`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${quiet.url}/v1/anime/1`, { headers: { 'x-request-id': 'edge-7' } })).headers.get('x-request-id')).toBe('edge-7');
    await quiet.close();

    const bare = await example({ ACCESS_LOG: 'off', REQUEST_ID: 'off' });
    expect((await fetch(`${bare.url}/v1/anime/1`)).headers.get('x-request-id')).toBeNull();
    await bare.close();

    await expect(example({ REQUEST_ID: 'yes' })).rejects.toThrow(/REQUEST_ID must be \\"on\\" or \\"off\\", not \\"yes\\"/);
  });
});

defineRuntimeSettingsTests('node');

describe('access log batches', () => {
  it('writes a line soon after its request, with no more traffic and no shutdown, and every line whole at SIGTERM', async () => {
    const server = await example({ RATE_LIMIT: 'off', ACCESS_LOG: 'json' });
    await fetch(`${server.url}/v1/anime/1`);
    // Batches go out at least every 50 ms: a quiet server's line is not held back until more come.
    await expect.poll(() => logLines(server).length, { timeout: 5_000, interval: 50 }).toBe(1);
    await Promise.all(Array.from({ length: 400 }, (_, i) => fetch(`${server.url}/v1/anime/${(i % 5) + 1}`).then((r) => r.arrayBuffer())));
    await server.close();
    // Every request's line, each one whole (logLines parses every line), the last one ended too.
    expect(logLines(server)).toHaveLength(401);
    expect(server.output().endsWith('}\n')).toBe(true);
  }, 60_000);
});

describe('metrics on METRICS_PORT', () => {
  let server: SpawnedServer;
  let metricsUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    server = await example({ METRICS_PORT: String(port), ACCESS_LOG: 'off' });
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  });
  afterAll(() => server?.close());

  it('is not served on the public port (the public gets the 404 envelope)', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('moves each counter by exactly the requests sent, by route template and status', async () => {
    const series = (status: number) => `catalogue_http_requests_total{route="/v1/anime/:id",status="${status}"}`;
    const before = await (await fetch(metricsUrl)).text();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${server.url}/v1/anime/1`)).status);
    statuses.push((await fetch(`${server.url}/v1/anime/999999999`)).status);
    const after = await (await fetch(metricsUrl)).text();
    expect(statuses).toContain(200);
    for (const status of new Set([...statuses, 200, 404, 429])) {
      expect(sample(after, series(status)) - sample(before, series(status)), `status ${status}`).toBe(statuses.filter((s) => s === status).length);
    }
    const cache = (result: string) => sample(after, `catalogue_cache_requests_total{tier="public",result="${result}"}`) - sample(before, `catalogue_cache_requests_total{tier="public",result="${result}"}`);
    expect(cache('hit') + cache('miss')).toBe(statuses.filter((s) => s === 200 || s === 404).length);
    expect(after).not.toContain('/v1/anime/999999999');
  });

  it('counts 429s by window and tier and 403 blocks, one per refused request', async () => {
    const before = await (await fetch(metricsUrl)).text();
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await fetch(`${server.url}/v1/anime/1`)).status);
    const after = await (await fetch(metricsUrl)).text();
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(statuses).toContain(403);
    expect(delta('catalogue_rate_limited_total{tier="public",window="second"}')).toBe(statuses.filter((s) => s === 429).length);
    expect(delta('catalogue_blocked_requests_total')).toBe(statuses.filter((s) => s === 403).length);
    expect(delta('catalogue_http_requests_total{route="/v1/anime/:id",status="403"}')).toBe(statuses.filter((s) => s === 403).length);
  });

  it.skipIf(!hasPromtool)('has alerting rules in docs/operations.md that pass promtool check rules', async () => {
    const page = await readFile(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    const rules = /## What to alert on[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)![1]!;
    const file = join(await mkdtemp(join(tmpdir(), 'catalogue-rules-')), 'rules.yml');
    await writeFile(file, rules);
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile('promtool', ['check', 'rules', file], (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr })),
    );
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(result.code).toBe(0);
  });

  it.skipIf(!hasPromtool)('passes promtool check metrics', async () => {
    const text = await (await fetch(metricsUrl)).text();
    const result = await promtool(text);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('deprecation variables', () => {
  it('put Deprecation, Sunset and Link on every /v1 answer and on no other', async () => {
    const server = await example({
      API_DEPRECATED_AT: '2027-01-01T00:00:00Z',
      API_SUNSET_AT: '2027-07-01T00:00:00Z',
      API_SUCCESSOR_URL: 'https://api.example.org/v2',
      RATE_LIMIT: 'off',
    });
    try {
      for (const [path, method] of [['/v1/anime/1', 'GET'], ['/v1/anime/999999999', 'GET'], ['/v1/anime?page=0', 'GET'], ['/v1/anime', 'OPTIONS'], ['/v1/anime', 'DELETE']]) {
        const res = await fetch(`${server.url}${path}`, { method });
        expect(res.headers.get('deprecation'), `${method} ${path}`).toBe('@1798761600');
        expect(res.headers.get('sunset')).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
        expect(res.headers.get('link')).toBe('<https://api.example.org/v2>; rel="successor-version"');
      }
      for (const path of ['/api/status', '/healthz', '/readyz']) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('deprecation'), path).toBeNull();
        expect(res.headers.get('sunset')).toBeNull();
      }
    } finally {
      await server.close();
    }
  });

  it('refuses to start on an unreadable date', async () => {
    await expect(example({ API_SUNSET_AT: 'next spring' })).rejects.toThrow(/API_SUNSET_AT must be an ISO 8601 date/);
  });
});

describe('the status self-check', () => {
  it('finds the API up while the local client is blocked by the gateway', async () => {
    const port = await freePort();
    const metricsUrl = `http://127.0.0.1:${port}/metrics`;
    const server = await example({ STATUS_INTERVAL_SECONDS: '1', METRICS_PORT: String(port), ACCESS_LOG: 'off' });
    const checks = async () => {
      const text = await (await fetch(metricsUrl)).text();
      const count = (outcome: string) => sample(text, `catalogue_status_checks_total{service="catalogue-api",outcome="${outcome}"}`);
      return { up: count('up'), degraded: count('degraded'), fail: count('fail') };
    };
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await fetch(`${server.url}/v1/anime/1`)).status);
      expect(statuses.slice(-1)).toEqual([403]);
      const before = await checks();
      // Two checks after the block: the flap rule (two failures) would have turned the service down.
      await expect.poll(async () => Object.values(await checks()).reduce((a, b) => a + b), { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(
        before.up + before.degraded + before.fail + 2,
      );
      const after = await checks();
      expect(after.fail).toBe(before.fail);
      expect(after.up).toBeGreaterThanOrEqual(before.up + 2);
      // The client stays blocked: the probe did not lift or share its block.
      expect((await fetch(`${server.url}/v1/anime/1`)).status).toBe(403);
    } finally {
      await server.close();
    }
  }, 40_000);
});

describe('a wrong REDIS_URL', () => {
  it('is said plainly at start: the gateway back end is unreachable and the API answers 503 until it is back', async () => {
    const server = await example({ REDIS_URL: `redis://:hunter2@127.0.0.1:${await freePort()}` });
    try {
      const startup = server.output();
      expect(startup).toMatch(/Gateway back end unreachable: no answer from Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+/);
      expect(startup).toContain('The API answers 503');
      expect(startup).not.toContain('hunter2');
      const res = await fetch(`${server.url}/v1/anime/1`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      await server.close();
    }
  });
});

/** A TCP proxy the test can cut (every connection dropped, new ones refused) and restore. */
async function startProxy(targetPort: number): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  let open = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!REDIS_URL || !DATABASE_URL)('readiness over a Redis and a PostgreSQL the test can cut', () => {
  const suffix = Math.random().toString(36).slice(2, 10);
  const schema = `ops_ready_${suffix}`;
  const prefix = `catalogue-api-test:ops-ready:${suffix}:`;
  let redis: Awaited<ReturnType<typeof startProxy>>;
  let pg: Awaited<ReturnType<typeof startProxy>>;
  let server: SpawnedServer;
  const ready = async () => (await fetch(`${server.url}/readyz`)).status;
  let metricsPort: number;
  const up = async (dependency: string) => sample(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), `catalogue_dependency_up{dependency="${dependency}"}`);

  beforeAll(async () => {
    metricsPort = await freePort();
    redis = await startProxy(Number(new URL(REDIS_URL!).port || 6379));
    pg = await startProxy(Number(new URL(DATABASE_URL!).port || 5432));
    const database = new URL(DATABASE_URL!);
    database.port = String(pg.port);
    server = await example({
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      REDIS_PREFIX: prefix,
      DATABASE_URL: database.toString(),
      DATABASE_SCHEMA: schema,
      ACCESS_LOG: 'off',
      METRICS_PORT: String(metricsPort),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await Promise.all([redis?.close(), pg?.close()]);
    const sql = postgres(DATABASE_URL!, { onnotice: () => undefined, max: 1 });
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end();
    const { createClient } = await import('redis');
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
    client.destroy();
  });

  it('answers 503 within 2 s of Redis being cut, and 200 within 2 s of its return', async () => {
    expect(await ready()).toBe(200);
    redis.cut();
    await expect.poll(ready, { timeout: 2_000, interval: 100 }).toBe(503);
    redis.restore();
    await expect.poll(ready, { timeout: 2_000, interval: 100 }).toBe(200);
  });

  it('answers 503 within 2 s of PostgreSQL being cut, and 200 within 2 s of its return', async () => {
    expect(await ready()).toBe(200);
    pg.cut();
    await expect.poll(ready, { timeout: 2_000, interval: 100 }).toBe(503);
    const body = (await (await fetch(`${server.url}/readyz`)).json()) as { error: string };
    expect(body.error).toContain('store');
    pg.restore();
    await expect.poll(ready, { timeout: 2_000, interval: 100 }).toBe(200);
  });

  it('moves catalogue_dependency_up with nothing polling /readyz', async () => {
    await expect.poll(() => up('gateway'), { timeout: 7_000, interval: 200 }).toBe(1);
    redis.cut();
    try {
      // Readiness is checked every 5 s when metrics are on.
      await expect.poll(() => up('gateway'), { timeout: 7_000, interval: 200 }).toBe(0);
      expect(await up('store')).toBe(1);
    } finally {
      redis.restore();
    }
    await expect.poll(() => up('gateway'), { timeout: 7_000, interval: 200 }).toBe(1);
  }, 30_000);

  it('keeps /healthz at 200 throughout', async () => {
    pg.cut();
    redis.cut();
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      pg.restore();
      redis.restore();
    }
  });
});
