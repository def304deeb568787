import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalogueApp } from '../app.js';
import type { PlainRequest, PlainResponse } from '../edge/http.js';
import { createPipeline, type Route } from '../edge/pipeline.js';
import { createMemoryStore } from '../seam/memory-store.js';
import type { GatewayBackend } from './back-end.js';
import { createGateway, createMemoryGatewayBackend, type GatewayOptions } from './gateway.js';

const KEY = 'server-key-0123456789';
const OTHER_KEY = 'server-key-abcdefghij';
// 2026-03-10 12:00:00.250 UTC: a quarter into a second, so Retry-After rounds up.
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0, 250);

interface Sent {
  ip?: string;
  key?: string;
  method?: string;
  headers?: Record<string, string>;
}

function setup(options: GatewayOptions = {}) {
  const clock = { now: T0 };
  const calls = new Map<string, number>();
  const count = (name: string) => {
    const n = (calls.get(name) ?? 0) + 1;
    calls.set(name, n);
    return n;
  };
  const routes: Route<object>[] = [
    { path: '/v1/anime/:id', handler: (req) => ({ body: { data: { id: Number(req.params.id), load: count(`anime/${req.params.id}`) } } }) },
    { path: '/v1/random/anime', handler: () => ({ body: { data: { pick: count('random') } } }), cache: 'no-store' },
    { path: '/v1/top/anime', handler: () => ({ body: { data: [count('top')] } }) },
    { path: '/v1/fresh/:n', handler: () => ({ body: { data: count('fresh') } }), cache: 'no-store' },
  ];
  const handle = createPipeline({
    routes,
    context: {},
    middleware: [createGateway(options, { now: () => clock.now, logger: { error: () => undefined } })],
  });
  async function send(path: string, sent: Sent = {}): Promise<PlainResponse & { json: Record<string, unknown> | null }> {
    const headers: Record<string, string> = { ...sent.headers };
    if (sent.key !== undefined) headers['x-server-key'] = sent.key;
    const [p, q = ''] = path.split('?');
    const request: PlainRequest = {
      method: sent.method ?? 'GET',
      path: p!,
      query: q,
      header: (name) => headers[name],
      clientAddress: sent.ip ?? '203.0.113.7',
    };
    const response = await handle(request);
    const json = typeof response.body === 'string' ? (JSON.parse(response.body) as Record<string, unknown>) : null;
    return { ...response, json };
  }
  return { clock, calls, send };
}

async function burst(send: ReturnType<typeof setup>['send'], n: number, path: string, sent?: Sent): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send(path, sent)).status);
  return statuses;
}

/**
 * That an answer is the gateway's 429.
 * @param res - The answer.
 * @param message - Its envelope's message.
 * @param limit - What its error says of the limit it hit.
 * @param retryAfter - Its `Retry-After`, in seconds.
 */
function expectRateLimited(res: Awaited<ReturnType<ReturnType<typeof setup>['send']>>, message: string, limit: string, retryAfter: string): void {
  expect(res.status).toBe(429);
  expect(res.json!.message).toBe(message);
  expect(res.json!.error).toContain(limit);
  expect(res.headers['retry-after']).toBe(retryAfter);
}

describe('gateway rate limits', () => {
  it('allows 4 public requests in a second and answers the 5th with 429 "Rate limit exceeded."', async () => {
    const { send, clock } = setup({ cache: false });
    expect(await burst(send, 4, '/v1/anime/1')).toEqual([200, 200, 200, 200]);
    const res = await send('/v1/anime/1');
    expectRateLimited(res, 'Rate limit exceeded.', 'public tier limit of 4 requests per second', '1');
    expect(res.json).toMatchObject({ status: 429, type: 'RateLimitException', path: '/v1/anime/1' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['ratelimit-remaining']).toBe('0');
    clock.now = T0 + 750; // the next second starts
    expect((await send('/v1/anime/1')).status).toBe(200);
  });

  it('answers the 121st public request in a minute with 429 and Retry-After until the minute ends', async () => {
    const { send, clock } = setup({ cache: false });
    for (let s = 0; s < 30; s++) {
      clock.now = T0 + s * 1000;
      expect(await burst(send, 4, '/v1/anime/1')).toEqual([200, 200, 200, 200]);
    }
    clock.now = T0 + 30_000; // 12:00:30.250 → the minute ends in 29.75 s
    expectRateLimited(await send('/v1/anime/1'), 'Rate limit exceeded.', 'public tier limit of 120 requests per minute', '30');
    clock.now = Date.UTC(2026, 2, 10, 12, 1, 0, 0);
    expect((await send('/v1/anime/1')).status).toBe(200);
  });

  it('answers a daily breach with "Rate limit exceeded (per-day)." that resets at midnight UTC', async () => {
    const { send, clock } = setup({ cache: false, rateLimit: { public: { perSecond: 100, perMinute: 100, perDay: 3 } } });
    expect(await burst(send, 3, '/v1/anime/1')).toEqual([200, 200, 200]);
    clock.now = Date.UTC(2026, 2, 10, 23, 59, 58, 500);
    const res = await send('/v1/anime/1');
    expectRateLimited(res, 'Rate limit exceeded (per-day).', 'public tier limit of 3 requests per day', '2');
    expect(res.json!.error).toContain('midnight UTC');
    clock.now = Date.UTC(2026, 2, 11, 0, 0, 0, 0);
    expect((await send('/v1/anime/1')).status).toBe(200);
  });

  it('does not let a request refused by one window consume the others', async () => {
    const { send, clock } = setup({ cache: false, rateLimit: { public: { perSecond: 2, perMinute: 5, perDay: null } } });
    // Second 0: 2 allowed, 10 refused by the per-second window. Were they counted, the minute would be spent.
    expect(await burst(send, 12, '/v1/anime/1')).toEqual([200, 200, ...Array(10).fill(429)]);
    clock.now = T0 + 1000;
    expect(await burst(send, 2, '/v1/anime/1')).toEqual([200, 200]);
    clock.now = T0 + 2000;
    expect(await burst(send, 2, '/v1/anime/1')).toEqual([200, 429]);
    expect((await send('/v1/anime/1')).json!.error).toContain('5 requests per minute');
  });

  it('sends RateLimit headers for the window closest to running out', async () => {
    const { send } = setup({ cache: false });
    const res = await send('/v1/anime/1');
    expect(res.headers).toMatchObject({ 'ratelimit-limit': '4', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' });
  });

  it('sends RateLimit headers on every kind of answer: 200, 304, 401, 404, 429 and 403', async () => {
    const { send, clock } = setup({ keys: [KEY], restrictedRoutes: ['/v1/top/*'], blocks: { threshold: 1 } });
    const answers = [await send('/v1/anime/1')];
    answers.push(await send('/v1/anime/1', { headers: { 'if-none-match': answers[0]!.headers.etag! } }));
    answers.push(await send('/v1/top/anime'), await send('/v1/nothing'), await send('/v1/anime/1'));
    clock.now = T0 + 1000;
    answers.push(await send('/v1/anime/1'));
    expect(answers.map((a) => a.status)).toEqual([200, 304, 401, 404, 429, 403]);
    for (const answer of answers) expect(Object.keys(answer.headers)).toEqual(expect.arrayContaining(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']));
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0', '0']);
  });

  it('counts public requests per IPv4 address and per IPv6 /64', async () => {
    const { send } = setup({ cache: false });
    expect(await burst(send, 4, '/v1/anime/1', { ip: '2001:db8:1:2::1' })).toEqual([200, 200, 200, 200]);
    expect((await send('/v1/anime/1', { ip: '2001:db8:1:2:ffff::9' })).status).toBe(429);
    expect((await send('/v1/anime/1', { ip: '2001:db8:1:3::1' })).status).toBe(200);
    expect((await send('/v1/anime/1', { ip: '::ffff:198.51.100.1' })).status).toBe(200);
    expect((await send('/v1/anime/1', { ip: '198.51.100.2' })).status).toBe(200);
  });

  it('gives a Server Key 5 requests per second, counted per key across IPs, with no daily limit', async () => {
    const { send, clock } = setup({ cache: false, keys: [KEY, OTHER_KEY] });
    expect(await burst(send, 3, '/v1/anime/1', { key: KEY, ip: '198.51.100.1' })).toEqual([200, 200, 200]);
    expect(await burst(send, 2, '/v1/anime/1', { key: KEY, ip: '198.51.100.2' })).toEqual([200, 200]);
    const res = await send('/v1/anime/1', { key: KEY, ip: '198.51.100.3' });
    expect(res.status).toBe(429);
    expect(res.json!.error).toContain('server tier limit of 5 requests per second');
    // Another key and the public tier of the same IP have their own counters.
    expect((await send('/v1/anime/1', { key: OTHER_KEY, ip: '198.51.100.1' })).status).toBe(200);
    expect((await send('/v1/anime/1', { ip: '198.51.100.1' })).status).toBe(200);
    // 300 per minute, and beyond 40 000 a day without a daily limit.
    clock.now = T0 + 1000;
    const ok = await send('/v1/anime/1', { key: KEY });
    expect(ok.headers['ratelimit-limit']).toBe('5');
  });
});

describe('gateway Server Keys and restricted routes', () => {
  it('answers an unknown X-Server-Key with 401 UnauthorizedException', async () => {
    const { send } = setup({ keys: [KEY] });
    const res = await send('/v1/anime/1', { key: 'not-a-key' });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ type: 'UnauthorizedException', message: 'Invalid Server Key.' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(res.json)).not.toContain('not-a-key');
  });

  it('treats an empty X-Server-Key as a supplied, unrecognized key', async () => {
    const { send } = setup({ keys: [KEY] });
    expect((await send('/v1/anime/1', { key: '' })).status).toBe(401);
  });

  it('grants nothing for Authorization: Bearer: the request stays public', async () => {
    const { send } = setup({ keys: [KEY], restrictedRoutes: ['/v1/top/*'], cache: false });
    const bearer = { headers: { authorization: `Bearer ${KEY}` } };
    expect((await send('/v1/top/anime', bearer)).status).toBe(401);
    // The 401 above was the first of this IP's 4 public requests in the second.
    expect(await burst(send, 3, '/v1/anime/1', bearer)).toEqual([200, 200, 200]);
    const res = await send('/v1/anime/1', bearer);
    expect(res.status).toBe(429);
    expect(res.json!.error).toContain('public tier');
  });

  it('answers restricted routes with 401 without a valid key and 200 with one', async () => {
    const { send } = setup({ keys: [KEY], restrictedRoutes: ['/v1/top/*', '/v1/anime/:id'] });
    const denied = await send('/v1/top/anime');
    expect(denied.status).toBe(401);
    expect(denied.json!.message).toBe('/v1/top/anime requires a Server Key.');
    expect((await send('/v1/anime/5')).status).toBe(401);
    expect((await send('/v1/top/anime', { key: KEY })).status).toBe(200);
    expect((await send('/v1/anime/5', { key: KEY })).status).toBe(200);
    expect((await send('/v1/random/anime')).status).toBe(200);
  });

  it('never logs a Server Key, whether it is known, unknown, or the key store fails on it', async () => {
    const logged: unknown[] = [];
    const keys = { verify: (key: string) => (key === 'fail-' + KEY ? Promise.reject(new Error('key store down')) : key === KEY ? 'id-1' : null) };
    const handle = createPipeline({
      routes: [{ path: '/v1/anime/:id', handler: () => { throw new Error('route failed'); } }],
      context: {},
      middleware: [createGateway({ keys }, { now: () => T0, logger: { error: (...args) => void logged.push(args) } })],
      logger: { error: (...args) => void logged.push(args) },
    });
    const sent = [KEY, 'guess-' + KEY, 'fail-' + KEY];
    const statuses: number[] = [];
    for (const key of sent) {
      const response = await handle({ method: 'GET', path: '/v1/anime/1', query: '', header: (name) => (name === 'x-server-key' ? key : undefined), clientAddress: '192.0.2.9' });
      statuses.push(response.status);
      expect(String(response.body)).not.toContain(KEY);
    }
    expect(statuses).toEqual([500, 401, 503]);
    expect(logged.length).toBeGreaterThanOrEqual(2);
    const text = JSON.stringify(logged, (_, value) => (value instanceof Error ? `${value.message} ${value.stack}` : value));
    expect(text).not.toContain(KEY);
  });

  it('rate limits key guessing by IP, since unknown keys count against the public tier', async () => {
    const { send } = setup({ keys: [KEY] });
    expect(await burst(send, 5, '/v1/anime/1', { key: 'guess' })).toEqual([401, 401, 401, 401, 429]);
  });
});

describe('gateway blocks (403)', () => {
  async function reject(send: ReturnType<typeof setup>['send'], n: number, sent?: Sent): Promise<number[]> {
    return burst(send, n, '/v1/anime/1', sent);
  }

  it('blocks after 30 rate-limited responses within 60 s, for 10 minutes, and then lets the client back', async () => {
    const { send, clock } = setup({ cache: false });
    // 4 allowed + 29 refused: not yet blocked.
    expect(await reject(send, 33)).toEqual([...Array(4).fill(200), ...Array(29).fill(429)]);
    clock.now = T0 + 1000;
    expect((await send('/v1/anime/1')).status).toBe(200);
    expect(await reject(send, 4)).toEqual([200, 200, 200, 429]); // 30th refusal starts the block
    const res = await send('/v1/anime/1');
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ type: 'ForbiddenException' });
    const end = new Date(T0 + 1000 + 600_000).toISOString();
    expect(res.json!.error).toContain(end);
    expect(res.headers['retry-after']).toBe('600');
    expect(res.headers['cache-control']).toBe('no-store');
    // Blocked requests neither extend the block nor count: at its end the client has its full quota.
    clock.now = T0 + 1000 + 599_000;
    expect(await reject(send, 50)).toEqual(Array(50).fill(403));
    clock.now = T0 + 1000 + 600_000;
    expect(await reject(send, 4)).toEqual([200, 200, 200, 200]);
  });

  it('answers a blocked client the same 403 while its seconds left are the same, with each request path and the seconds as they fall', async () => {
    const { send, clock } = setup({ cache: false, blocks: { threshold: 1 }, rateLimit: { public: { perSecond: 1, perMinute: null, perDay: null } } });
    expect(await reject(send, 3)).toEqual([200, 429, 403]);
    const [a, b] = [await send('/v1/anime/1'), await send('/v1/anime/1')];
    expect(b.json).toEqual(a.json);
    expect(b.headers).toEqual(a.headers);
    const other = await send('/v1/manga/2');
    expect(other.json).toMatchObject({ status: 403, path: '/v1/manga/2', error: a.json!.error });
    clock.now += 1000;
    const later = await send('/v1/anime/1');
    expect(Number(later.headers['retry-after'])).toBe(Number(a.headers['retry-after']) - 1);
    expect(later.json).toMatchObject({ status: 403, path: '/v1/anime/1' });
  });

  it('doubles the block on a repeat within 24 hours, up to 24 hours', async () => {
    const policy = { threshold: 2, durationMs: 600_000 };
    const { send, clock } = setup({ cache: false, blocks: policy, rateLimit: { public: { perSecond: 1, perMinute: null, perDay: null } } });
    const offend = async () => expect(await reject(send, 3)).toEqual([200, 429, 429]);
    const blockedFor = async () => Number((await send('/v1/anime/1')).headers['retry-after']);
    await offend();
    expect(await blockedFor()).toBe(600);
    clock.now += 600_000;
    await offend();
    expect(await blockedFor()).toBe(1200);
    clock.now += 1_200_000;
    await offend();
    expect(await blockedFor()).toBe(2400);
    // A first offence again after a quiet day.
    clock.now += 2_400_000 + 86_400_000;
    await offend();
    expect(await blockedFor()).toBe(600);
  });

  it('caps a repeated block at 24 hours', async () => {
    const { send, clock } = setup({
      cache: false,
      blocks: { threshold: 1, durationMs: 3_600_000 * 10 },
      rateLimit: { public: { perSecond: 1, perMinute: null, perDay: null } },
    });
    await reject(send, 2);
    expect((await send('/v1/anime/1')).headers['retry-after']).toBe('36000');
    clock.now += 36_000_000;
    await reject(send, 2);
    expect((await send('/v1/anime/1')).headers['retry-after']).toBe('72000');
    clock.now += 72_000_000;
    await reject(send, 2);
    expect((await send('/v1/anime/1')).headers['retry-after']).toBe('86400');
  });

  it('never blocks Server Key traffic', async () => {
    const { send } = setup({ cache: false, keys: [KEY] });
    const statuses = await reject(send, 60, { key: KEY });
    expect(statuses.filter((s) => s === 403)).toEqual([]);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  });
});

describe('gateway response cache', () => {
  it('answers a repeat from the cache with a strong ETag, public max-age, Vary, Last-Modified and Expires', async () => {
    const { send, calls, clock } = setup();
    const first = await send('/v1/anime/1?sfw');
    clock.now = T0 + 5_000;
    const second = await send('/v1/anime/1?sfw');
    expect(calls.get('anime/1')).toBe(1);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]{16}"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    expect(second.headers['cache-control']).toBe('public, max-age=86395');
    expect(second.headers.vary).toBe('X-Server-Key');
    expect(second.headers['last-modified']).toBe(new Date(T0).toUTCString());
    expect(second.headers.expires).toBe(new Date(T0 + 86_400_000).toUTCString());
    // A different query is a different entry.
    await send('/v1/anime/1');
    expect(calls.get('anime/1')).toBe(2);
  });

  it('answers If-None-Match with 304 and no body, and a stale tag with 200', async () => {
    const { send } = setup();
    const first = await send('/v1/anime/1');
    const etag = first.headers.etag!;
    const hit = await send('/v1/anime/1', { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(hit.status).toBe(304);
    expect(hit.body).toBeNull();
    expect(hit.headers.etag).toBe(etag);
    expect(hit.headers['cache-control']).toMatch(/^public, max-age=/);
    expect((await send('/v1/anime/1', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    expect((await send('/v1/anime/1', { headers: { 'if-none-match': '*' } })).status).toBe(304);
  });

  it('shares one frozen set of headers among the hits of a second, which a 304 between them leaves whole', async () => {
    // Without rate limits: their headers differ per request, so hits then get a copy.
    const { send, clock } = setup({ rateLimit: false });
    const first = await send('/v1/anime/1');
    const a = await send('/v1/anime/1');
    const notModified = await send('/v1/anime/1', { headers: { 'if-none-match': first.headers.etag! } });
    const b = await send('/v1/anime/1');
    expect(notModified.status).toBe(304);
    expect(notModified.headers['content-type']).toBeUndefined();
    expect(b.headers).toBe(a.headers);
    expect(Object.isFrozen(b.headers)).toBe(true);
    expect(b.headers['content-type']).toBe('application/json; charset=utf-8');
    clock.now += 1_000;
    const later = await send('/v1/anime/1');
    expect(later.headers).not.toBe(a.headers);
    expect(later.headers['cache-control']).toBe('public, max-age=86399');
    expect(later.headers['last-modified']).toBe(a.headers['last-modified']);
  });

  it('gives each rate-limited hit headers of its own: the cached ones and its own RateLimit values', async () => {
    const { send, clock } = setup();
    const first = await send('/v1/anime/1');
    const [a, b] = [await send('/v1/anime/1'), await send('/v1/anime/1')];
    expect([first, a, b].map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['3', '2', '1']);
    expect(b.headers).not.toBe(a.headers);
    const cached = (headers: Record<string, string>) => Object.entries(headers).filter(([name]) => name !== 'ratelimit-remaining');
    expect(cached(b.headers)).toEqual(cached(a.headers));
    expect(a.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', etag: first.headers.etag, 'ratelimit-limit': '4', 'ratelimit-reset': '1' });
    a.headers['ratelimit-limit'] = 'changed';
    a.headers.etag = 'changed';
    clock.now += 1_000;
    const later = await send('/v1/anime/1');
    expect(later.headers).toMatchObject({ etag: first.headers.etag, 'cache-control': 'public, max-age=86399', 'ratelimit-limit': '4', 'ratelimit-remaining': '3' });
  });

  it('answers HEAD from the same cache as GET', async () => {
    const { send, calls } = setup();
    const head = await send('/v1/anime/3', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const get = await send('/v1/anime/3');
    expect(get.headers.etag).toBe(head.headers.etag);
    expect((await send('/v1/anime/3', { method: 'HEAD' })).headers.etag).toBe(get.headers.etag);
    expect(calls.get('anime/3')).toBe(1);
  });

  it("never caches a route whose row says cache: 'no-store'", async () => {
    const { send, calls } = setup();
    const a = await send('/v1/random/anime');
    const b = await send('/v1/random/anime');
    expect(calls.get('random')).toBe(2);
    expect(a.body).not.toBe(b.body);
    expect(b.headers['cache-control']).toBe('no-store');
    expect(b.headers.etag).toMatch(/^"/);
    // The row decides, not the path's prefix.
    await send('/v1/fresh/1');
    expect((await send('/v1/fresh/1')).headers['cache-control']).toBe('no-store');
    expect(calls.get('fresh')).toBe(2);
  });

  it('does not cache errors', async () => {
    const { send } = setup();
    const a = await send('/v1/nothing');
    expect(a.status).toBe(404);
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.headers.etag).toBeUndefined();
    expect(a.headers['ratelimit-limit']).toBe('4');
  });

  it('keeps Server Key answers and public answers apart, private for key holders, 10 minutes', async () => {
    const { send, calls, clock } = setup({ keys: [KEY] });
    const pub = await send('/v1/anime/1');
    const key = await send('/v1/anime/1', { key: KEY });
    expect(calls.get('anime/1')).toBe(2);
    expect(pub.json).toMatchObject({ data: { load: 1 } });
    expect(key.json).toMatchObject({ data: { load: 2 } });
    expect(key.headers['cache-control']).toBe('private, max-age=600');
    clock.now = T0 + 1000;
    expect((await send('/v1/anime/1')).json).toMatchObject({ data: { load: 1 } });
    expect((await send('/v1/anime/1', { key: KEY })).json).toMatchObject({ data: { load: 2 } });
    // The Server Key entry ends after 10 minutes; the public one lives on.
    clock.now = T0 + 600_000;
    expect((await send('/v1/anime/1', { key: KEY })).json).toMatchObject({ data: { load: 3 } });
    expect((await send('/v1/anime/1')).json).toMatchObject({ data: { load: 1 } });
  });

  it('loads concurrent misses for one key once', async () => {
    const { send, calls } = setup();
    const answers = await Promise.all([1, 2, 3].map((n) => send('/v1/anime/9', { ip: `198.51.100.${n}` })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(calls.get('anime/9')).toBe(1);
  });

  it('honours configured lifetimes', async () => {
    const { send, calls, clock } = setup({ cache: { publicTtlMs: 30_000 } });
    await send('/v1/anime/1');
    clock.now = T0 + 29_999;
    await send('/v1/anime/1');
    clock.now = T0 + 30_000;
    await send('/v1/anime/1');
    expect(calls.get('anime/1')).toBe(2);
  });
});

describe('gateway when its back end fails', () => {
  afterEach(() => vi.useRealTimers());

  function flaky(): { backend: GatewayBackend; mode: { now: 'ok' | 'error' | 'hang' } } {
    const memory = createMemoryGatewayBackend();
    const mode = { now: 'ok' as 'ok' | 'error' | 'hang' };
    const backend: GatewayBackend = {
      ...memory,
      counters: {
        hit: (windows, now) => {
          if (mode.now === 'error') return Promise.reject(new Error('connection refused'));
          if (mode.now === 'hang') return new Promise(() => undefined);
          return Promise.resolve(memory.counters.hit(windows, now));
        },
      },
    };
    return { backend, mode };
  }

  it('answers 503 with Retry-After: 1 when the counters fail, and recovers by itself', async () => {
    const { backend, mode } = flaky();
    const { send } = setup({ backend, cache: false });
    mode.now = 'error';
    const res = await send('/v1/anime/1');
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ type: 'ServiceUnavailableException' });
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers).toMatchObject({ 'ratelimit-limit': '4', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
    mode.now = 'ok';
    expect((await send('/v1/anime/1')).status).toBe(200);
  });

  it('answers 503 once the timeout passes when the counters hang', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { backend, mode } = flaky();
    const { send } = setup({ backend, cache: false, timeoutMs: 100 });
    mode.now = 'hang';
    const pending = send('/v1/anime/1');
    await vi.advanceTimersByTimeAsync(100);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });
});

describe('createCatalogueApp gateway option', () => {
  const app = (gateway?: false) =>
    createCatalogueApp({ store: createMemoryStore(), now: () => T0, logger: { error: () => undefined }, ...(gateway === false ? { gateway } : {}) });

  it('is on by default with the spec limits', async () => {
    const on = app();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await on.fetch(new Request('http://x/v1/anime?q=a'), { clientAddress: '192.0.2.1' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('is off with gateway: false', async () => {
    const off = app(false);
    for (let i = 0; i < 10; i++) expect((await off.fetch(new Request('http://x/v1/anime?q=a'))).status).toBe(200);
  });
});

describe('gateway and the client address', () => {
  const addressReads = async (gateway: GatewayOptions) => {
    const app = createCatalogueApp({ store: createMemoryStore(), now: () => T0, logger: { error: () => undefined }, gateway });
    let reads = 0;
    const context = {
      get clientAddress() {
        reads++;
        return '192.0.2.1';
      },
    };
    for (const target of ['/v1/anime?q=a', '/v1/anime?q=a', '/v1/anime?limit=99']) await app.fetch(new Request(`http://x${target}`), context);
    return reads;
  };

  it('is read for every public request while rate limits or blocks need it', async () => {
    expect(await addressReads({})).toBe(3);
  });

  it('is never read without rate limits (and so without blocks)', async () => {
    expect(await addressReads({ rateLimit: false })).toBe(0);
  });
});

describe('gateway steps that need not wait', () => {
  const hitTwice = (options: GatewayOptions, headers: Record<string, string> = {}) => {
    const gateway = createGateway(options, { now: () => T0, logger: { error: () => undefined } });
    const request: PlainRequest = { method: 'GET', path: '/v1/anime/1', query: '', header: (name) => headers[name], clientAddress: '203.0.113.7' };
    const next = () => Promise.resolve<PlainResponse>({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":1}' });
    const route = { path: '/v1/anime/:id' };
    return { miss: gateway(request, next, route), again: () => gateway(request, next, route) };
  };

  it('answers a hit on the in-memory cache at once, rate limited or not, with a valid key or none', async () => {
    for (const [options, headers] of [[{ rateLimit: false }], [{}], [{ keys: [KEY] }, { 'x-server-key': KEY }]] as const) {
      const { miss, again } = hitTwice(options, headers);
      expect(miss).toBeInstanceOf(Promise);
      await miss;
      const hit = again();
      // Not a promise: no microtask between the cache and the answer.
      expect(hit).not.toBeInstanceOf(Promise);
      expect((hit as PlainResponse).body).toBe('{"data":1}');
    }
  });

  it('still waits for a back end that answers later', async () => {
    const memory = createMemoryGatewayBackend();
    const slow: GatewayBackend = { ...memory, publicCache: { get: async (key, now) => memory.publicCache.get(key, now), set: (key, entry) => memory.publicCache.set(key, entry) } };
    const { miss, again } = hitTwice({ backend: slow, rateLimit: false });
    await miss;
    const hit = again();
    expect(hit).toBeInstanceOf(Promise);
    expect((await hit).body).toBe('{"data":1}');
  });
});
