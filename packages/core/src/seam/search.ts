/**
 * Fuzzy title search that stays fast at catalogue scale: a trigram index picks at most a few
 * hundred candidates, and only those are measured for close hits, by `pg_trgm`'s word similarity
 * (./word-similarity.ts), the PostgreSQL store's own measure.
 * When they find nothing that shares a word with the query, the titles with a word one edit from
 * a query word come first (the fallback; docs/search.md).
 * @module
 */
import { closeQuery, createWordSimilarity, NON_ASCII, SPACE } from './word-similarity.js';

/**
 * How a hit matched, best first: the query as a title, one slip from one, the query's words held
 * whole, and then the query as the start of a longer word, the last before close hits.
 */
export const MatchTier = {
  /** A title equals the query (ignoring case, accents and punctuation). */
  Exact: 0,
  /** A title is one edit from the whole query (five characters or more), inside a word of three or more ({@link nearPatterns}). */
  Near: 1,
  /** A title starts with the query's words, whole. */
  Prefix: 2,
  /** A title holds the query's words, whole, after its first word. */
  Words: 3,
  /** A title is one edit from the whole query elsewhere: in a shorter word, or between words. */
  NearShortWord: 4,
  /** A title starts with the query, whose last word starts a longer one. */
  PartPrefix: 5,
  /** A word inside a title starts with the query, whose last word starts a longer one. */
  WordPrefix: 6,
  /** Fuzzy (typos, partial words). */
  Fuzzy: 7,
} as const;
/** How a hit matched: 0 exact, 1 near, 2 prefix, 3 words, 4 near in a short word, 5 part prefix, 6 word prefix, 7 fuzzy. */
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];

/**
 * One search hit: the entry's position in the indexed list, how it matched, and for fuzzy hits their
 * order (lower first: less the query words held whole ({@link queryWordsHeld}), less the word
 * similarity, plus the shortest matching title's length in billionths).
 */
export interface SearchHit {
  index: number;
  tier: MatchTier;
  score: number;
}

/** Options of {@link createSearchIndex}. */
export interface SearchIndexOptions {
  /** How many entries the trigram stage keeps; only the fuzzy ones among them are measured for close hits. @default 300 */
  candidates?: number;
  /**
   * Entry indexes in preferred order, e.g. most popular first. When a query matches more entries than
   * the candidate cap (`"one"`, one-letter queries), the earlier ones are kept. @default index order
   */
  order?: ArrayLike<number>;
  /**
   * The word-similarity work one query may cost, in characters of the titles measured. Fuzzy
   * candidates beyond it (those sharing the fewest trigrams with the query) are not measured, so a
   * query sharing trigrams with thousands of titles stays cheap; a query past 32 characters gets
   * a share of it for each 32 (a title holds more of its trigrams, each a longer run to measure).
   * @default 3000
   */
  fuzzyBudget?: number;
}

/** A search index over a fixed list of entries. */
export interface SearchIndex {
  /**
   * The entries matching `query`, best first. Within every tier but the fuzzy one,
   * order is left to the caller's tie-break (`rank` below); fuzzy hits are ordered by their score.
   * Fallback hits (one edit from a query word) are fuzzy hits scored below -100, ahead of the others.
   */
  search(query: string): SearchHit[];
}

/**
 * Folds case, accents, width and punctuation so that `Fullmetal Alchemist: Brotherhood` and
 * `fullmetal alchemist brotherhood` compare equal. Japanese text keeps its voicing marks.
 * @param s - Any title or query.
 * @returns Lower-case words separated by single spaces.
 */
export function normalizeTitle(s: string): string {
  // ASCII is unchanged by NFKD and NFKC and has no combining marks, and its letters and digits are
  // exactly \p{L} and \p{N} there: the two normalizations, a third of the cost, can be skipped.
  if (!NON_ASCII.test(s)) return s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Query words shorter than this count only when the query has no longer word ("no", "on", "2"). */
const KEY_WORD = 3;
/** Query words at least this long also match a title word one typo away. */
const TYPO_WORD = 4;
/** Query words at least this long also match inside a title word ("bakemonogatari"); shorter ones only at its start ("one" is not in "stone"). */
const INNER_WORD = 5;
/**
 * Query words looked at, in query order: a 200-character query has ~35 words, each adding ~4 patterns
 * per letter that every fuzzy title of the PostgreSQL store is matched against.
 */
const KEY_WORDS = 8;

/**
 * The patterns a title must match to share a word with a folded query, as SQL `LIKE` patterns over
 * the title with a space on each side (` title `; `_` is one character, `%` any run): a title word
 * holds a query word of 5+ letters ("bakemonogatari" holds "monogatari") or starts
 * with a shorter one ("one" is not a word of "dr stone"), or is one typo (a letter changed, added,
 * dropped, or two swapped) from a query word of 4+ letters. Query words
 * shorter than 3 letters are left out when the query has a longer one: a title
 * sharing only "no" or "2" with "shingeki no kyojin 2" shares no word with it. Only the first
 * 8 of the rest count. Folded titles hold only letters, digits and single spaces,
 * so no character needs escaping. The memory store and the PostgreSQL store match the same patterns.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The patterns, without repeats; none for an empty query.
 * @example
 * ```ts
 * queryWordPatterns('one piece');
 * // ['% one%', '%piece%', '% _iece %', '% iece %', …, '% ipece %', …]
 * ```
 */
export function queryWordPatterns(query: string): string[] {
  const patterns = new Set<string>();
  for (const c of keyWords(query)) {
    patterns.add(c.length >= INNER_WORD ? `%${c.join('')}%` : `% ${c.join('')}%`);
    if (c.length < TYPO_WORD) continue;
    const whole = (parts: string[]) => patterns.add(`% ${parts.join('')} %`);
    for (let i = 0; i <= c.length; i++) {
      if (i < c.length) {
        whole([...c.slice(0, i), '_', ...c.slice(i + 1)]);
        whole([...c.slice(0, i), ...c.slice(i + 1)]);
        if (i + 1 < c.length && c[i] !== c[i + 1]) whole([...c.slice(0, i), c[i + 1]!, c[i]!, ...c.slice(i + 2)]);
      }
      whole([...c.slice(0, i), '_', ...c.slice(i)]);
    }
  }
  return [...patterns];
}

/**
 * A cheap pre-test for the typo patterns of {@link queryWordPatterns} (those of the form `% x %`),
 * as `LIKE` patterns over ` title `: a title matching one of those matches one of these. A stretch
 * one typo from a word of four or more letters keeps its first two letters at the word start or its
 * last two before the space (or, for four letters, is the word with its middle two swapped), so a
 * title with none of them needs no further look.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The patterns, without repeats; none when the query has no word of four letters.
 * @example
 * ```ts
 * queryWordEdges('frieren'); // ['% fr%', '%en %']
 * ```
 */
export function queryWordEdges(query: string): string[] {
  const edges = new Set<string>();
  for (const c of keyWords(query)) {
    if (c.length < TYPO_WORD) continue;
    edges.add(`% ${c[0]}${c[1]}%`).add(`%${c.at(-2)}${c.at(-1)} %`);
    if (c.length === TYPO_WORD && c[1] !== c[2]) edges.add(`% ${c[0]}${c[2]}%`);
  }
  return [...edges];
}

/** Title words shorter than this are not filed for the one-edit fallback (see {@link wordEditKeys}). */
const EDIT_TITLE_WORD = 2;
/** Query words shorter than this are not looked up by the one-edit fallback (see {@link queryEditKeys}). */
const EDIT_QUERY_WORD = 3;

/**
 * The words of folded texts that the one-edit fallback files: each distinct word of two
 * characters or more.
 * @param texts - Folded texts ({@link normalizeTitle}).
 * @returns The words, first seen first.
 * @example
 * ```ts
 * editWords(['sousou no frieren', 'frieren']); // ['sousou', 'no', 'frieren']
 * ```
 */
export function editWords(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const word of text.split(' ')) if ([...word].length >= EDIT_TITLE_WORD) words.add(word);
  return [...words];
}

/**
 * The keys a title word is filed under for the one-edit fallback: `=word`, and for each letter
 * `i` (a code point) `i:` and the word without it. A query word one edit away from the title word
 * looks up one of these keys ({@link queryEditKeys}), and no other word shares a key with it: the
 * keys name the edit exactly, so neither store checks a candidate word again.
 * @param word - A folded title word.
 * @returns The keys, without repeats.
 * @example
 * ```ts
 * wordEditKeys('abc'); // ['=abc', '0:bc', '1:ac', '2:ab']
 * ```
 */
export function wordEditKeys(word: string): string[] {
  const c = [...word];
  const keys = new Set([`=${word}`]);
  for (let i = 0; i < c.length; i++) keys.add(`${i}:${stretch(c, 0, c.length, i)}`);
  return [...keys];
}

/**
 * The keys ({@link wordEditKeys}) under which the title words within one edit of a query word are
 * filed, for each query word of three characters or more among those {@link queryWordPatterns}
 * looks at: the word itself (`=word`), the word with a letter added at `i` (`i:word`), with
 * letter `i` dropped (`=` and the rest), changed (`i:` and the rest), or swapped with the next.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The keys, without repeats; none when the query has no word of three characters.
 * @example
 * ```ts
 * queryEditKeys('slaeyrs'); // ['=slaeyrs', '0:slaeyrs', …, '=slayers', …]
 * ```
 */
export function queryEditKeys(query: string): string[] {
  const keys = new Set<string>();
  for (const c of keyWords(query)) {
    if (c.length < EDIT_QUERY_WORD) continue;
    const word = c.join('');
    keys.add(`=${word}`);
    // The title word has a letter more, at i: without it, it is the query word.
    for (let i = 0; i <= c.length; i++) keys.add(`${i}:${word}`);
    for (let i = 0; i < c.length; i++) {
      const without = stretch(c, 0, c.length, i);
      // The query has a letter more (the title word is the rest), or another letter at i.
      keys.add(`=${without}`).add(`${i}:${without}`);
      if (i + 1 < c.length && c[i] !== c[i + 1]) keys.add(`=${[...c.slice(0, i), c[i + 1]!, c[i]!, ...c.slice(i + 2)].join('')}`);
    }
  }
  return [...keys];
}

/** The words of a folded query that {@link queryWordPatterns} matches, as code-point arrays. */
function keyWords(query: string): string[][] {
  const words = [...new Set(query.split(' ').filter(Boolean))].map((w) => [...w]);
  const long = words.filter((w) => w.length >= KEY_WORD);
  return (long.length > 0 ? long : words).slice(0, KEY_WORDS);
}

/** Characters `from` up to `to` of `t` (a string of ASCII or an array of code points), without `skip`. */
function stretch(t: string | readonly string[], from: number, to: number, skip = -1): string {
  if (typeof t === 'string') return skip < 0 ? t.slice(from, to) : t.slice(from, skip) + t.slice(skip + 1, to);
  let out = '';
  for (let k = from; k < to; k++) if (k !== skip) out += t[k]!;
  return out;
}

/** Queries shorter than this (in characters) have no near tiers: nearly every short string is one edit from many titles. */
const NEAR_QUERY = 5;
/** A slip in a query word shorter than this makes another word (`kaze hi` → `kaze ni`), not a misspelt one. */
const NEAR_WORD = 3;

/** The `LIKE` patterns of the two near tiers of search (`docs/search.md`), by where the edit falls. */
export interface NearPatterns {
  /** One edit inside a query word of three characters or more. */
  near: string[];
  /** One edit elsewhere: in a shorter word, or joining or splitting words. */
  shortWord: string[];
}

/**
 * The `LIKE` patterns of the texts one edit from a whole folded query: a character changed or
 * added (`_`), dropped, or two neighbours swapped. A text matching one of them is one edit from
 * the query, and the other way round. They come in two lists, by where
 * the edit is: inside a word of three characters or more (a misspelt title: the near tier, above
 * the prefix hits), or elsewhere (the near-short-word tier, below the hits holding the query's words
 * whole, above those where its last word starts a longer one). An edit at
 * position `i` is in the word holding character `i`, or, at a space or the end, in the word before.
 * Both stores test texts against these same patterns.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The patterns, without repeats; none for a query under five characters.
 * @example
 * ```ts
 * nearPatterns('kaze hi');
 * // { near: ['k_ze hi', 'kze hi', 'akze hi', …], shortWord: ['kaze _i', 'kaze i', …, 'kaze hi_'] }
 * ```
 */
export function nearPatterns(query: string): NearPatterns {
  const c = [...query];
  if (c.length < NEAR_QUERY) return { near: [], shortWord: [] };
  // The length of the word each position's edit falls in.
  const wordLength = new Int32Array(c.length + 1);
  for (let start = 0; start < c.length; ) {
    let end = start;
    while (end < c.length && c[end] !== ' ') end++;
    wordLength.fill(end - start, start, end + 1);
    start = end + 1;
  }
  const near = new Set<string>();
  const shortWord = new Set<string>();
  for (let i = 0; i <= c.length; i++) {
    const into = wordLength[i]! >= NEAR_WORD ? near : shortWord;
    if (i < c.length) {
      into.add(`${stretch(c, 0, i)}_${stretch(c, i + 1, c.length)}`);
      into.add(stretch(c, 0, c.length, i));
      if (i + 1 < c.length && c[i] !== c[i + 1]) into.add(`${stretch(c, 0, i)}${c[i + 1]}${c[i]}${stretch(c, i + 2, c.length)}`);
    }
    into.add(`${stretch(c, 0, i)}_${stretch(c, i, c.length)}`);
  }
  return { near: [...near], shortWord: [...shortWord].filter((x) => !near.has(x)) };
}

/** Whether a pattern of {@link nearPatterns} (`_` one character, no `%`) matches a text, as `LIKE` does. */
function likeNear(pattern: string, text: string): boolean {
  const p = codePoints(pattern);
  const t = codePoints(text);
  if (p.length !== t.length) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== '_' && p[i] !== t[i]) return false;
  return true;
}

/**
 * What a folded query's near tiers need: the query, and its patterns once a title one edit from it
 * is found (most queries have none: the ~800 patterns of a 200-character one are never made).
 */
interface Near {
  query: string;
  patterns: NearPatterns | undefined;
}

/** The near tiers of a folded query, or nothing when it has none (shorter than {@link NEAR_QUERY}). */
const nearOf = (query: string): Near | undefined => ([...query].length < NEAR_QUERY ? undefined : { query, patterns: undefined });

/** Whether a folded title is one edit from a folded query (the length test first: it is cheap). */
const oneEditApart = (title: string, query: string) => Math.abs(title.length - query.length) <= 2 && withinOneEdit(title, query);

/** The near tier of a folded title, or undefined when it is not one edit from the query. */
function nearTier(title: string, near: Near): MatchTier | undefined {
  if (!oneEditApart(title, near.query)) return undefined;
  return (near.patterns ??= nearPatterns(near.query)).near.some((p) => likeNear(p, title)) ? MatchTier.Near : MatchTier.NearShortWord;
}

/** Two characters (code points) as one number. */
const pair = (a: string, b: string) => a.codePointAt(0)! * 0x110000 + b.codePointAt(0)!;

/**
 * A test of whether a folded title matches one of {@link queryWordPatterns}, with `LIKE`'s meaning
 * (a `_` may stand for a space: "onepiece" is one typo from "one piece"), without a pattern scan:
 * the stretches of ` title ` from a word start to a space are looked up in sets of the query words'
 * variants. A stretch one typo from a word of four or more letters shares its first two or its last
 * two letters with it (or is that word with its middle letters swapped), which rules most
 * stretches out before any string is made.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The test, taking a folded title.
 * @example
 * ```ts
 * const shares = createWordMatcher('frieren');
 * shares('sousou no frieren'); // true
 * shares('sousou no frieen'); // true: one letter dropped
 * shares('rent a girlfriend'); // false
 * ```
 */
export function createWordMatcher(query: string): (title: string) => boolean {
  const words = keyWords(query);
  const inner = words.map((c) => (c.length >= INNER_WORD ? c.join('') : ` ${c.join('')}`));
  const whole = new Set<string>(); // a word with a letter dropped or two swapped, literally
  const sameLength = new Set<string>(); // `i:` + the word without letter i: a letter changed at i
  const longer = new Set<string>(); // the word itself: the stretch has a letter added
  const firstTwo = new Set<number>();
  const edges = new Set<string>(); // the same, as strings: a title holding none of them has no such stretch
  const lastTwo = new Set<number>();
  const lengths = new Set<number>();
  const typoWords = words.filter((c) => c.length >= TYPO_WORD);
  // Most titles pass or fail on the words they hold: the variants are made when first needed.
  let variants = false;
  const makeVariants = () => {
    variants = true;
    for (const c of typoWords) {
      longer.add(c.join(''));
      firstTwo.add(pair(c[0]!, c[1]!));
      edges.add(c[0]! + c[1]!).add(c.at(-2)! + c.at(-1)!);
      lastTwo.add(pair(c.at(-2)!, c.at(-1)!));
      for (const n of [c.length - 1, c.length, c.length + 1]) lengths.add(n);
      for (let i = 0; i < c.length; i++) {
        const without = stretch(c, 0, c.length, i);
        whole.add(without);
        sameLength.add(`${i}:${without}`);
        if (i + 1 < c.length && c[i] !== c[i + 1]) {
          const swapped = [...c.slice(0, i), c[i + 1]!, c[i]!, ...c.slice(i + 2)];
          whole.add(swapped.join(''));
          // "abcd" → "acbd" keeps neither end of a four-letter word.
          firstTwo.add(pair(swapped[0]!, swapped[1]!));
          edges.add(swapped[0]! + swapped[1]!);
        }
      }
    }
  };
  return (title) => {
    const padded = ` ${title} `;
    // `%word%` or `% word%`: a title word holds a query word, or starts with a short one.
    for (const word of inner) if (padded.includes(word)) return true;
    if (typoWords.length === 0) return false;
    if (!variants) makeVariants();
    let some = false;
    for (const edge of edges) if ((some = padded.includes(edge))) break;
    if (!some) return false;
    // `% variant %`: a stretch from a word start to a space is one typo from a query word. Code
    // points, not UTF-16 units, as `LIKE`'s `_` stands for one character. A stretch may hold one
    // space (where `_` stands for it): it ends at the next space or the one after.
    const t = NON_ASCII.test(title) ? [...padded] : padded;
    for (let s = 1; s < t.length - 1; s++) {
      if (t[s - 1] !== ' ') continue;
      let end = s;
      for (let spaces = 0; spaces < 2; spaces++) {
        while (end < t.length && t[end] !== ' ') end++;
        if (end >= t.length) break;
        const n = end - s;
        end++;
        if (!lengths.has(n) || !(firstTwo.has(pair(t[s]!, t[s + 1]!)) || lastTwo.has(pair(t[s + n - 2]!, t[s + n - 1]!)))) continue;
        if (whole.has(stretch(t, s, s + n))) return true;
        for (let i = 0; i < n; i++) {
          const without = stretch(t, s, s + n, s + i);
          if (sameLength.has(`${i}:${without}`) || longer.has(without)) return true;
        }
      }
    }
    return false;
  };
}

function trigrams(text: string, out: Set<string>): Set<string> {
  const padded = ` ${text} `;
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** `a` itself when it holds `size` values, else a copy twice as long (or `size`), tail set to `fill`. */
function ensure(a: Int32Array<ArrayBuffer>, size: number, fill = 0): Int32Array<ArrayBuffer> {
  if (size <= a.length) return a;
  const b = new Int32Array(Math.max(size, a.length * 2));
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/**
 * Dense ids 0, 1, 2… for pairs of int32 keys (a trigram's UTF-16 units, a prefix's code points):
 * open addressing over typed arrays, so building an index allocates no string, boxed number or
 * Map entry per trigram. At load this replaced ~10 million `slice` + `Map` operations.
 */
function createPairIds(): { id(hi: number, lo: number, add: boolean): number; readonly size: number } {
  let mask = (1 << 12) - 1;
  let his = new Int32Array(mask + 1);
  let los = new Int32Array(mask + 1);
  let ids = new Int32Array(mask + 1).fill(-1);
  let size = 0;
  const slotOf = (hi: number, lo: number) => {
    const h = Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b);
    return (h ^ (h >>> 15)) & mask;
  };
  const grow = () => {
    const [oldHis, oldLos, oldIds] = [his, los, ids];
    mask = mask * 2 + 1;
    his = new Int32Array(mask + 1);
    los = new Int32Array(mask + 1);
    ids = new Int32Array(mask + 1).fill(-1);
    for (let i = 0; i < oldIds.length; i++) {
      if (oldIds[i]! < 0) continue;
      let slot = slotOf(oldHis[i]!, oldLos[i]!);
      while (ids[slot]! >= 0) slot = (slot + 1) & mask;
      his[slot] = oldHis[i]!;
      los[slot] = oldLos[i]!;
      ids[slot] = oldIds[i]!;
    }
  };
  return {
    id(hi, lo, add) {
      let slot = slotOf(hi, lo);
      for (;;) {
        const id = ids[slot]!;
        if (id < 0) break;
        if (his[slot] === hi && los[slot] === lo) return id;
        slot = (slot + 1) & mask;
      }
      if (!add) return -1;
      his[slot] = hi;
      los[slot] = lo;
      ids[slot] = size;
      if (++size * 2 > mask) grow();
      return size - 1;
    },
    get size() {
      return size;
    },
  };
}

/**
 * Postings in one array: the values of key `k` are `values[start[k]]` up to `values[start[k + 1]]`.
 * Source `i` posts `sourceValue(i)` under each (distinct) key in `keys[keysStart[i]]` up to
 * `keys[keysStart[i + 1]]`; each key's values come out in source order.
 */
function toPostings(keyCount: number, keys: Int32Array, keysStart: Int32Array, sourceValue: (i: number) => number) {
  const start = new Int32Array(keyCount + 1);
  const sources = keysStart.length - 1;
  const used = keysStart[sources]!;
  for (let j = 0; j < used; j++) start[keys[j]! + 1]!++;
  for (let k = 0; k < keyCount; k++) start[k + 1]! += start[k]!;
  const cursor = start.slice(0, keyCount);
  const values = new Int32Array(used);
  for (let i = 0; i < sources; i++) {
    const value = sourceValue(i);
    for (let j = keysStart[i]!; j < keysStart[i + 1]!; j++) values[cursor[keys[j]!]!++] = value;
  }
  return { start, values };
}

/** Each entry's distinct normalized titles: `text[docStart[id]]` up to `text[docStart[id + 1]]`. */
interface TitleTable {
  /** The normalized titles, entry by entry. */
  text: string[];
  /** Where each entry's titles start in `text`; one more than there are entries. */
  docStart: Int32Array;
  /** The entry each title belongs to. */
  doc: Int32Array;
}

/**
 * Normalizes every entry's titles, keeping each distinct one once, first seen first. Titles repeat a
 * lot (`title` is also in `titles`), so a raw string already seen in the entry is not normalized again.
 */
function buildTitleTable(titles: readonly (readonly string[])[]): TitleTable {
  const entries = titles.length;
  const text: string[] = [];
  const docStart = new Int32Array(entries + 1);
  for (let id = 0; id < entries; id++) {
    const list = titles[id]!;
    const first = text.length;
    next: for (let j = 0; j < list.length; j++) {
      const raw = list[j]!;
      for (let k = 0; k < j; k++) if (list[k] === raw) continue next;
      const title = normalizeTitle(raw);
      if (!title) continue;
      for (let t = first; t < text.length; t++) if (text[t] === title) continue next;
      text.push(title);
    }
    docStart[id + 1] = text.length;
  }
  const doc = new Int32Array(text.length);
  for (let id = 0; id < entries; id++) doc.fill(id, docStart[id]!, docStart[id + 1]!);
  return { text, docStart, doc };
}

/** Dense ids of pairs of keys, and the postings under each id. */
interface PairIndex {
  ids: ReturnType<typeof createPairIds>;
  postings: ReturnType<typeof toPostings>;
}

/**
 * Trigram postings per TITLE (not per entry), so that the close stage later measures only the titles that
 * share enough trigrams with the query instead of every title of every candidate. A trigram is
 * three UTF-16 units of ` title `, keyed as (first, second << 16 | third).
 */
function buildTrigramIndex(titleText: readonly string[]): PairIndex {
  const titleCount = titleText.length;
  const gramIds = createPairIds();
  let gramSeen = new Int32Array(1 << 12).fill(-1);
  let gramKeys = new Int32Array(1 << 16);
  const gramKeysStart = new Int32Array(titleCount + 1);
  let used = 0;
  for (let tid = 0; tid < titleCount; tid++) {
    const text = titleText[tid]!;
    const len = text.length;
    gramKeys = ensure(gramKeys, used + len);
    let a = 32;
    let b = text.charCodeAt(0);
    for (let k = 0; k < len; k++) {
      const c = k + 1 < len ? text.charCodeAt(k + 1) : 32;
      const gram = gramIds.id(a, (b << 16) | c, true);
      gramSeen = ensure(gramSeen, gram + 1, -1);
      if (gramSeen[gram] !== tid) {
        gramSeen[gram] = tid;
        gramKeys[used++] = gram;
      }
      a = b;
      b = c;
    }
    gramKeysStart[tid + 1] = used;
  }
  return { ids: gramIds, postings: toPostings(gramIds.size, gramKeys, gramKeysStart, (tid) => tid) };
}

/**
 * One- and two-letter word prefixes → entries, in preference order: short queries use an index
 * too. Keyed by code points (first, second or -1).
 */
function buildPrefixIndex(table: TitleTable, entryOrder: Int32Array): PairIndex {
  const { text: titleText, docStart } = table;
  const prefixIds = createPairIds();
  let prefixSeen = new Int32Array(1 << 10).fill(-1);
  let prefixKeys = new Int32Array(1 << 12);
  const prefixKeysStart = new Int32Array(docStart.length);
  let used = 0;
  const addPrefix = (first: number, second: number, id: number) => {
    const prefix = prefixIds.id(first, second, true);
    prefixSeen = ensure(prefixSeen, prefix + 1, -1);
    if (prefixSeen[prefix] === id) return;
    prefixSeen[prefix] = id;
    prefixKeys = ensure(prefixKeys, used + 1);
    prefixKeys[used++] = prefix;
  };
  for (let i = 0; i < entryOrder.length; i++) {
    const id = entryOrder[i]!;
    for (let tid = docStart[id]!; tid < docStart[id + 1]!; tid++) {
      const text = titleText[tid]!;
      const len = text.length;
      for (let at = 0; at < len; at++) {
        if (at > 0 && text.charCodeAt(at - 1) !== 32) continue;
        // code points, not UTF-16 units
        const first = text.codePointAt(at)!;
        const then = at + (first > 0xffff ? 2 : 1);
        addPrefix(first, -1, id);
        if (then < len && text.charCodeAt(then) !== 32) addPrefix(first, text.codePointAt(then)!, id);
      }
    }
    prefixKeysStart[i + 1] = used;
  }
  return { ids: prefixIds, postings: toPostings(prefixIds.size, prefixKeys, prefixKeysStart, (i) => entryOrder[i]!) };
}

/** Everything a search reads, built once; the scratch arrays are reused (and left zeroed) by each search. */
interface IndexData {
  titles: TitleTable;
  grams: PairIndex;
  prefixes: PairIndex;
  /** Preference rank of each entry (0 = first kept when a query matches too many entries). */
  rankOf: Int32Array;
  /** The entry of each preference rank: {@link IndexData.rankOf} turned round. */
  entryAt: Int32Array;
  maxCandidates: number;
  /** Scratch: trigrams each title shares with the query. */
  titleCounts: Uint16Array;
  /** Scratch: the best title count of each entry. */
  docBest: Uint16Array;
  /** Scratch: the titles whose count was raised; after counting, first those that reached the bar. */
  touched: Int32Array;
  /** Scratch: 1 for the titles that reached the bar, the first `reachedCount` of `touched`. */
  reached: Uint8Array;
  reachedCount: number;
  /** The one-edit fallback's index, built by the first search that needs it. */
  edits?: EditIndex;
}

/**
 * The one-edit fallback's index: the filed words, the titles holding each, and each word's
 * {@link wordEditKeys} as 32-bit hashes, sorted. A hash names the word's id too: `hash * 2^21 + id`,
 * exact in a double for up to 2^21 words. A map of the keys themselves took ~50 MB and ~0.7 s of
 * CPU for the 100k characters of the full-scale set (77k distinct words); these arrays take a tenth.
 */
interface EditIndex {
  /** The filed words, by id. */
  words: string[];
  /** For each word id, the titles holding that word. */
  titlesOf: number[][];
  /** `hash(key) * 2^21 + word id` for every key of every word, ascending. */
  keys: Float64Array;
}

const WORD_IDS = 2 ** 21;

/** FNV-1a over the UTF-16 units of a key: any hash does, as every word found is checked. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Files every distinct word of two characters or more of every title under its {@link wordEditKeys}. */
function buildEditIndex(titleText: readonly string[]): EditIndex {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const titlesOf: number[][] = [];
  let keys = new Float64Array(1 << 16);
  let used = 0;
  const file = (key: string, id: number) => {
    if (used === keys.length) {
      const grown = new Float64Array(keys.length * 2);
      grown.set(keys);
      keys = grown;
    }
    keys[used++] = hashKey(key) * WORD_IDS + id;
  };
  for (let tid = 0; tid < titleText.length; tid++) {
    const parts = titleText[tid]!.split(' ');
    for (let w = 0; w < parts.length; w++) {
      const word = parts[w]!;
      if (word.length < EDIT_TITLE_WORD || parts.indexOf(word) < w) continue;
      let id = ids.get(word);
      if (id === undefined) {
        // A word of two UTF-16 units may be one astral letter: counted in code points, as editWords does.
        if ((word.length === EDIT_TITLE_WORD && [...word].length < EDIT_TITLE_WORD) || words.length === WORD_IDS) continue;
        ids.set(word, (id = words.length));
        words.push(word);
        titlesOf.push([]);
        if (NON_ASCII.test(word)) for (const key of wordEditKeys(word)) file(key, id);
        else {
          // wordEditKeys, without splitting an ASCII word into code points.
          file(`=${word}`, id);
          for (let i = 0; i < word.length; i++) file(`${i}:${word.slice(0, i)}${word.slice(i + 1)}`, id);
        }
      }
      titlesOf[id]!.push(tid);
    }
  }
  return { words, titlesOf, keys: keys.slice(0, used).sort() };
}

/** The ids of the filed words under `key`'s hash (a few more than those filed under `key`). */
function wordsUnder(edits: EditIndex, key: string, out: Set<number>): void {
  const low = hashKey(key) * WORD_IDS;
  const { keys } = edits;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < low) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < keys.length && keys[i]! < low + WORD_IDS; i++) out.add(keys[i]! - low);
}

/** How many characters (code points) `s` has, as PostgreSQL's `length` counts them. */
const characters = (s: string) => (NON_ASCII.test(s) ? [...s].length : s.length);

/** `s` as something indexable by code point: itself when ASCII. */
const codePoints = (s: string): string | string[] => (NON_ASCII.test(s) ? [...s] : s);

/** Whether `a[i…]` equals `b[j…]`. */
function sameFrom(a: string | string[], i: number, b: string | string[], j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

/**
 * Whether two words are at most one edit apart (a letter changed, added or dropped, or two
 * neighbours swapped), counting code points.
 * @param a - A word.
 * @param b - Another.
 * @returns `true` when they are.
 * @example
 * ```ts
 * withinOneEdit('slaeyrs', 'slayers'); // true
 * withinOneEdit('slyaers', 'slayers'); // false: two swaps
 * ```
 */
export function withinOneEdit(a: string, b: string): boolean {
  const x = codePoints(a);
  const y = codePoints(b);
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (x.length > y.length) return sameFrom(x, i + 1, y, i);
  if (x.length < y.length) return sameFrom(x, i, y, i + 1);
  if (i === x.length || sameFrom(x, i + 1, y, i + 1)) return true;
  return i + 1 < x.length && x[i] === y[i + 1] && x[i + 1] === y[i] && sameFrom(x, i + 2, y, i + 2);
}

/** A one-word query of fewer characters falls back only when nothing else is found; see {@link fallsBackOnlyWhenEmpty}. */
const JUNK_FALLBACK_WORD = 4;

/**
 * Whether the one-edit fallback answers a folded query only when the tiers found nothing at all,
 * rather than also ahead of junk: when it is one word of three characters. Such a word is one
 * edit from thousands of short title words (`one`: every `once`, `bone` and `ore` of the
 * full-scale manga, 7,800 of them, where its 726 infix hits took 6 ms on PostgreSQL and the
 * fallback 80 ms), and the junk it would go ahead of holds the query itself. A query of several
 * words keeps the fallback ahead of junk: its other words order the hits (`ma la nu pie`).
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns `true` when only an empty answer falls back.
 */
export function fallsBackOnlyWhenEmpty(query: string): boolean {
  return !query.includes(' ') && [...query].length < JUNK_FALLBACK_WORD;
}

/**
 * How many of the words and word pairs of a folded query ({@link heldPhrases}) a folded text holds
 * whole: the first order of fuzzy and fallback hits ("ma la nu pie" → "Ma La Nu Pei" before the
 * hundreds of titles holding "pi" or "lie"; "kaze hoshi wa" → "Kaze Hoshi wa Yume" before "Wa Kaze
 * Hoshi", which holds the same words in another order).
 * @param query - A folded query ({@link normalizeTitle}).
 * @param text - A folded text.
 * @returns The count.
 * @example
 * ```ts
 * queryWordsHeld('ma la nu pie', 'ma la nu pei'); // 5: ma, la, nu, ma la, la nu
 * ```
 */
export function queryWordsHeld(query: string, text: string): number {
  return countHeld(heldPhrases(query), text);
}

/**
 * The phrases of a folded query that the order of close hits counts in a text (`queryWordsHeld`): the distinct words among its
 * first eight (a 200-character query has ~35), and the distinct pairs of neighbours among them.
 * @param query - A folded query ({@link normalizeTitle}).
 * @returns The phrases, words first.
 * @example
 * ```ts
 * heldPhrases('one piece one'); // ['one', 'piece', 'one piece', 'piece one']
 * ```
 */
export function heldPhrases(query: string): string[] {
  const words = query.split(' ').filter(Boolean).slice(0, KEY_WORDS);
  const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`);
  return [...new Set([...words, ...pairs])];
}

/** How many of `phrases` a folded text holds whole: each found between spaces or the text's ends. */
function countHeld(phrases: readonly string[], text: string): number {
  let held = 0;
  for (const phrase of phrases) if (holdsWhole(text, phrase)) held++;
  return held;
}

/** Whether `text` holds `phrase` with a space or an end on either side (no padded copies made). */
function holdsWhole(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    const end = at + phrase.length;
    if ((at === 0 || text.charCodeAt(at - 1) === SPACE) && (end === text.length || text.charCodeAt(end) === SPACE)) return true;
  }
  return false;
}

/** Text lengths past this order fallback hits as this one does (see {@link oneEditHits}). */
const ONE_EDIT_LENGTH = 999;
/** What fallback hits are scored below, so that they come before the junk whatever words it holds (fuzzy scores are above -16). */
const FALLBACK_FIRST = 100;

/**
 * The fallback: every entry with a title word within one edit of a word of the query
 * ({@link queryEditKeys}). Its score is below every fuzzy hit's, so that it comes before the junk:
 * -100 less the most query words one of those titles holds ({@link queryWordsHeld}), plus the
 * length of the shortest of them in thousandths ("ackira": "Akira" before "Akira (Shin Anime)").
 */
function oneEditHits(index: IndexData, query: string): SearchHit[] {
  const edits = (index.edits ??= buildEditIndex(index.titles.text));
  const words = new Set<number>();
  for (const c of keyWords(query)) for (const id of wordsWithinOneEdit(edits, c.join(''))) words.add(id);
  const best = new Map<number, { held: number; length: number }>();
  const phrases = heldPhrases(query);
  for (const id of words) {
    for (const tid of edits.titlesOf[id]!) {
      const entry = index.titles.doc[tid]!;
      const text = index.titles.text[tid]!;
      const length = Math.min(ONE_EDIT_LENGTH, characters(text));
      const held = countHeld(phrases, text);
      const seen = best.get(entry);
      if (!seen) best.set(entry, { held, length });
      else {
        seen.held = Math.max(seen.held, held);
        seen.length = Math.min(seen.length, length);
      }
    }
  }
  return Array.from(best, ([entry, { held, length }]) => ({ index: entry, tier: MatchTier.Fuzzy, score: -FALLBACK_FIRST - held + length / (ONE_EDIT_LENGTH + 1) }));
}

/** The ids of the words of the edit index within one edit of `word` (itself included). */
function wordsWithinOneEdit(edits: EditIndex, word: string): number[] {
  const found = new Set<number>();
  for (const key of queryEditKeys(word)) wordsUnder(edits, key, found);
  return [...found].filter((id) => withinOneEdit(word, edits.words[id]!));
}

/** Whether `values[from … to)`, ascending, holds `value` (a binary search). */
function holdsValue(values: Int32Array, from: number, to: number, value: number): boolean {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < to && values[lo] === value;
}

/** Candidates of a query: entry ids, and the titles that reached the trigram bar (`reached[tid]`, until the next search). */
interface Candidates {
  ids: number[];
  reached: Uint8Array;
}

/**
 * The entries sharing the most trigrams with the query (at least a third of its trigrams), best
 * first, ties in preference order; with, for each, the titles that reached that bar. When the query
 * has near tiers (`near`), the entries with a title one edit from it come first, whatever the cap.
 */
function findCandidates(index: IndexData, query: string, near: Near | undefined): Candidates {
  const { maxCandidates, titleCounts, docBest, touched, rankOf, entryAt, reached } = index;
  for (let i = 0; i < index.reachedCount; i++) reached[touched[i]!] = 0;
  index.reachedCount = 0;
  const none: Candidates = { ids: [], reached };
  if ([...query].length < 3) {
    // Every hit of a one- or two-letter query is a word-prefix match: no fuzzy stage needed.
    const first = query.codePointAt(0)!;
    const then = first > 0xffff ? 2 : 1;
    const prefix = index.prefixes.ids.id(first, then < query.length ? query.codePointAt(then)! : -1, false);
    if (prefix < 0) return none;
    const { start, values } = index.prefixes.postings;
    const from = start[prefix]!;
    const to = Math.min(start[prefix + 1]!, from + maxCandidates);
    return { ids: Array.from(values.subarray(from, to)), reached };
  }
  const grams = trigrams(query, new Set());
  const needed = Math.max(1, Math.ceil(grams.size / 3));
  const { start, values } = index.grams.postings;
  const keys: number[] = [];
  for (const gram of grams) {
    const key = index.grams.ids.id(gram.charCodeAt(0), (gram.charCodeAt(1) << 16) | gram.charCodeAt(2), false);
    if (key >= 0) keys.push(key);
  }
  // Rarest trigrams first. A title in none of the first `keys.length - needed + 1` is in fewer
  // than `needed` of them all: only those grams' titles can reach the bar, and the commonest grams
  // (" no", "on "; thousands of titles each) only add to the counts of titles already seen.
  keys.sort((a, b) => start[a + 1]! - start[a]! - (start[b + 1]! - start[b]!));
  let open = keys.length - needed + 1;
  if (query.length === 3) {
    // A three-character query has no close hits (closeQuery) but the titles containing it (`nor`,
    // where ` no` alone brings thousands): those holding the query as a trigram, counted first.
    const whole = index.grams.ids.id(query.charCodeAt(0), (query.charCodeAt(1) << 16) | query.charCodeAt(2), false);
    if (whole < 0) return none;
    keys.splice(keys.indexOf(whole), 1);
    keys.unshift(whole);
    open = 1;
  }
  let n = 0;
  for (let k = 0; k < keys.length; k++) {
    const from = start[keys[k]!]!;
    const to = start[keys[k]! + 1]!;
    if (k < open) {
      for (let i = from; i < to; i++) {
        const tid = values[i]!;
        const seen = titleCounts[tid]!;
        if (seen === 0) touched[n++] = tid;
        titleCounts[tid] = seen + 1;
      }
    } else if (n * Math.log2(to - from + 1) < to - from) {
      // Fewer titles seen than this gram has: each looked up in its postings (by title id).
      for (let j = 0; j < n; j++) if (holdsValue(values, from, to, touched[j]!)) titleCounts[touched[j]!]!++;
    } else {
      for (let i = from; i < to; i++) {
        const tid = values[i]!;
        if (titleCounts[tid]! > 0) titleCounts[tid]!++;
      }
    }
  }
  // Entries with a title one edit from the whole query are candidates whatever the cap: the near
  // tier ranks them above the prefix hits, which may be thousands.
  const nearIds = near ? new Set<number>() : undefined;
  // Bucket the entries by their best title's count: no full sort of thousands of matches.
  const buckets: number[][] = [];
  // The titles that reach the bar move to the front of `touched` (never past the one being read).
  const entries: number[] = [];
  let m = 0;
  for (let i = 0; i < n; i++) {
    const tid = touched[i]!;
    const count = titleCounts[tid]!;
    titleCounts[tid] = 0;
    if (count < needed) continue;
    touched[m++] = tid;
    reached[tid] = 1;
    const id = index.titles.doc[tid]!;
    if (nearIds && oneEditApart(index.titles.text[tid]!, query)) nearIds.add(id);
    if (docBest[id] === 0) entries.push(id);
    if (count > docBest[id]!) docBest[id] = count;
  }
  index.reachedCount = m;
  for (const id of entries) {
    (buckets[docBest[id]!] ??= []).push(id);
    docBest[id] = 0;
  }
  // A one-word title one edit from a one-word query may share too few trigrams with it to reach
  // the bar ("kobato" for "kobito"): the edit index names it, as PostgreSQL's does.
  if (nearIds && !query.includes(' ')) {
    const edits = (index.edits ??= buildEditIndex(index.titles.text));
    for (const word of wordsWithinOneEdit(edits, query)) {
      const text = edits.words[word]!;
      if (text === query) continue;
      for (const tid of edits.titlesOf[word]!) if (index.titles.text[tid] === text) nearIds.add(index.titles.doc[tid]!);
    }
  }
  const ids: number[] = nearIds ? [...nearIds] : [];
  const cap = maxCandidates + ids.length;
  for (let count = buckets.length - 1; count >= needed && ids.length < cap; count--) {
    const bucket = buckets[count];
    if (!bucket) continue;
    // The bucket's ranks, sorted as numbers by the engine, then read back as entries: a bucket of
    // thousands sorted with a comparator cost more than counting its trigrams.
    const ranks = new Int32Array(bucket.length);
    for (let i = 0; i < bucket.length; i++) ranks[i] = rankOf[bucket[i]!]!;
    ranks.sort();
    for (let i = 0; i < ranks.length && ids.length < cap; i++) {
      const id = entryAt[ranks[i]!]!;
      if (!nearIds?.has(id)) ids.push(id);
    }
  }
  return { ids, reached };
}

/**
 * How a folded title holds a folded query from a word's start (the title is not the query): as its
 * first words, whole; as whole words after them; at its start, the query's last word starting a
 * longer one; the same after its first word; or not at all.
 * @param inside - The query with a space before it.
 */
function heldTier(title: string, query: string, inside: string): MatchTier {
  const start = title.startsWith(query);
  if (start && title.charCodeAt(query.length) === SPACE) return MatchTier.Prefix;
  // Held whole at the start is the prefix above (or the title itself): anywhere else, after a space.
  if (holdsWhole(title, query)) return MatchTier.Words;
  if (start) return MatchTier.PartPrefix;
  return title.includes(inside) ? MatchTier.WordPrefix : MatchTier.Fuzzy;
}

/**
 * How entry `id` matches a folded query by its titles alone: exact, one edit from it in a long word,
 * prefix or elsewhere in whole words, one edit from it elsewhere, prefix or word prefix ending inside
 * a word, or only fuzzily (the best tier of its titles).
 */
function tierOf(table: TitleTable, id: number, query: string, near: Near | undefined, inside: string): MatchTier {
  let tier: MatchTier = MatchTier.Fuzzy;
  for (let tid = table.docStart[id]!; tid < table.docStart[id + 1]!; tid++) {
    const title = table.text[tid]!;
    if (title === query) return MatchTier.Exact;
    let own = heldTier(title, query, inside);
    // A held tier is never better than near: the near test is only skipped once a title was near.
    if (near && tier > MatchTier.Near) {
      const edit = nearTier(title, near);
      if (edit !== undefined && edit < own) own = edit;
    }
    if (own < tier) tier = own;
  }
  return tier;
}

/**
 * Sorts the candidates into the exact, near, prefix and word-prefix tiers, and the titles left for the fuzzy
 * stage: those of the other candidates, best candidates first, while the fuzzy budget lasts.
 */
function matchTiers(table: TitleTable, candidates: Candidates, query: string, near: Near | undefined, fuzzyBudget: number) {
  const hits: SearchHit[] = [];
  const fuzzy: { id: number; title: string }[] = [];
  // Measuring a title costs more the more trigrams of the query it holds: a long query gets fewer.
  let budget = fuzzyBudget / Math.max(1, Math.ceil(query.length / 32));
  const inside = ` ${query}`;
  for (const id of candidates.ids) {
    const tier = tierOf(table, id, query, near, inside);
    if (tier !== MatchTier.Fuzzy) hits.push({ index: id, tier, score: 1 });
    else if (budget > 0) {
      for (let tid = table.docStart[id]!; tid < table.docStart[id + 1]!; tid++) {
        if (!candidates.reached[tid]) continue;
        const title = table.text[tid]!;
        fuzzy.push({ id, title });
        budget -= title.length + 8;
      }
    }
  }
  return { hits, fuzzy };
}

/** The word similarity a close hit needs: `pg_trgm.word_similarity_threshold` in the PostgreSQL store. */
const CLOSE = 0.5;
/** Title lengths in a close hit's score, below any difference of similarity (a 32-bit float of a ratio of small counts). */
const LENGTH_ORDER = 1e9;

/**
 * Measures the fuzzy titles' word similarity to the query ({@link createWordSimilarity}) and
 * appends the close hits to `hits`: the entries with a title containing the query (similarity 1)
 * or within word similarity {@link CLOSE} of it, one hit per entry.
 * @returns Whether some hit shares a word with the query (else the hits are junk, or none).
 */
function addFuzzyHits(hits: SearchHit[], fuzzy: { id: number; title: string }[], query: string): boolean {
  if (fuzzy.length === 0) return hits.length > 0;
  const close = closeQuery(query);
  const similarity = close === undefined ? undefined : createWordSimilarity(close, CLOSE);
  // Fuzzy junk: when some hits share a word with the query (every exact, prefix and word-prefix
  // hit does), a fuzzy hit none of whose matching titles shares one ("frieren" → "Rent-A-Girlfriend")
  // is dropped. The PostgreSQL store tests its matching titles for the same patterns.
  const best = new Map<number, { held: number; similarity: number; length: number }>();
  const phrases = heldPhrases(query);
  const sharing = new Set<number>();
  let matches: ((title: string) => boolean) | undefined;
  for (const { id, title } of fuzzy) {
    const s = title.includes(query) ? 1 : similarity ? similarity(title) : 0;
    if (s < CLOSE) continue;
    const held = countHeld(phrases, title);
    const length = characters(title);
    const seen = best.get(id);
    if (!seen) best.set(id, { held, similarity: s, length });
    else {
      seen.held = Math.max(seen.held, held);
      seen.similarity = Math.max(seen.similarity, s);
      seen.length = Math.min(seen.length, length);
    }
    if (!sharing.has(id) && (matches ??= createWordMatcher(query))(title)) sharing.add(id);
  }
  // Ordered by the most query words and word pairs one of its titles holds whole, then by the best
  // similarity, then by the shortest matching title: the PostgreSQL store's order of the same figures.
  const cut = hits.length > 0 || sharing.size > 0;
  for (const [id, { held, similarity: s, length }] of best) {
    if (!cut || sharing.has(id)) hits.push({ index: id, tier: MatchTier.Fuzzy, score: -held - s + length / LENGTH_ORDER });
  }
  return cut;
}

/**
 * Every entry once, in preference order: those `order` lists first (a repeat or an index out of
 * range is skipped), then the others in index order.
 */
function preferenceOrder(entries: number, order: ArrayLike<number> | undefined): Int32Array {
  const out = new Int32Array(entries);
  const placed = new Uint8Array(entries);
  let n = 0;
  for (let i = 0; order && i < order.length; i++) {
    const id = order[i]!;
    if (!Number.isInteger(id) || id < 0 || id >= entries || placed[id]) continue;
    placed[id] = 1;
    out[n++] = id;
  }
  for (let id = 0; id < entries; id++) if (!placed[id]) out[n++] = id;
  return out;
}

/**
 * Builds the index once; searching then costs milliseconds whatever the catalogue size.
 * @param titles - For each entry, all of its titles (default, English, Japanese, synonyms…).
 * @param options - Tuning.
 * @returns The index.
 * @example
 * ```ts
 * const index = createSearchIndex([['Naruto', 'NARUTO'], ['One Piece']]);
 * index.search('naruot'); // [{ index: 0, tier: 1, score: 1 }]
 * ```
 */
export function createSearchIndex(titles: readonly (readonly string[])[], options: SearchIndexOptions = {}): SearchIndex {
  const fuzzyBudget = options.fuzzyBudget ?? 3000;
  const entries = titles.length;
  const table = buildTitleTable(titles);
  // Preference rank of each entry (0 = first kept when a query matches too many entries).
  const entryOrder = preferenceOrder(entries, options.order);
  const rankOf = new Int32Array(entries);
  for (let i = 0; i < entryOrder.length; i++) rankOf[entryOrder[i]!] = i;
  const index: IndexData = {
    titles: table,
    grams: buildTrigramIndex(table.text),
    prefixes: buildPrefixIndex(table, entryOrder),
    rankOf,
    entryAt: entryOrder,
    maxCandidates: options.candidates ?? 300,
    titleCounts: new Uint16Array(table.text.length),
    docBest: new Uint16Array(entries),
    touched: new Int32Array(table.text.length),
    reached: new Uint8Array(table.text.length),
    reachedCount: 0,
  };
  return {
    search(raw) {
      const query = normalizeTitle(raw);
      if (!query) return [];
      const near = nearOf(query);
      const { hits, fuzzy } = matchTiers(table, findCandidates(index, query, near), query, near, fuzzyBudget);
      if (addFuzzyHits(hits, fuzzy, query) || [...query].length < 3) return hits;
      if (hits.length > 0 && fallsBackOnlyWhenEmpty(query)) return hits;
      // Nothing, or only junk sharing no word with the query: the titles one edit from a query
      // word come first ("slaeyrs" → "Slayers", whose trigrams it barely shares), then the junk.
      const fallback = oneEditHits(index, query);
      if (fallback.length === 0) return hits;
      const seen = new Set(fallback.map((hit) => hit.index));
      return fallback.concat(hits.filter((hit) => !seen.has(hit.index)));
    },
  };
}
