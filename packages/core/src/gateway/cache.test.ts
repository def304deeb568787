import { describe, expect, it } from 'vitest';
import { matchesIfNoneMatch, toEtag } from './cache.js';

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
