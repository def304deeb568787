import { describe, expect, it } from 'vitest';
import type { CacheStore, CachedResponse } from './back-end.js';
import { createMemoryCacheStore, matchesIfNoneMatch, toCacheEntrySize, toEtag } from './cache.js';

describe('toEtag', () => {
  it('gives the same strong tag for the same bytes, whether string or bytes', () => {
    const body = '{"data":{"title":"進撃の巨人"}}';
    expect(toEtag(body)).toBe(toEtag(body));
    expect(toEtag(new TextEncoder().encode(body))).toBe(toEtag(body));
    expect(toEtag(body)).toMatch(/^"[0-9a-f]+-[0-9a-f]{16}"$/);
  });

  it('gives different tags for bodies that differ in one byte, in length, or only at the tail', () => {
    const tags = new Set(['{"a":1}', '{"a":2}', '{"a":1} ', '{"b":1}', 'x', 'y', '', 'abcd', 'abce'].map((b) => toEtag(b)));
    expect(tags.size).toBe(9);
  });

  it('does not depend on earlier, longer bodies left in its scratch space', () => {
    const short = '{"n":1}';
    const before = toEtag(short);
    toEtag('z'.repeat(200_000));
    expect(toEtag(short)).toBe(before);
  });
});

describe('matchesIfNoneMatch', () => {
  it.each([
    ['"abc"', '"abc"', true],
    ['W/"abc"', '"abc"', true],
    ['"x", "abc"', '"abc"', true],
    ['*', '"abc"', true],
    ['"abd"', '"abc"', false],
    ['abc', '"abc"', false],
  ])('%s against %s → %s', (header, etag, match) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(match);
  });
});

describe('createMemoryCacheStore', () => {
  const T0 = Date.UTC(2026, 5, 1);
  const entry = (body: string): CachedResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
    etag: toEtag(body),
    storedAt: T0,
    expiresAt: T0 + 60_000,
  });
  const filler = 'k'.repeat(2_000);
  const flood = (store: CacheStore, count: number, keyOf: (i: number) => string) => {
    for (let i = 0; i < count; i++) void store.set(keyOf(i), entry(`{"data":[],"n":${i}}`));
  };

  it('counts the keys against its bound: unique 2,000-character keys never hold more than maxBytes', () => {
    const maxBytes = 1024 * 1024;
    const store = createMemoryCacheStore({ maxBytes });
    const keyOf = (i: number) => `/v1/anime?x=${i}-${filler}`;
    flood(store, 1_000, keyOf);
    let held = 0;
    for (let i = 0; i < 1_000; i++) {
      const kept = store.get(keyOf(i), T0) as CachedResponse | undefined;
      if (kept) held += keyOf(i).length + kept.body.length;
    }
    // Keys and bodies alone, a lower bound of what the entries really take.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(maxBytes);
    // The newest entry is always there: least recently used go first.
    expect(store.get(keyOf(999), T0)).toBeDefined();
  });

  it('keeps no entry whose key is longer than maxKeyLength, and answers its lookups as misses', () => {
    const store = createMemoryCacheStore({ maxKeyLength: 2_048 });
    const long = `/v1/anime?x=${'k'.repeat(15_000)}`;
    store.set(long, entry('{"data":[]}'));
    expect(store.get(long, T0)).toBeUndefined();
    store.set('/v1/anime?x=1', entry('{"data":[]}'));
    expect(store.get('/v1/anime?x=1', T0)).toBeDefined();
  });

  it('accounts keys, headers and bodies, at two bytes a character for text beyond Latin-1', () => {
    const latin = '{"title":"Pokémon"}';
    const wide = '{"title":"進撃の巨人進撃"}';
    expect(wide.length).toBe(latin.length);
    const sized = (key: string, body: string) => toCacheEntrySize(key, { ...entry(body), etag: '"1"' });
    expect(sized('/v1/anime/1', wide) - sized('/v1/anime/1', latin)).toBe(wide.length);
    expect(sized(`/v1/anime/1?${'q'.repeat(10_000)}`, '{}') - sized('/v1/anime/1?', '{}')).toBe(10_000);
    const withHeader = { ...entry('{}'), headers: { ...entry('{}').headers, 'x-extra': 'abc' } };
    expect(toCacheEntrySize('/k', withHeader) - toCacheEntrySize('/k', entry('{}'))).toBe('x-extra'.length + 3);
    const store = createMemoryCacheStore();
    store.set('/v1/anime/1', entry(latin));
    expect(store.bytes).toBe(toCacheEntrySize('/v1/anime/1', entry(latin)));
    expect(store.entries).toBe(1);
  });
});
