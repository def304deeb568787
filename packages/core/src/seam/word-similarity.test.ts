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

  it('measures a long ASCII text as the definition does, its repeated trigrams counted once', () => {
    // The definition, by brute force: every stretch of the text's trigrams as a set.
    const gramsOf = (text: string) => text.split(' ').filter(Boolean).flatMap((w) => Array.from({ length: w.length + 1 }, (_, i) => `  ${w} `.slice(i, i + 3)));
    const reference = (query: string, text: string) => {
      const q = new Set(gramsOf(query));
      const t = gramsOf(text);
      let best = 0;
      for (let from = 0; from < t.length; from++) {
        const stretch = new Set<string>();
        for (let to = from; to < t.length; to++) {
          stretch.add(t[to]!);
          const shared = [...stretch].filter((g) => q.has(g)).length;
          best = Math.max(best, shared / (q.size + stretch.size - shared));
        }
      }
      return Math.fround(best);
    };
    // The whole text is the closest stretch only with `zz`'s three trigrams counted once: 8 / (8 + 11 - 8).
    const spread = `abc ${'zz '.repeat(150)}abd ${'zz '.repeat(5)}abe`;
    expect(createWordSimilarity('abc abd abe')(spread)).toBe(Math.fround(8 / 11));
    expect(reference('abc abd abe', spread)).toBe(Math.fround(8 / 11));
    const words = ['frie', 'ren', 'sousou', 'no', 'ab', 'frieren', 'ne', 'ri', 'sou'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    // 300 to 700 characters: past the 256 places the table of a text's other trigrams starts with.
    for (let k = 0; k < 6; k++) {
      const text = Array.from({ length: 60 + 10 * k }, () => words[next() % words.length]).join(' ');
      for (const query of ['frieren', 'sousou no frieren', 'ab ne']) expect(createWordSimilarity(query)(text), `${query} in ${text.length} chars`).toBe(reference(query, text));
    }
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
