/**
 * One canonical path per request, decided at the entry of the pipeline, for every stage: the
 * gateway's restricted routes and cache, the router, and the error envelope. In-process through
 * the plain door, which (unlike a Web `Request`) receives the target exactly as a client sent it.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { combineApps, createCatalogueApp, createMemoryStatusStore, createMemoryStore, createStatusApp, type PlainRequest } from '../src/index.js';

const store = createMemoryStore(demoData);
const gateway = { keys: ['key-one'], restrictedRoutes: ['/v1/top/*', '/v1/anime/:id/full'], rateLimit: false as const };

function request(target: string, headers: Record<string, string> = {}): PlainRequest {
  const q = target.indexOf('?');
  return {
    method: 'GET',
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    header: (name) => headers[name],
    clientAddress: '203.0.113.7',
  };
}

async function send(app: { handle(request: PlainRequest): Promise<{ status: number; headers: Record<string, string>; body: unknown }> }, target: string, headers?: Record<string, string>) {
  const response = await app.handle(request(target, headers));
  // A body is text or UTF-8 bytes (the catalogue's serializer writes bytes).
  const body = response.body instanceof Uint8Array ? new TextDecoder().decode(response.body) : response.body;
  return { ...response, json: typeof body === 'string' ? (JSON.parse(body) as Record<string, unknown>) : null };
}

describe('restricted routes read the canonical path', () => {
  const app = createCatalogueApp({ store, gateway });

  it.each([
    ['/v1/x/../top/anime', '/v1/top/anime'],
    ['/v1/./top/anime', '/v1/top/anime'],
    ['/v1/%2e/top/anime', '/v1/top/anime'],
    ['/v1/%2E/top/anime', '/v1/top/anime'],
    ['/v1\\top\\anime', '/v1/top/anime'],
    ['/v1/top/anime//', '/v1/top/anime'],
    ['/v1/anime/20/./full', '/v1/anime/20/full'],
    ['/v1/anime/20/full//', '/v1/anime/20/full'],
  ])('answers %s without a key with 401 naming %s, and stores nothing', async (target, canonical) => {
    const res = await send(app, target);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ type: 'UnauthorizedException', path: canonical });
    // The same resource with a key is loaded afresh (a private entry), never from a public one.
    const keyed = await send(app, canonical, { 'x-server-key': 'key-one' });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['cache-control']).toMatch(/^private, /);
  });
});

describe('the cache reads the canonical path', () => {
  it.each(['/v1/./random/anime', '/v1/x/../random/anime', '/v1/%2e/random/anime', '/v1/random/anime/'])('never caches %s: three calls, three picks', async (target) => {
    let n = 0;
    const app = createCatalogueApp({ store, gateway, random: () => (n++ % 3) / 3 });
    const ids = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      const res = await send(app, target);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      ids.add((res.json!.data as { mal_id: number }).mal_id);
    }
    expect(ids.size).toBe(3);
  });

  it('keeps one entry for a resource however its path is spelt', async () => {
    let now = Date.UTC(2026, 2, 10, 12, 0, 0);
    const app = createCatalogueApp({ store, gateway, now: () => now });
    const first = await send(app, '/v1/anime/1');
    now += 60_000;
    // From the entry stored a minute ago, not loaded again.
    const second = await send(app, '/v1/x/../anime/./1/');
    expect(second.headers['last-modified']).toBe(first.headers['last-modified']);
    expect(second.body).toBe(first.body);
  });
});

describe('error envelopes name the canonical path', () => {
  const app = createCatalogueApp({ store, gateway });

  it.each([
    ['/v1/x/../nope', 404, '/v1/nope'],
    ['/v1/./anime/abc', 400, '/v1/anime/abc'],
    ['/v1/anime/../../nope/', 404, '/nope'],
  ])('answers %s with %i naming %s', async (target, status, path) => {
    const res = await send(app, target);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ status, path });
  });

  it('answers a target that is not a path with the 400 envelope', async () => {
    const res = await send(app, '*');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 400, type: 'BadRequestException', path: '/' });
  });
});

describe('combineApps picks the app by the canonical path', () => {
  it('sends /v1/../api/status to the status app', async () => {
    const status = createStatusApp({ services: [], store: createMemoryStatusStore() });
    const combined = combineApps(status, createCatalogueApp({ store, gateway: false }));
    expect((await send(combined, '/v1/../api/status')).status).toBe(200);
    expect(combined.owns('/api/status/../../v1/anime')).toBe(true);
    expect(createCatalogueApp({ store, gateway: false }).owns('/v1/../admin')).toBe(false);
  });
});

describe('mountPath', () => {
  const app = createCatalogueApp({ store, gateway: false, mountPath: '/catalogue' });

  it('names the mounted path in error envelopes', async () => {
    const res = await send(app, '/v1/nope');
    expect(res.json).toMatchObject({ status: 404, path: '/catalogue/v1/nope', message: 'No endpoint at /catalogue/v1/nope' });
  });

  it('names the mounted path in the 401 of a restricted route, as in its envelope', async () => {
    const res = await send(createCatalogueApp({ store, gateway, mountPath: '/catalogue' }), '/v1/top/anime');
    expect(res.json).toMatchObject({ status: 401, path: '/catalogue/v1/top/anime', message: '/catalogue/v1/top/anime requires a Server Key.' });
  });

  it('gives the OpenAPI document the mount path as its server', async () => {
    expect((await send(app, '/v1/openapi.json')).json!.servers).toEqual([{ url: '/catalogue' }]);
    expect((await send(createCatalogueApp({ store, gateway: false }), '/v1/openapi.json')).json!.servers).toEqual([{ url: '/' }]);
  });

  it.each(['catalogue', '/catalogue/', '/a b'])('rejects %j', (mountPath) => {
    expect(() => createCatalogueApp({ mountPath })).toThrow(TypeError);
  });
});

describe('paths outside the API', () => {
  it.each(['/', '/v1'])('answers %s with a 404 that says where the API is described', async (path) => {
    const res = await send(createCatalogueApp({ store, gateway: false }), path);
    expect(res.status).toBe(404);
    expect(res.json!.error).toContain('/v1/openapi.json');
  });
});

describe('rate-limit texts', () => {
  it('says "1 second", not "1 seconds"', async () => {
    const app = createCatalogueApp({ store, now: () => Date.UTC(2026, 2, 10, 12, 0, 0, 250) });
    let res;
    do res = await send(app, '/v1/anime/1');
    while (res.status === 200);
    expect(res.status).toBe(429);
    expect(res.json!.error).toMatch(/Retry after 1 second\.$/);
  });
});
