import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../../test/cases.js';
import {
  createSearchIndex,
  createWordMatcher,
  editWords,
  fallsBackOnlyWhenEmpty,
  MatchTier,
  nearPatterns,
  normalizeTitle,
  queryEditKeys,
  queryWordEdges,
  queryWordPatterns,
  queryWordsHeld,
  withinOneEdit,
  wordEditKeys,
} from './search.js';

describe('normalizeTitle', () => {
  itMapsEach('folds %s to %s', normalizeTitle, [
    ['Fullmetal Alchemist: Brotherhood', 'fullmetal alchemist brotherhood'],
    ['Pokémon', 'pokemon'],
    ['Steins;Gate', 'steins gate'],
    ['ＫＡＮＯＮ', 'kanon'],
    ['進撃の巨人', '進撃の巨人'],
    ['  --  ', ''],
    ['  Re:ZERO -Starting Life-  ', 're zero starting life'],
    ['A-1 Pictures', 'a 1 pictures'],
    ['Ａ-1 Pictures', 'a 1 pictures'],
  ]);
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

  it('puts prefix and word-prefix matches in their tiers, whole words before a word\'s start', () => {
    const hits = new Map(index.search('naruto').map((h) => [h.index, h.tier]));
    expect(hits.get(1)).toBe(MatchTier.Prefix);
    expect(hits.get(2)).toBe(MatchTier.Words);
    const part = new Map(index.search('narut').map((h) => [h.index, h.tier]));
    expect(part).toEqual(new Map([[0, MatchTier.Near], [1, MatchTier.PartPrefix], [2, MatchTier.WordPrefix]]));
    expect(index.search('bebop the').find((h) => h.index === 5)?.tier).toBe(MatchTier.Words);
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

  it('keeps its candidate places for the titles holding a three-letter query, whatever others share', () => {
    // `No Kor` and `No Tor` hold two of the trigrams of ` nor ` (` no`, `or `), as `Honor` does, and come first.
    const capped = createSearchIndex([['No Kor'], ['No Tor'], ['Honor']], { candidates: 2 });
    expect(capped.search('nor').map((h) => h.index)).toEqual([2]);
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

/** `LIKE` as SQL reads a pattern: `_` one character, `%` any run (folded text needs no escapes). */
const like = (text: string, pattern: string) => new RegExp(`^${pattern.replace(/%/g, '.*').replace(/_/g, '.')}$`, 'u').test(text);
const likeAny = (query: string, title: string) => queryWordPatterns(query).some((p) => like(` ${title} `, p));

describe('sharing a word with the query', () => {
  it.each([
    ['frieren', 'sousou no frieren', true],
    ['frieren', 'sousou no frieen', true], // a letter dropped
    ['frieren', 'sousou no frieeren', true], // a letter added
    ['frieren', 'sousou no friaren', true], // a letter changed
    ['frieren', 'sousou no fireren', true], // two letters swapped
    ['abcd', 'x acbd y', true], // the middle two of four swapped
    ['frieren', 'rent a girlfriend', false],
    ['frieren', 'kanojo okarishimasu', false],
    ['one piece', 'one punch man', true], // "one"
    ['one piece', 'onepunchman', true], // a word starting with "one"
    ['onepiece', 'one piece', true], // a space is one letter more
    ['shingeki no kyojin', 'kimi no na wa', false], // "no" alone is no shared word
    ['no', 'kimi no na wa', true], // unless the query has no longer word
    ['fullmeta', 'fullmetal alchemist', true], // a word start
    ['monogatari', 'bakemonogatari', true], // inside a word
    ['one piece', 'dr stone science future', false], // but a short word only at a word start
    ['one', 'on', false], // no typo in a word shorter than four letters
    ['進撃の巨人', '進撃の巨人 the final season', true],
    ['進撃の巨大', '進撃の巨人', true],
  ])('%j against %j: %s', (query, title, shares) => {
    expect(createWordMatcher(query)(title)).toBe(shares);
    expect(likeAny(query, title)).toBe(shares);
  });

  it.each(['abcd', 'abba', 'frieren', 'kyoujin', '進撃の巨人'])('finds every one-typo spelling of %j, past the edge pre-test', (word) => {
    for (const pattern of queryWordPatterns(word).filter((p) => p.endsWith(' %'))) {
      for (const fill of ['x', ' ']) {
        const title = `the ${pattern.slice(2, -2).replace('_', fill)} end`;
        expect(createWordMatcher(word)(title), title).toBe(true);
        expect(queryWordEdges(word).some((p) => like(` ${title} `, p)), title).toBe(true);
      }
    }
  });

  it('agrees with the LIKE patterns on thousands of generated titles and queries', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const letters = 'abcdeo ';
    const text = (n: number) => normalizeTitle(Array.from({ length: n }, () => letters[Math.floor(rand() * letters.length)]).join(''));
    let agreed = 0;
    for (let k = 0; k < 3000; k++) {
      const query = text(3 + Math.floor(rand() * 10));
      const title = text(2 + Math.floor(rand() * 16));
      if (!query || !title) continue;
      expect(createWordMatcher(query)(title), `${query} / ${title}`).toBe(likeAny(query, title));
      // The edge patterns are a pre-test: every title a typo pattern matches matches one of them.
      const typo = queryWordPatterns(query).some((p) => p.endsWith(' %') && like(` ${title} `, p));
      if (typo) expect(queryWordEdges(query).some((p) => like(` ${title} `, p)), `${query} / ${title}`).toBe(true);
      agreed++;
    }
    expect(agreed).toBeGreaterThan(2000);
  });
});

describe('fuzzy junk', () => {
  const titles = [
    ['Sousou no Frieren', "Frieren: Beyond Journey's End"],
    ['Kanojo, Okarishimasu', 'Rent-A-Girlfriend'],
    ['Boku wa Tomodachi ga Sukunai', "Haganai: I don't have many friends"],
    ['Re:Zero kara Hajimeru Isekai Seikatsu', 'Re:ZERO -Starting Life in Another World-'],
  ];
  const index = createSearchIndex(titles);
  const ids = (q: string) => index.search(q).map((hit) => hit.index);

  it('drops fuzzy hits sharing no word with the query when others share one', () => {
    expect(ids('frieren')).toEqual([0]);
  });

  it('keeps fuzzy hits sharing a word one typo away', () => {
    expect(ids('frieeren')).toEqual([0]);
    expect(ids('sousou no frirein')).toContain(0);
  });

  it('keeps every fuzzy hit when none shares a word', () => {
    const loose = createSearchIndex([['Kanojo, Okarishimasu', 'Rent-A-Girlfriend'], ['Boku wa Tomodachi ga Sukunai', "Haganai: I don't have many friends"]]);
    expect(loose.search('frieren').length).toBe(createSearchIndex([['Rent-A-Girlfriend'], ["Haganai: I don't have many friends"]]).search('frieren').length);
    expect(loose.search('frieren').length).toBeGreaterThan(0);
  });
});

/** Optimal string alignment distance (edits: a letter changed, added or dropped, two neighbours swapped). */
function editDistance(a: string | string[], b: string | string[]): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('one-edit keys', () => {
  it('files a word under itself and each of its one-letter deletions', () => {
    expect(wordEditKeys('abc')).toEqual(['=abc', '0:bc', '1:ac', '2:ab']);
    expect(editWords(['sousou no frieren', 'frieren a'])).toEqual(['sousou', 'no', 'frieren']);
  });

  it('shares a key between a query word and a title word exactly when they are at most one edit apart', () => {
    // Every pair of words of two to five letters over a three-letter alphabet (and a few longer ones).
    const words: string[] = [];
    const grow = (w: string) => {
      if (w.length >= 2) words.push(w);
      if (w.length < 5) for (const c of 'abc') grow(w + c);
    };
    grow('');
    words.push('slayers', 'slaeyrs', 'frieren', 'frieeren');
    const filed = new Map(words.map((w) => [w, new Set(wordEditKeys(w))]));
    let near = 0;
    for (const q of words.filter((w) => w.length >= 3)) {
      const keys = queryEditKeys(q);
      for (const w of words) {
        const shares = keys.some((k) => filed.get(w)!.has(k));
        if (shares !== editDistance(q, w) <= 1) expect.fail(`${q} / ${w}: shares a key ${shares}, distance ${editDistance(q, w)}`);
        if (shares) near++;
      }
    }
    expect(near).toBeGreaterThan(1000);
  });

  it('tells words one edit apart as the edit distance does', () => {
    const words = ['ab', 'ba', 'abc', 'acb', 'bac', 'abcd', 'abdc', 'acbd', 'abd', 'xabc', 'abcx', 'axc', 'aabc', 'abbc', '𠮷野', '野𠮷', '𠮷'];
    for (const a of words) for (const b of words) expect(withinOneEdit(a, b), `${a} / ${b}`).toBe(editDistance([...a], [...b]) <= 1);
  });

  it('looks up no key for a query of words under three letters', () => {
    expect(queryEditKeys('no 2')).toEqual([]);
  });
});

describe('near tiers: a title one edit from the whole query', () => {
  /** `LIKE` without `%`: `_` is one character. */
  const like = (pattern: string, text: string) => new RegExp(`^${pattern.replace(/_/g, '.')}$`, 'u').test(text);

  it('matches a pattern exactly when the text is one edit from the query, and files it by the word it falls in', () => {
    // Every string over a small alphabet within two edits of the query, give or take.
    const query = 'kaze hi';
    const { near, shortWord } = nearPatterns(query);
    const texts = new Set<string>([query]);
    for (let round = 0; round < 2; round++) {
      for (const t of [...texts]) {
        for (let i = 0; i <= t.length; i++) {
          for (const c of 'akzehin ') texts.add(t.slice(0, i) + c + t.slice(i)).add(t.slice(0, i) + c + t.slice(i + 1));
          texts.add(t.slice(0, i) + t.slice(i + 1));
        }
      }
    }
    let counted = 0;
    texts.delete(query); // matched by the patterns too, but the exact tier comes first
    for (const text of texts) {
      const matched = [...near, ...shortWord].some((p) => like(p, text));
      const within = editDistance([...text], [...query]) <= 1;
      if (matched !== within) expect.fail(`${text}: matches a pattern ${matched}, within one edit ${within}`);
      if (within) counted++;
    }
    expect(counted).toBeGreaterThan(100);
    expect(near).toContain('k_ze hi');
    expect(shortWord).toEqual(expect.arrayContaining(['kaze _i', 'kaze hi_', 'kaze h']));
    expect(nearPatterns('kazh')).toEqual({ near: [], shortWord: [] });
  });

  it('ranks a slip in a long word above prefix hits, and one in a short word between whole words and a word\'s start', () => {
    const index = createSearchIndex([['Densetsu wa De'], ['Densetsu wa Sekai'], ['Kaze Ni'], ['Monogatari Kaze Hi'], ['Yoru Tenshi'], ['Tenshi Yoru']]);
    const tiers = (q: string) => new Map(index.search(q).map((hit) => [hit.index, hit.tier]));
    expect(tiers('densetsi wa de').get(0)).toBe(MatchTier.Near);
    expect(tiers('densetsu wa se')).toEqual(new Map([[1, MatchTier.PartPrefix], [0, MatchTier.NearShortWord]]));
    expect(MatchTier.NearShortWord).toBeLessThan(MatchTier.PartPrefix);
    expect(tiers('kaze hi')).toEqual(new Map([[3, MatchTier.Words], [2, MatchTier.NearShortWord]]));
    expect(MatchTier.Words).toBeLessThan(MatchTier.NearShortWord);
    expect(tiers('tensji yoru').get(5)).toBe(MatchTier.Near);
  });
});

describe('the one-edit fallback', () => {
  const index = createSearchIndex([['Slayers'], ['Slayers Next'], ['Wish'], ['Pluto'], ['Rent-A-Girlfriend']]);
  const ids = (q: string) => index.search(q).map((hit) => hit.index);

  it.each([
    ['the slaeyrs', [0, 1]],
    ['wihs', [2]],
    ['pulto', [3]],
    ['plutoo', [3]],
  ])('answers %j, which no tier finds, with the titles one edit away', (q, expected) => {
    expect(ids(q).sort()).toEqual(expected);
  });

  it('puts those titles ahead of junk sharing no word with the query', () => {
    // The junk shares 10 of the query's 16 trigrams (word similarity 10 / 19) and no word; the
    // fallback's title is one edit from a query word, and shares too few trigrams to be a candidate.
    const loose = createSearchIndex([['Abcdezz Hijklzz'], ['Abcdegf']]);
    expect(loose.search('abcdefg hijklmn')).toEqual([
      { index: 1, tier: MatchTier.Fuzzy, score: -100 + 7 / 1000 },
      { index: 0, tier: MatchTier.Fuzzy, score: expect.any(Number) },
    ]);
  });

  it('orders its hits by the query words their titles hold whole', () => {
    expect(queryWordsHeld('ma la nu pie', 'ma la nu pei')).toBe(5); // ma, la, nu, ma la, la nu
    expect(queryWordsHeld('kaze hoshi wa', 'wa kaze hoshi')).toBe(4);
    expect(queryWordsHeld('kaze hoshi wa', 'kaze hoshi wa yume')).toBe(5);
    expect(queryWordsHeld('ma la nu pie', 'wan jie xian')).toBe(0);
    // (Not 'Ma La Nu Pei', one edit from the whole query: that is a near hit, above any fallback.)
    const many = createSearchIndex([['Wan Jie Xian'], ['Lie Pi Xie'], ['Ma La Nu Pei Zi']]);
    // The caller orders hits by score: the best one is the title holding most of the query.
    const best = many.search('ma la nu pie').sort((a, b) => a.score - b.score)[0];
    expect(best).toEqual({ index: 2, tier: MatchTier.Fuzzy, score: -105 + 15 / 1000 });
  });

  it('orders equally held hits by their shortest title', () => {
    const akira = createSearchIndex([['Akira (Shin Anime)'], ['Akira (TV)']]);
    expect(akira.search('ackira').sort((a, b) => a.score - b.score).map((hit) => hit.index)).toEqual([1, 0]);
  });

  it('falls back ahead of junk unless the query is one word of three characters', () => {
    expect(fallsBackOnlyWhenEmpty('one')).toBe(true);
    expect(fallsBackOnlyWhenEmpty('wihs')).toBe(false);
    expect(fallsBackOnlyWhenEmpty('ma la nu pie')).toBe(false);
  });

  it('answers nothing when no title word is one edit away', () => {
    expect(ids('xyzzy')).toEqual([]);
  });
});
