import { describe, expect, it } from 'vitest';
import { closeQuery, createWordSimilarity } from './word-similarity.js';

describe('word similarity', () => {
  it("is the query's trigrams shared with the closest stretch of the text, over all of both", () => {
    const similarity = createWordSimilarity('frieren');
    expect(similarity('sousou no frieren')).toBe(1);
    // "  f", " fr", "fri", "rie", "en " of the query's eight, in a stretch of seven: 5 / (8 + 7 - 5).
    expect(similarity('sousou no frieen')).toBe(0.5);
    // "fri", "rie": the closest stretch is those two, 2 / (8 + 2 - 2).
    expect(similarity('rent a girlfriend')).toBe(0.25);
    expect(similarity('')).toBe(0);
  });

  it('takes the query as a set of trigrams and the text in order, whatever its repeats', () => {
    expect(createWordSimilarity('one piece')('piece one')).toBe(1);
    expect(createWordSimilarity('one')('one one one')).toBe(1);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(createWordSimilarity('𠮷野家')('𠮷野家')).toBe(1);
    // "  𠮷", " 𠮷野" of the query's four, in a stretch of those two: 2 / (4 + 2 - 2).
    expect(createWordSimilarity('𠮷野家')('𠮷野')).toBe(0.5);
    expect(createWordSimilarity('𠮷野家')('野𠮷')).toBe(0);
  });

  it('measures a query by its distinct words, the first 64 characters, from four characters on', () => {
    expect(closeQuery('one piece one')).toBe('one piece');
    expect(closeQuery('kmi')).toBeUndefined();
    expect(closeQuery('a b')).toBeUndefined();
    expect(closeQuery('abcd')).toBe('abcd');
    expect(closeQuery(`${'abcdefghi '.repeat(3)}${'x'.repeat(30)} ${'y'.repeat(40)}`)).toBe(`abcdefghi ${'x'.repeat(30)} ${'y'.repeat(23)}`);
  });
});
