/**
 * The built Node example server (`examples/node/dist/server.js`) started with the environment
 * variables the README documents, over real sockets: limits on by default, Server Keys and
 * restricted routes, and the status API with its own port, upstreams and configuration file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statusSnapshotSchema } from '@catalogue-api/core/schemas';
import type { SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startExample } from '../../../test/support/example-servers.js';

describe('the Node example server configured through its environment', () => {
  let server: SpawnedServer;
  let upstream: Server;
  let statusPort: number;
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-api-example-env-'));

  beforeAll(async () => {
    upstream = createServer((_, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/health`;
    const config = join(dir, 'status.json');
    writeFileSync(
      config,
      JSON.stringify({
        page: { name: 'Example status page', url: 'https://status.example.org' },
        maintenances: [{ id: 'planned', serviceId: 'all', title: 'Planned move', startsAt: '2999-01-01T00:00:00Z', endsAt: '2999-01-01T01:00:00Z' }],
      }),
    );
    statusPort = await freePort();
    server = await startExample('node', {
      // RATE_LIMIT unset: limits on.
      RATE_LIMIT: '',
      SERVER_KEYS: 'env-key-one,env-key-two',
      RESTRICTED_ROUTES: '/v1/top/*',
      STATUS_PORT: String(statusPort),
      STATUS_UPSTREAMS: `upstream=${upstreamUrl}`,
      STATUS_CONFIG: config,
    });
  });

  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers restricted routes with 401 without a key, and serves them for a key from SERVER_KEYS', async () => {
    const denied = await fetch(`${server.url}/v1/top/anime`);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ type: 'UnauthorizedException', path: '/v1/top/anime' });
    const allowed = await fetch(`${server.url}/v1/top/anime`, { headers: { 'x-server-key': 'env-key-two' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toMatch(/^private/);
    await allowed.arrayBuffer();
    const unknown = await fetch(`${server.url}/v1/anime/1`, { headers: { 'x-server-key': 'env-key-three' } });
    expect(unknown.status).toBe(401);
    await unknown.arrayBuffer();
  });

  it('serves the status API on STATUS_PORT too, with the upstreams and the configuration file', async () => {
    const alone = await fetch(`http://127.0.0.1:${statusPort}/api/status`);
    expect(alone.status).toBe(200);
    // Observed like the main port: its own request id, and a line in the access log.
    const requestId = alone.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => server.output()).toContain(`"requestId":"${requestId}"`);
    expect(server.output().split('\n').find((line) => line.includes(requestId!))).toContain('"path":"/api/status","route":"/api/status"');
    const snapshot = statusSnapshotSchema.parse(await alone.json());
    expect(snapshot.page).toEqual({ name: 'Example status page', url: 'https://status.example.org' });
    expect(snapshot.services.map((service) => service.id)).toEqual(['catalogue-api', 'upstream']);
    expect(snapshot.scheduled_maintenances).toMatchObject([{ id: 'planned', service_id: 'all', state: 'scheduled' }]);
    // Only the status API is on that port.
    const other = await fetch(`http://127.0.0.1:${statusPort}/v1/anime`);
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    const same = await fetch(`${server.url}/api/status`);
    expect(statusSnapshotSchema.parse(await same.json()).services).toHaveLength(2);
  });

  it('serves the status page at / of STATUS_PORT and at /status of PORT, titled from the configuration file', async () => {
    for (const url of [`http://127.0.0.1:${statusPort}/`, `http://127.0.0.1:${statusPort}/status`, `${server.url}/status`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=30');
      const html = await res.text();
      expect(html, url).toContain('<title>Example status page</title>');
      expect(html, url).toContain('<strong>Planned move</strong> · Scheduled');
    }
    const root = await fetch(`${server.url}/`);
    expect(root.status).toBe(404);
    await root.arrayBuffer();
  });

  // Last, so that the refused requests of this client do not spill into the other tests' second.
  it('rate limits public clients, with Retry-After and CORS on the 429', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    // Thirteen at once: even spread over three seconds, one of them gets more than four.
    for (const res of await Promise.all(Array.from({ length: 13 }, () => fetch(`${server.url}/v1/anime?q=env`)))) {
      statuses.push(res.status);
      if (res.status === 429) last = res;
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('access-control-allow-origin')).toBe('*');
  });
});
