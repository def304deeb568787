import { describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import { combineApps } from '../edge/combine-apps.js';
import { ApiError } from '../edge/errors.js';
import type { GatewayBackend } from '../gateway/back-end.js';
import { createGateway, createMemoryGatewayBackend } from '../gateway/gateway.js';
import type { PlainRequest } from '../edge/http.js';
import { createPipeline } from '../edge/pipeline.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { createObservedApp, type ObservedAppOptions, type RequestRecord } from './observe.js';
import { createStatusApp } from '../status/app.js';
import { createMemoryStatusStore } from '../status/memory-status-store.js';
import { makeAnime } from '../../test/fixtures.js';

const KEY = 'observe-test-server-key-7f3a';
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0, 250);
// RFC 9562 §5.4: version 4, variant 10.
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(options: Partial<ObservedAppOptions> = {}) {
  const records: RequestRecord[] = [];
  const clock = { now: T0 };
  const store = createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' }), makeAnime({ mal_id: 5, title: 'Tengen Toppa' })] });
  const catalogue = createCatalogueApp({ store, now: () => clock.now, gateway: { keys: [KEY] }, logger: { error: () => undefined } });
  const status = createStatusApp({ services: [], store: createMemoryStatusStore(), page: { name: 'x', url: 'http://x' } });
  const app = createObservedApp(combineApps(status, catalogue), { observers: [(record) => records.push({ ...record })], now: () => clock.now, ...options });
  async function send(path: string, headers: Record<string, string> = {}, address = '203.0.113.7', method = 'GET') {
    const [p, q = ''] = path.split('?');
    const request: PlainRequest = { method, path: p!, query: q, header: (name) => headers[name], clientAddress: address };
    return app.handle(request);
  }
  return { app, send, records, clock };
}

describe('createObservedApp', () => {
  it('hands one record per request with route template, status, bytes, tier, cache and a request id it also returns', async () => {
    const { send, records } = setup();
    const first = await send('/v1/anime/1');
    const second = await send('/v1/anime/1');
    const etag = second.headers.etag!;
    const third = await send('/v1/anime/1', { 'if-none-match': etag });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 304]);
    expect(records).toHaveLength(3);
    expect(records.map((r) => r.cache)).toEqual(['miss', 'hit', 'not_modified']);
    for (const [i, record] of records.entries()) {
      expect(record).toMatchObject({ method: 'GET', path: '/v1/anime/1', route: '/v1/anime/:id', tier: 'public', time: T0 });
      expect(record.durationMs).toBeGreaterThanOrEqual(0);
      expect(record.requestId).toMatch(UUID_V4);
      expect([first, second, third][i]!.headers['x-request-id']).toBe(record.requestId);
    }
    expect(records[0]!.bytes).toBe(new TextEncoder().encode(first.body as string).byteLength);
    expect(records[2]!.bytes).toBe(0);
    expect(new Set(records.map((r) => r.requestId)).size).toBe(3);
  });

  it('gives each answer of the Web door its own request id, cache hits included, with the body of the plain door', async () => {
    const { app, send, records } = setup();
    const plain = await send('/v1/anime/1');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await app.fetch(new Request('http://x/v1/anime/1'), { clientAddress: '203.0.113.7' }));
    expect(records.map((r) => r.cache)).toEqual(['miss', 'hit', 'hit', 'hit']);
    expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual(records.slice(1).map((r) => r.requestId));
    expect(new Set(answers.map((answer) => answer.headers.get('x-request-id'))).size).toBe(3);
    for (const answer of answers) {
      expect(answer.headers.get('etag')).toBe(plain.headers.etag);
      expect(await answer.text()).toBe(plain.body);
    }
  });

  it("times a request from its adapter's receivedAt with the default clock, and from its own clock otherwise", async () => {
    const records: RequestRecord[] = [];
    const answer = { handle: async () => ({ status: 204, headers: {}, body: null }), owns: () => true };
    const request = (receivedAt: number): PlainRequest => ({ method: 'GET', path: '/', query: '', header: () => undefined, receivedAt });
    const timed = createObservedApp(answer, { observers: [(record) => records.push(record)] });
    const before = Date.now();
    await timed.handle(request(performance.now() - 40));
    expect(records[0]!.durationMs).toBeGreaterThanOrEqual(40);
    // Its time is the wall clock's at that reading, in whole milliseconds.
    // Both clocks move on together, so a stall of the machine in between moves neither bound.
    expect(records[0]!.time).toBeGreaterThanOrEqual(before - 50);
    expect(records[0]!.time).toBeLessThanOrEqual(Date.now() - 39);
    expect(Number.isInteger(records[0]!.time)).toBe(true);
    // Another clock's timeline is not the adapter's: its own reading counts.
    const ticks = { now: 1_000 };
    const ticking = createObservedApp(answer, { observers: [(record) => records.push(record)], clock: () => (ticks.now += 2), now: () => T0 });
    await ticking.handle(request(10));
    expect(records[1]).toMatchObject({ durationMs: 2, time: T0 });
  });

  it('names the client by a keyed hash, the same for one address in one app, another in the next, never the address itself', async () => {
    const { send, records } = setup();
    await send('/v1/anime/1', {}, '203.0.113.7');
    await send('/v1/anime/5', {}, '203.0.113.7');
    await send('/v1/anime/5', {}, '198.51.100.9');
    expect(records[0]!.client).toMatch(/^[0-9a-f]{16}$/);
    expect(records[0]!.client).toBe(records[1]!.client);
    expect(records[2]!.client).not.toBe(records[0]!.client);
    expect(JSON.stringify(records)).not.toContain('203.0.113.7');
    // Each app (each process) has a key of its own: ids cannot be matched across them.
    const other = setup();
    await other.send('/v1/anime/1', {}, '203.0.113.7');
    expect(other.records[0]!.client).toMatch(/^[0-9a-f]{16}$/);
    expect(other.records[0]!.client).not.toBe(records[0]!.client);
  });

  it('names thousands of clients apart, each the same every time, past the ones it remembers', async () => {
    const records: RequestRecord[] = [];
    const app = createObservedApp({ handle: async () => ({ status: 204, headers: {}, body: null }), owns: () => true }, { observers: [(record) => records.push(record)] });
    const addresses = Array.from({ length: 5000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    for (let round = 0; round < 2; round++) {
      for (const address of addresses) await app.handle({ method: 'GET', path: '/x', query: '', header: () => undefined, clientAddress: address });
    }
    const first = records.slice(0, 5000).map((record) => record.client!);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(first).size).toBe(5000);
    // Every one of the sixteen digits takes every hex value somewhere.
    for (let at = 0; at < 16; at++) expect(new Set(first.map((id) => id[at])).size).toBe(16);
    expect(records.slice(5000).map((record) => record.client)).toEqual(first);
  });

  it('names the canonical path the pipeline decided, not the raw target', async () => {
    const { send, records } = setup();
    const answer = await send('/v1/x/../anime/%2e/1');
    expect(answer.status).toBe(200);
    expect(records[0]).toMatchObject({ path: '/v1/anime/1', route: '/v1/anime/:id', cache: 'miss', tier: 'public' });
  });

  it('names one client and one Server Key alike in two instances with one fingerprintSecret, and not across secrets', async () => {
    const instance = (secret: string) => {
      const records: RequestRecord[] = [];
      const store = createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] });
      const catalogue = createCatalogueApp({ store, now: () => T0, gateway: { keys: [KEY], fingerprintSecret: secret }, logger: { error: () => undefined } });
      const app = createObservedApp(catalogue, { observers: [(record) => records.push({ ...record })], fingerprintSecret: secret });
      const send = (headers: Record<string, string>) => app.handle({ method: 'GET', path: '/v1/anime/1', query: '', header: (name) => headers[name], clientAddress: '203.0.113.9' });
      return { records, send };
    };
    const [a, b, other] = [instance('deployment-secret'), instance('deployment-secret'), instance('another-secret')];
    for (const { send } of [a, b, other]) {
      await send({});
      await send({ 'x-server-key': KEY });
    }
    const names = [a, b, other].map(({ records }) => records.map((record) => record.client));
    expect(names[0]![0]).toMatch(/^[0-9a-f]{16}$/);
    expect(names[0]![1]).toMatch(/^key:[0-9a-f]{12}$/);
    expect(names[1]).toEqual(names[0]);
    expect(names[2]![0]).not.toBe(names[0]![0]);
    expect(names[2]![1]).not.toBe(names[0]![1]);
  });

  it('gives the address itself only when told to', async () => {
    const { send, records } = setup({ clientId: 'address' });
    await send('/v1/anime/1', {}, '203.0.113.7');
    expect(records[0]!.client).toBe('203.0.113.7');
  });

  it('never puts a Server Key or an If-None-Match value in a record', async () => {
    const { send, records } = setup();
    await send('/v1/anime/1', { 'x-server-key': KEY, 'if-none-match': '"secret-etag-value"' });
    await send('/v1/anime/1', { 'x-server-key': `${KEY}-wrong` });
    expect(records[0]).toMatchObject({ tier: 'server', status: 200 });
    expect(records[0]!.client).toMatch(/^key:[0-9a-f]{12}$/);
    expect(records[1]!.status).toBe(401);
    const text = JSON.stringify(records);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('secret-etag-value');
  });

  it('notes the full window of a 429, the block of a 403 and routes of other apps', async () => {
    const { send, records } = setup();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await send('/v1/anime/1', {}, '192.0.2.44')).status);
    expect(statuses).toContain(429);
    expect(statuses).toContain(403);
    const limited = records.find((r) => r.status === 429)!;
    expect(limited).toMatchObject({ limited: 'second', tier: 'public', route: '/v1/anime/:id' });
    expect(records.find((r) => r.status === 403)).toMatchObject({ blocked: true });
    await send('/api/status');
    expect(records.at(-1)).toMatchObject({ route: '/api/status', status: 200 });
    await send('/nowhere/at/all');
    expect(records.at(-1)).toMatchObject({ route: undefined, status: 404 });
  });

  it('names one client alike in its 200, 429 and 403 lines and in answers the gateway never sees', async () => {
    const trustProxy = ['10.0.0.0/8'];
    const catalogue = createCatalogueApp({ store: createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] }), gateway: { trustProxy }, logger: { error: () => undefined } });
    const status = createStatusApp({ services: [], store: createMemoryStatusStore(), page: { name: 'x', url: 'http://x' } });
    const records: RequestRecord[] = [];
    const app = createObservedApp(combineApps(status, catalogue), { observers: [(record) => records.push({ ...record })], clientId: 'address', requestId: { trustProxy } });
    const send = (path: string, address: string, forwarded?: string) =>
      app.handle({ method: 'GET', path, query: '', header: (name) => (name === 'x-forwarded-for' ? forwarded : undefined), clientAddress: address });
    for (let i = 0; i < 40; i++) await send('/v1/anime/1', '10.0.0.1', '198.51.100.7');
    await send('/api/status', '10.0.0.1', '198.51.100.7');
    expect(new Set(records.map((r) => r.status))).toEqual(new Set([200, 429, 403]));
    expect(new Set(records.map((r) => r.client))).toEqual(new Set(['198.51.100.7']));
    expect(records.find((r) => r.status === 403)).toMatchObject({ blocked: true, tier: 'public' });
    // A direct IPv6 client: its /64, as the gateway counts it.
    await send('/api/status', '2001:db8:1:2::5');
    expect(records.at(-1)!.client).toBe('2001:db8:1:2::/64');
  });

  it('names the route of a 405 and of an OPTIONS preflight, answered before any route runs', async () => {
    const { send, records } = setup();
    await send('/v1/anime/1', {}, '203.0.113.7', 'POST');
    await send('/v1/anime/1', {}, '203.0.113.7', 'OPTIONS');
    expect(records.map((r) => [r.status, r.route])).toEqual([
      [405, '/v1/anime/:id'],
      [204, '/v1/anime/:id'],
    ]);
  });

  it("marks the 503s of an unreachable gateway back end, not a route's own", async () => {
    const memory = createMemoryGatewayBackend();
    const down = { now: true };
    const backend: GatewayBackend = {
      ...memory,
      counters: { hit: (windows, now) => (down.now ? Promise.reject(new Error('connection refused')) : Promise.resolve(memory.counters.hit(windows, now))) },
    };
    const busy = () => {
      throw new ApiError(503, 'Service Unavailable', 'The store is not answering.');
    };
    const handle = createPipeline({ routes: [{ path: '/v1/busy', handler: busy }], context: {}, middleware: [createGateway({ backend, cache: false }, { logger: { error: () => undefined } })] });
    const records: RequestRecord[] = [];
    const app = createObservedApp({ handle, owns: () => true }, { observers: [(record) => records.push({ ...record })] });
    const send = () => app.handle({ method: 'GET', path: '/v1/busy', query: '', header: () => undefined, clientAddress: '192.0.2.1' });
    expect((await send()).status).toBe(503);
    down.now = false;
    expect((await send()).status).toBe(503);
    expect(records.map((r) => [r.status, r.unavailable])).toEqual([
      [503, true],
      [503, undefined],
    ]);
  });

  it('accepts X-Request-Id only from a trusted proxy, and only a well-formed one', async () => {
    const { send } = setup({ requestId: { trustProxy: ['10.0.0.0/8'] } });
    expect((await send('/v1/anime/1', { 'x-request-id': 'lb-1234' }, '10.1.2.3')).headers['x-request-id']).toBe('lb-1234');
    expect((await send('/v1/anime/1', { 'x-request-id': 'lb-1234' }, '203.0.113.7')).headers['x-request-id']).not.toBe('lb-1234');
    const forged = (await send('/v1/anime/1', { 'x-request-id': 'a"\n{"status":200' }, '10.1.2.3')).headers['x-request-id'];
    expect(forged).toMatch(UUID_V4);
  });

  it('makes a new random UUID for every request, past the ids it draws at once', async () => {
    const ids: string[] = [];
    const app = createObservedApp(
      { handle: async () => ({ status: 204, headers: {}, body: null }), owns: () => true },
      { observers: [(record) => ids.push(record.requestId!)] },
    );
    for (let i = 0; i < 1000; i++) await app.handle({ method: 'GET', path: '/', query: '', header: () => undefined });
    expect(ids.every((id) => UUID_V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    // Random bits, in the first and in a later batch: each of the 30 random digits takes at least 12
    // of its 16 values in 100 ids, and the variant digit all 4 of its own (by chance, a random
    // generator fails this less than once in 10^10 runs; a stuck or narrowed bit fails it every time).
    const RANDOM = [...Array(36).keys()].filter((i) => ![8, 13, 14, 18, 19, 23].includes(i));
    for (const some of [ids.slice(0, 100), ids.slice(900)]) {
      const seen = (i: number) => new Set(some.map((id) => id[i])).size;
      expect(RANDOM.filter((i) => seen(i) < 12)).toEqual([]);
      expect(seen(19)).toBe(4);
    }
  });

  it('names the route of every path right, also past the paths it remembers, and of none for an unknown path', async () => {
    const { send, records } = setup({ requestId: false });
    const gateway = { 'x-server-key': KEY };
    const paths = Array.from({ length: 4500 }, (_, i) => (i % 2 ? `/v1/anime/${i}/full` : `/v1/anime/${i}`));
    for (const path of [...paths, '/v1/nowhere', '/v1/nowhere', paths[0]!, paths[1]!]) await send(path, gateway);
    expect(records.map((r) => r.route)).toEqual([
      ...paths.map((_, i) => (i % 2 ? '/v1/anime/:id/full' : '/v1/anime/:id')),
      undefined,
      undefined,
      '/v1/anime/:id',
      '/v1/anime/:id/full',
    ]);
  });

  it('never sends a request id when ids are off', async () => {
    const { send, records } = setup({ requestId: false });
    expect((await send('/v1/anime/1')).headers['x-request-id']).toBeUndefined();
    expect(records[0]!.requestId).toBeUndefined();
  });

  it('sends request ids with no observer at all, a trusted proxy one kept', async () => {
    const { send } = setup({ observers: [], requestId: { trustProxy: ['10.0.0.0/8'] } });
    const first = await send('/v1/anime/1');
    const second = await send('/v1/anime/1');
    expect(second.status).toBe(200);
    expect(first.headers['x-request-id']).toMatch(UUID_V4);
    expect(second.headers['x-request-id']).toMatch(UUID_V4);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect((await send('/v1/anime/1', { 'x-request-id': 'lb-9' }, '10.0.0.2')).headers['x-request-id']).toBe('lb-9');
  });

  it('gives every answer of shared, frozen headers its own id and copy, and leaves the shared ones as they are', async () => {
    const shared = Object.freeze({ 'content-type': 'application/json; charset=utf-8', etag: '"1"', vary: 'X-Server-Key' });
    const inner = { handle: async () => ({ status: 200, headers: shared, body: '{}' }), owns: () => true };
    const app = createObservedApp(inner, { observers: [() => undefined] });
    const request = (): PlainRequest => ({ method: 'GET', path: '/x', query: '', header: () => undefined });
    const answers = await Promise.all([app.handle(request()), app.handle(request()), app.handle(request())]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    expect(new Set(ids).size).toBe(3);
    for (const [i, answer] of answers.entries()) {
      expect(answer.headers).toEqual({ ...shared, 'x-request-id': ids[i] });
      expect(answer.headers).not.toBe(shared);
    }
    expect(answers[0]!.headers).not.toBe(answers[1]!.headers);
    expect(shared).toEqual({ 'content-type': 'application/json; charset=utf-8', etag: '"1"', vary: 'X-Server-Key' });
    // Headers of one answer only (not frozen) are copied as well.
    const own = { 'content-type': 'text/plain' };
    const single = createObservedApp({ handle: async () => ({ status: 200, headers: own, body: 'x' }), owns: () => true }, { observers: [() => undefined] });
    const answer = await single.handle(request());
    expect(answer.headers).toEqual({ 'content-type': 'text/plain', 'x-request-id': expect.stringMatching(UUID_V4) });
    expect(own).toEqual({ 'content-type': 'text/plain' });
  });

  it('rejects, never throws, when the app or a request throws at once', async () => {
    const app = createObservedApp(
      {
        handle: () => {
          throw new Error('broken');
        },
        owns: () => true,
      },
      { observers: [() => undefined] },
    );
    const broken = (): PlainRequest => ({
      method: 'GET',
      path: '/x',
      query: '',
      header: () => {
        throw new Error('unreadable header');
      },
    });
    const ok = (): PlainRequest => ({ method: 'GET', path: '/x', query: '', header: () => undefined });
    await expect(app.handle(ok())).rejects.toThrow('broken');
    const trusting = createObservedApp({ handle: async () => ({ status: 204, headers: {}, body: null }), owns: () => true }, { observers: [() => undefined], requestId: { trustProxy: true } });
    await expect(trusting.handle(broken())).rejects.toThrow('unreadable header');
  });

  it('answers the client even when an observer throws', async () => {
    const { send } = setup({
      observers: [
        () => {
          throw new Error('disk full');
        },
      ],
    });
    expect((await send('/v1/anime/1')).status).toBe(200);
  });

  it('hands the record to every observer, also to those after one that throws', async () => {
    const seen: number[] = [];
    const failing = () => {
      throw new Error('disk full');
    };
    const { send } = setup({ observers: [failing, (record) => seen.push(record.status), failing, (record) => seen.push(record.status)] });
    expect((await send('/v1/anime/1')).status).toBe(200);
    expect(seen).toEqual([200, 200]);
  });

  it('names the client behind trusted proxies with request ids off, and keeps the proxy id only with them on', async () => {
    const status = createStatusApp({ services: [], store: createMemoryStatusStore(), page: { name: 'x', url: 'http://x' } });
    const records: RequestRecord[] = [];
    const headers: Record<string, string> = { 'x-forwarded-for': '198.51.100.7', 'x-request-id': 'lb-1234' };
    const request = (): PlainRequest => ({ method: 'GET', path: '/api/status', query: '', header: (name) => headers[name], clientAddress: '10.0.0.1' });
    const observers = [(record: RequestRecord) => void records.push({ ...record })];
    const off = createObservedApp(status, { observers, clientId: 'address', requestId: false, trustProxy: ['10.0.0.0/8'] });
    expect((await off.handle(request())).headers['x-request-id']).toBeUndefined();
    expect(records.at(-1)).toMatchObject({ client: '198.51.100.7', requestId: undefined });
    const on = createObservedApp(status, { observers, clientId: 'address', trustProxy: ['10.0.0.0/8'] });
    expect((await on.handle(request())).headers['x-request-id']).toBe('lb-1234');
    expect(records.at(-1)).toMatchObject({ client: '198.51.100.7', requestId: 'lb-1234' });
    // Not behind a trusted proxy: the socket's address, and an id of its own.
    const direct = createObservedApp(status, { observers, clientId: 'address', trustProxy: ['192.0.2.0/24'] });
    expect((await direct.handle(request())).headers['x-request-id']).toMatch(UUID_V4);
    expect(records.at(-1)!.client).toBe('10.0.0.1');
  });
});
