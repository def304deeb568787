import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCacheKeys } from './cache-key.js';

const route = { path: '/v1/anime', query: z.object({ page: z.coerce.number().default(1), q: z.string().optional() }) };

describe('createCacheKeys', () => {
  it('gives every spelling of one query one key', () => {
    const keyOf = createCacheKeys();
    expect(keyOf(route, '/v1/anime', '')).toBe(keyOf(route, '/v1/anime', 'page=1'));
    expect(keyOf(route, '/v1/anime', 'q=a&page=2')).toBe(keyOf(route, '/v1/anime', 'page=2&q=a'));
    expect(keyOf(route, '/v1/anime', 'page=2')).not.toBe(keyOf(route, '/v1/anime', 'page=3'));
    expect(keyOf(undefined, '/v1/nope', '')).toBeUndefined();
    expect(keyOf(route, '/v1/anime', 'page=x')).toBeUndefined();
  });

  it('keeps giving the same keys past its bound of remembered targets, and for targets too long to remember', () => {
    const keyOf = createCacheKeys();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 10_000; i++) {
        const path = `/v1/anime/${i % 97}`;
        expect(keyOf(route, path, `q=${i}`)).toBe(`${path}?{"page":1,"q":"${i}"}`);
      }
    }
    const long = `q=${'a'.repeat(2_000)}`;
    expect(keyOf(route, '/v1/anime', long)).toBe(`/v1/anime?{"page":1,"q":"${'a'.repeat(2_000)}"}`);
  });
});
