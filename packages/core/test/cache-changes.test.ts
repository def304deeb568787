/**
 * The response cache follows the store's change feed: an answer is dropped as soon as a change to
 * anything it read is committed (its record, the records it joined, a list's members and
 * membership), one query spelled several ways is one entry, a write that changes nothing changes
 * nothing, and `ETag` and `Last-Modified` follow. Memory store and memory cache, in process.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryGatewayBackend, createMemoryStore, type PlainRequest, type RequestTrace } from '../src/index.js';
import { type Anime } from '../src/entry-schemas.js';
import { type CatalogueStore, type GatewayBackend } from '../src/entry-store.js';
import { createRecordStore } from '../src/seam/record-store.js';
import { createFreshness } from '../src/gateway/freshness.js';
import { createChangeLog } from '../src/seam/change-log.js';
import { makeAnime } from './fixtures.js';

const anime = (id: number, title: string, extra: Partial<Anime> = {}) => makeAnime({ mal_id: id, title, ...extra });

function appOver(store: CatalogueStore, backend: GatewayBackend = createMemoryGatewayBackend()) {
  const app = createCatalogueApp({ store, gateway: { rateLimit: false, backend }, logger: { error: () => undefined } });
  return async (target: string, headers: Record<string, string> = {}) => {
    const [path, query = ''] = target.split('?');
    const trace: RequestTrace = {};
    const request: PlainRequest = { method: 'GET', path: path!, query, header: (name) => headers[name], trace };
    const response = await app.handle(request);
    const body = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body ?? new Uint8Array());
    return { status: response.status, headers: response.headers, body, cache: trace.cache, json: () => JSON.parse(body) as { data: unknown } };
  };
}

describe('the memory cache over a memory store', () => {
  it('serves a changed record at once, and its list pages too', async () => {
    const store = createMemoryStore({ anime: [anime(1, 'First Title'), anime(2, 'Other')] });
    const get = appOver(store);
    expect((await get('/v1/anime/1')).cache).toBe('miss');
    expect((await get('/v1/anime/1')).cache).toBe('hit');
    expect((await get('/v1/anime')).body).toContain('First Title');
    expect((await get('/v1/anime')).cache).toBe('hit');
    expect((await get('/v1/anime/2')).cache).toBe('miss');
    await store.upsert('anime', [anime(1, 'Second Title')]);
    const after = await get('/v1/anime/1');
    expect(after.cache).toBe('miss');
    expect((after.json().data as Anime).title).toBe('Second Title');
    expect((await get('/v1/anime')).body).toContain('Second Title');
    // Another record's answer did not depend on it.
    expect((await get('/v1/anime/2')).cache).toBe('hit');
  });

  it('drops a list when a record joins its collection, and an entry page when it is deleted', async () => {
    const store = createMemoryStore({ anime: [anime(1, 'One')] });
    const get = appOver(store);
    expect((await get('/v1/anime')).json().data).toHaveLength(1);
    await store.upsert('anime', [anime(3, 'Three')]);
    expect((await get('/v1/anime')).json().data).toHaveLength(2);
    expect((await get('/v1/anime/3')).status).toBe(200);
    await store.delete('anime', [3]);
    expect((await get('/v1/anime/3')).status).toBe(404);
    expect((await get('/v1/anime')).json().data).toHaveLength(1);
    // A 404 is never kept: the record's insert is served at once.
    await store.upsert('anime', [anime(3, 'Three Again')]);
    expect(((await get('/v1/anime/3')).json().data as Anime).title).toBe('Three Again');
  });

  it('a write that changes nothing: no change in the feed, the same ETag, still a hit', async () => {
    const record = anime(1, 'Same');
    const store = createMemoryStore({ anime: [record] });
    const get = appOver(store);
    const first = await get('/v1/anime/1');
    const head = await store.changes!.head();
    expect(await store.upsert('anime', [structuredClone(record)])).toBe(0);
    expect(await store.delete('anime', [999])).toBe(0);
    expect(await store.changes!.head()).toBe(head);
    const again = await get('/v1/anime/1');
    expect(again.cache).toBe('hit');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['last-modified']).toBe(first.headers['last-modified']);
  });

  it('the reference store feeds the same changes and skips the same unchanged writes', async () => {
    const store = createRecordStore();
    expect(await store.upsert('anime', [anime(1, 'A'), anime(2, 'B')])).toBe(2);
    expect(await store.upsert('anime', [anime(1, 'A'), anime(2, 'B2')])).toBe(1);
    expect(await store.delete('anime', [1, 1, 5])).toBe(1);
    const changes = await store.changes!.since(0, 10);
    expect(changes.map((c) => [c.seq, c.key, c.op])).toEqual([
      [1, '1', 'insert'],
      [2, '2', 'insert'],
      [3, '2', 'update'],
      [4, '1', 'delete'],
    ]);
  });

  it('one query, one entry: parameter order, defaults and the spellings of sfw', async () => {
    const get = appOver(createMemoryStore({ anime: [anime(1, 'One'), anime(2, 'Two')] }));
    expect((await get('/v1/anime?sfw')).cache).toBe('miss');
    for (const spelling of ['/v1/anime?sfw=', '/v1/anime?sfw=true', '/v1/anime?sfw=1&page=1', '/v1/anime?limit=25&sfw&page=1']) {
      expect((await get(spelling)).cache, spelling).toBe('hit');
    }
    expect((await get('/v1/anime')).cache).toBe('miss');
    expect((await get('/v1/anime?page=1&limit=25')).cache).toBe('hit');
    expect((await get('/v1/anime?sfw=false')).cache).toBe('hit');
    expect((await get('/v1/anime/1?sfw')).cache).toBe('miss');
    expect((await get('/v1/anime/1?sfw=true')).cache).toBe('hit');
    // A query that does not parse is answered 400, never from an entry.
    expect((await get('/v1/anime?page=0')).status).toBe(400);
  });

  it('list pages live an hour at most; an entry page the full day', async () => {
    const get = appOver(createMemoryStore({ anime: [anime(1, 'One')] }));
    expect((await get('/v1/anime')).headers['cache-control']).toBe('public, max-age=3600');
    expect((await get('/v1/anime/1')).headers['cache-control']).toBe('public, max-age=86400');
  });

  it('two instances sharing one cache over one store both serve the change; an instance over another store trusts none of it', async () => {
    const store = createMemoryStore({ anime: [anime(1, 'Before')] });
    const backend = createMemoryGatewayBackend();
    const [a, b] = [appOver(store, backend), appOver(store, backend)];
    await a('/v1/anime/1');
    expect((await b('/v1/anime/1')).cache).toBe('hit');
    await store.upsert('anime', [anime(1, 'After')]);
    expect(((await b('/v1/anime/1')).json().data as Anime).title).toBe('After');
    expect(((await a('/v1/anime/1')).json().data as Anime).title).toBe('After');
    // A new process's store with other records: the shared entries were made under another feed.
    const other = appOver(createMemoryStore({ anime: [anime(1, 'Elsewhere')] }), backend);
    expect(((await other('/v1/anime/1')).json().data as Anime).title).toBe('Elsewhere');
  });
});

describe('a change feed that cannot be read', () => {
  it('answers without the cache rather than from it, says so once, and caches again once the feed is back', async () => {
    const store = createMemoryStore({ anime: [anime(1, 'One')] });
    const feed = store.changes!;
    let down = true;
    const errors: string[] = [];
    const flaky: CatalogueStore = Object.assign(Object.create(store) as CatalogueStore, {
      changes: { ...feed, id: feed.id, head: () => (down ? Promise.reject(new Error('feed down')) : feed.head()), since: feed.since, subscribe: feed.subscribe },
    });
    const app = createCatalogueApp({ store: flaky, gateway: { rateLimit: false }, logger: { error: (message) => void errors.push(message) } });
    const get = async () => {
      const trace: RequestTrace = {};
      await app.handle({ method: 'GET', path: '/v1/anime/1', query: '', header: () => undefined, trace });
      return trace.cache;
    };
    expect(await get()).toBe('bypass');
    expect(await get()).toBe('bypass');
    expect(errors.filter((e) => e.startsWith('Change feed unavailable'))).toHaveLength(1);
    down = false;
    // Asked again at most a second after the last failure.
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await get()).toBe('miss');
    expect(await get()).toBe('hit');
  });
});

describe('the change log', () => {
  it('raises its floor when it forgets, and then trusts nothing made below it', async () => {
    const log = createChangeLog(5);
    const fresh = createFreshness(log.feed, { maxTokens: 16, history: 0 });
    await fresh.pending();
    expect(fresh.usable).toBe(true);
    const entry = { status: 200, headers: {}, body: '', etag: '""', storedAt: 0, expiresAt: 1, seq: 0, feed: log.feed.id, deps: ['anime:1'] };
    log.add('anime', '2', 'update', []);
    log.flush();
    await fresh.pending();
    expect(fresh.position).toBe(1);
    expect(fresh.stale(entry)).toBe(false);
    log.add('anime', '1', 'update', []);
    log.flush();
    await fresh.pending();
    expect(fresh.stale(entry)).toBe(true);
    expect(fresh.stale({ ...entry, seq: 2 })).toBe(false);
    // Many changes: the log keeps 16 tokens and the feed 5 changes; an entry of position 2 is below the floor.
    for (let i = 10; i < 40; i++) log.add('anime', String(i), 'update', []);
    log.flush();
    await fresh.pending();
    expect(fresh.position).toBe(32);
    expect(fresh.stale({ ...entry, seq: 2, deps: ['people:1'] })).toBe(true);
    expect(fresh.stale({ ...entry, seq: 32, deps: ['people:1'] })).toBe(false);
    expect(fresh.stale({ ...entry, seq: 32, feed: 'another' })).toBe(true);
    fresh.stop();
  });
});
