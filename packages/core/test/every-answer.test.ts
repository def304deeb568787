/**
 * The headers and envelope that every kind of answer carries, with the gateway on (its default):
 * CORS with `Retry-After` exposed (docs/specification.md: CORS; a 429 without CORS is invisible to a browser),
 * JSON, `Cache-Control: no-store` and the five-field envelope on errors, and the RateLimit headers
 * on every GET and HEAD of the catalogue, from 200 and 304 to 401, 403, 429, 500 and 503. The
 * status API mounted beside it answers with the same CORS and envelope, and is never rate limited.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  combineApps,
  createCatalogueApp,
  createMemoryGatewayBackend,
  createMemoryStatusStore,
  createMemoryStore,
  createStatusApp,
} from '../src/index.js';
import { type CatalogueStore, type GatewayBackend } from '../src/entry-store.js';
import { makeAnime } from './fixtures.js';

const KEY = 'every-answer-server-key';
const T0 = Date.UTC(2026, 3, 1, 9, 0, 0, 200);
const JSON_TYPE = 'application/json; charset=utf-8';

const envelope = z.strictObject({
  status: z.number().int(),
  type: z.string().min(1),
  message: z.string().min(1),
  error: z.string().min(1),
  path: z.string().min(1),
});

function setup() {
  const clock = { now: T0 };
  const memory = createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'One' }), makeAnime({ mal_id: 2, title: 'Two' })] });
  // /v1/anime/13 fails inside the store: the 500 path.
  const store: CatalogueStore = Object.assign(Object.create(memory) as CatalogueStore, {
    get: ((collection, key) =>
      collection === 'anime' && String(key) === '13' ? Promise.reject(new Error('disk on fire at /srv/db.ts:42')) : memory.get(collection, key)) as CatalogueStore['get'],
  });
  const backend = createMemoryGatewayBackend();
  const down = { counters: false };
  const flaky: GatewayBackend = {
    ...backend,
    counters: { hit: (windows, now) => (down.counters ? Promise.reject(new Error('ECONNREFUSED')) : backend.counters.hit(windows, now)) },
  };
  const logged: string[] = [];
  const logger = { error: (message: string) => void logged.push(message) };
  const catalogue = createCatalogueApp({
    store,
    now: () => clock.now,
    logger,
    gateway: { backend: flaky, keys: [KEY], restrictedRoutes: ['/v1/top/*'], blocks: { threshold: 1 } },
  });
  const statusStore = createMemoryStatusStore();
  const status = createStatusApp({ services: [{ id: 'api', name: 'API', check: { url: 'http://127.0.0.1:1/' } }], store: statusStore, now: () => clock.now, logger });
  const app = combineApps(status, catalogue);
  const send = (path: string, init: RequestInit = {}, ip = '198.51.100.1') => app.fetch(new Request(`http://api.test${path}`, init), { clientAddress: ip });
  return { clock, down, send, logged };
}

function expectCors(res: Response): void {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
  expect(exposed).toContain('retry-after');
}

function expectRateLimit(res: Response): void {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(name), name).toMatch(/^\d+$/);
}

async function expectError(res: Response, status: number, type: string, path: string, method = 'GET'): Promise<void> {
  expect(res.status).toBe(status);
  expectCors(res);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const text = await res.text();
  if (method === 'HEAD') return void expect(text).toBe('');
  const body = envelope.parse(JSON.parse(text));
  expect(body).toMatchObject({ status, type, path });
  expect(text).not.toMatch(/\.ts:\d|\n\s+at |disk on fire|ECONNREFUSED/);
}

describe('every answer of the catalogue, with the gateway on', () => {
  it.each(['GET', 'HEAD'])('%s: 200 and 304 carry CORS, JSON type and RateLimit headers', async (method) => {
    const { send } = setup();
    const ok = await send('/v1/anime/1', { method });
    expect(ok.status).toBe(200);
    expectCors(ok);
    expectRateLimit(ok);
    expect(ok.headers.get('content-type')).toBe(JSON_TYPE);
    const notModified = await send('/v1/anime/1', { method, headers: { 'if-none-match': ok.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expectCors(notModified);
    expectRateLimit(notModified);
    expect(notModified.headers.get('etag')).toBe(ok.headers.get('etag'));
  });

  it.each(['GET', 'HEAD'])('%s: 400, 401, 404 and 500 carry CORS, no-store, RateLimit and the envelope', async (method) => {
    const { send, logged } = setup();
    const cases: [string, RequestInit, number, string][] = [
      ['/v1/anime?limit=51', {}, 400, 'BadRequestException'],
      ['/v1/anime/1', { headers: { 'x-server-key': 'not-a-key' } }, 401, 'UnauthorizedException'],
      ['/v1/top/anime', {}, 401, 'UnauthorizedException'],
      ['/v1/anime/999', {}, 404, 'NotFoundException'],
      ['/v1/anime/13', {}, 500, 'InternalServerErrorException'],
    ];
    for (const [i, [path, init, status, type]] of cases.entries()) {
      // One client per case, so that no case runs into the per-second limit of another.
      const res = await send(path, { ...init, method }, `198.51.100.${10 + i}`);
      expectRateLimit(res);
      await expectError(res, status, type, path.split('?')[0]!, method);
    }
    expect(logged).toEqual([`Unhandled error on ${method} /v1/anime/13`]);
  });

  it('429 and then 403 carry CORS, no-store, RateLimit, Retry-After and the envelope', async () => {
    const { send, clock } = setup();
    for (let i = 0; i < 4; i++) expect((await send('/v1/anime/1')).status).toBe(200);
    const limited = await send('/v1/anime/1');
    expect(limited.headers.get('retry-after')).toBe('1');
    expectRateLimit(limited);
    await expectError(limited, 429, 'RateLimitException', '/v1/anime/1');
    clock.now += 1_000;
    const blocked = await send('/v1/anime/1');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expectRateLimit(blocked);
    await expectError(blocked, 403, 'ForbiddenException', '/v1/anime/1');
  });

  it('503 (accounting down) carries CORS, no-store, Retry-After: 1, RateLimit and the envelope', async () => {
    const { send, down } = setup();
    down.counters = true;
    const res = await send('/v1/anime/1');
    expect(res.headers.get('retry-after')).toBe('1');
    expectRateLimit(res);
    await expectError(res, 503, 'ServiceUnavailableException', '/v1/anime/1');
  });

  it('405 and OPTIONS carry CORS and Allow', async () => {
    const { send } = setup();
    const refused = await send('/v1/anime', { method: 'PUT' });
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectError(refused, 405, 'MethodNotAllowedException', '/v1/anime');
    const preflight = await send('/v1/anime', { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('every answer of the status API beside it', () => {
  it('200, HEAD, 404 and 405 carry CORS; the 200 is cached 30 s', async () => {
    const { send } = setup();
    const ok = await send('/api/status');
    expect(ok.status).toBe(200);
    expectCors(ok);
    expect(ok.headers.get('content-type')).toBe(JSON_TYPE);
    expect(ok.headers.get('cache-control')).toBe('public, max-age=30');
    const head = await send('/api/status', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expectCors(head);
    await expectError(await send('/api/status/more'), 404, 'NotFoundException', '/api/status/more');
    await expectError(await send('/api/status', { method: 'POST' }), 405, 'MethodNotAllowedException', '/api/status');
  });

  it('is never rate limited, not even for a client the catalogue has refused', async () => {
    const { send } = setup();
    for (let i = 0; i < 4; i++) await send('/v1/anime/1');
    expect((await send('/v1/anime/1')).status).toBe(429);
    expect((await send('/v1/anime/1')).status).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await send('/api/status')).status);
    expect(statuses).toEqual(Array(20).fill(200));
  });
});
