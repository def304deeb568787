import { describe, expect, it } from 'vitest';
import { createSearchIndex, MatchTier, normalizeTitle } from './search.js';

describe('normalizeTitle', () => {
  it.each([
    ['Fullmetal Alchemist: Brotherhood', 'fullmetal alchemist brotherhood'],
    ['Pokémon', 'pokemon'],
    ['Steins;Gate', 'steins gate'],
    ['ＫＡＮＯＮ', 'kanon'],
    ['進撃の巨人', '進撃の巨人'],
    ['  --  ', ''],
    ['  Re:ZERO -Starting Life-  ', 're zero starting life'],
    ['A-1 Pictures', 'a 1 pictures'],
    ['Ａ-1 Pictures', 'a 1 pictures'],
  ])('folds %s to %s', (input, output) => {
    expect(normalizeTitle(input)).toBe(output);
  });
});

describe('search index', () => {
  const titles = [
    ['Naruto', 'ナルト'],
    ['Naruto: Shippuuden', 'Naruto Shippuden'],
    ['Boruto: Naruto Next Generations'],
    ['One Piece'],
    ['Cowboy Bebop', 'カウボーイビバップ'],
    ['Cowboy Bebop: Tengoku no Tobira', 'Cowboy Bebop: The Movie'],
  ];
  const index = createSearchIndex(titles);
  const ids = (q: string) => index.search(q).map((hit) => hit.index);

  it('finds an exact title in the exact tier', () => {
    const hit = index.search('naruto').find((h) => h.index === 0);
    expect(hit?.tier).toBe(MatchTier.Exact);
  });

  it('puts prefix and word-prefix matches in their tiers', () => {
    const hits = new Map(index.search('naruto').map((h) => [h.index, h.tier]));
    expect(hits.get(1)).toBe(MatchTier.Prefix);
    expect(hits.get(2)).toBe(MatchTier.WordPrefix);
  });

  it('finds a title despite a typo', () => {
    expect(ids('naruot')).toContain(0);
    expect(ids('cowboy bebpo')).toContain(4);
  });

  it('finds Japanese titles', () => {
    expect(ids('カウボーイビバップ')).toContain(4);
  });

  it('answers one- and two-letter queries by word prefix', () => {
    expect(ids('on')).toEqual([3]);
  });

  it('returns nothing for an unrelated query or punctuation', () => {
    expect(ids('zzzzqqq')).toEqual([]);
    expect(ids('!!!')).toEqual([]);
  });

  it('answers one- and two-letter queries by code point, astral letters included', () => {
    const astral = createSearchIndex([['𠮷野家'], ['𠮷田 太郎'], ['野原']]);
    expect(astral.search('𠮷').map((h) => h.index)).toEqual([0, 1]);
    expect(astral.search('𠮷野').map((h) => h.index)).toEqual([0]);
    expect(astral.search('太').map((h) => h.index)).toEqual([1]);
  });

  it('finds every one of thousands of distinct titles exactly (the trigram table grows past its first size)', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyzäöüßçé0123456789';
    const word = (n: number) => [0, 1, 2, 3].map((k) => letters[Math.floor(n / letters.length ** k) % letters.length]).join('');
    const many = Array.from({ length: 6000 }, (_, i) => [`${word(i * 7919)} ${word(i * 104729 + 13)}`]);
    const big = createSearchIndex(many);
    for (const i of [0, 1, 2999, 5999]) {
      expect(big.search(many[i]![0]!).find((h) => h.tier === MatchTier.Exact)?.index).toBe(i);
    }
  });
});
