/**
 * Fuzzy title search that stays fast at catalogue scale: a trigram index picks at most a few
 * hundred candidates, and fuse.js ranks only those (a full fuse.js scan over ~30k titles took a
 * p99 of ~950 ms here; see the performance baselines).
 * @module
 */
import Fuse from 'fuse.js';

/** How a hit matched, best first. */
export const MatchTier = {
  /** A title equals the query (ignoring case, accents and punctuation). */
  Exact: 0,
  /** A title starts with the query. */
  Prefix: 1,
  /** A word inside a title starts with the query. */
  WordPrefix: 2,
  /** Fuzzy (typos, partial words). */
  Fuzzy: 3,
} as const;
/** How a hit matched: 0 exact, 1 prefix, 2 word prefix, 3 fuzzy. */
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];

/** One search hit: the entry's position in the indexed list, how it matched, and fuse's score. */
export interface SearchHit {
  index: number;
  tier: MatchTier;
  score: number;
}

/** Options of {@link createSearchIndex}. */
export interface SearchIndexOptions {
  /** How many entries the trigram stage keeps; fuse.js scores only the fuzzy ones among them. @default 300 */
  candidates?: number;
  /** fuse.js threshold for fuzzy hits (0 exact … 1 anything). @default 0.4 */
  threshold?: number;
  /**
   * Entry indexes in preferred order, e.g. most popular first. When a query matches more entries than
   * the candidate cap (`"one"`, one-letter queries), the earlier ones are kept. @default index order
   */
  order?: ArrayLike<number>;
  /**
   * The fuse.js work one query may cost, in titles × query characters (fuse's cost grows with both:
   * ~7 µs per title for a 24-character query here; past 32 characters, 40 per 32-character chunk). Fuzzy candidates beyond it — those sharing the
   * fewest trigrams with the query — are not scored, so a 200-character query stays as cheap as a short one.
   * @default 4000
   */
  fuzzyBudget?: number;
}

/** A search index over a fixed list of entries. */
export interface SearchIndex {
  /**
   * The entries matching `query`, best first. Within the exact, prefix and word-prefix tiers,
   * order is left to the caller's tie-break (`rank` below); fuzzy hits are ordered by fuse's score.
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
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function trigrams(text: string, out: Set<string>): Set<string> {
  const padded = ` ${text} `;
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
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
 * index.search('naruot'); // [{ index: 0, tier: 3, score: … }]
 * ```
 */
export function createSearchIndex(titles: readonly (readonly string[])[], options: SearchIndexOptions = {}): SearchIndex {
  const maxCandidates = options.candidates ?? 300;
  const threshold = options.threshold ?? 0.4;
  const fuzzyBudget = options.fuzzyBudget ?? 3000;
  const docs: string[][] = titles.map((list) => [...new Set(list.map(normalizeTitle).filter(Boolean))]);
  // Preference rank of each entry (0 = first kept when a query matches too many entries).
  const rankOf = new Int32Array(docs.length);
  if (options.order) for (let i = 0; i < options.order.length; i++) rankOf[options.order[i]!] = i;
  else for (let i = 0; i < docs.length; i++) rankOf[i] = i;
  const byRank = (a: number, b: number) => rankOf[a]! - rankOf[b]!;

  // Trigram postings per TITLE (not per entry), so that fuse.js later scores only the titles that
  // share enough trigrams with the query instead of every title of every candidate.
  const titleText: string[] = [];
  const titleDoc: number[] = [];
  const building = new Map<string, number[]>();
  // One- and two-letter word prefixes → entries, in preference order: short queries use an index too.
  const shortBuilding = new Map<string, number[]>();
  const entryOrder = options.order ? Array.from(options.order) : docs.map((_, i) => i);
  const prefixes = new Set<string>();
  for (const id of entryOrder) {
    prefixes.clear();
    for (const title of docs[id]!) {
      for (const word of title.split(' ')) {
        const [first, second] = word; // code points, not UTF-16 units
        if (first) prefixes.add(first);
        if (first && second) prefixes.add(first + second);
      }
    }
    for (const prefix of prefixes) {
      const list = shortBuilding.get(prefix);
      if (list) list.push(id);
      else shortBuilding.set(prefix, [id]);
    }
  }
  const grams = new Set<string>();
  docs.forEach((doc, id) => {
    for (const title of doc) {
      const tid = titleText.length;
      titleText.push(title);
      titleDoc.push(id);
      grams.clear();
      for (const gram of trigrams(title, grams)) {
        const posting = building.get(gram);
        if (posting) posting.push(tid);
        else building.set(gram, [tid]);
      }
    }
  });
  const postings = new Map<string, Int32Array>();
  for (const [gram, list] of building) postings.set(gram, Int32Array.from(list));
  const shortPrefixes = new Map<string, Int32Array>();
  for (const [prefix, list] of shortBuilding) shortPrefixes.set(prefix, Int32Array.from(list));
  const titleCounts = new Uint16Array(titleText.length);
  const docBest = new Uint16Array(docs.length);
  const touched = new Int32Array(titleText.length);

  /**
   * The entries sharing the most trigrams with the query (at least a third of its trigrams), best
   * first, ties in preference order; with, for each, the titles that reached that bar.
   */
  function candidates(query: string): { ids: number[]; titles: Map<number, string[]> } {
    const titlesOf = new Map<number, string[]>();
    if ([...query].length < 3) {
      // Every hit of a one- or two-letter query is a word-prefix match: no fuzzy stage needed.
      const list = shortPrefixes.get(query);
      const ids = list ? Array.from(list.subarray(0, maxCandidates)) : [];
      return { ids, titles: titlesOf };
    }
    const grams = trigrams(query, new Set());
    let n = 0;
    for (const gram of grams) {
      const posting = postings.get(gram);
      if (!posting) continue;
      for (let i = 0; i < posting.length; i++) {
        const tid = posting[i]!;
        const seen = titleCounts[tid]!;
        if (seen === 0) touched[n++] = tid;
        titleCounts[tid] = seen + 1;
      }
    }
    const needed = Math.max(1, Math.ceil(grams.size / 3));
    // Bucket the entries by their best title's count: no full sort of thousands of matches.
    const buckets: number[][] = [];
    for (let i = 0; i < n; i++) {
      const tid = touched[i]!;
      const count = titleCounts[tid]!;
      titleCounts[tid] = 0;
      if (count < needed) continue;
      const id = titleDoc[tid]!;
      const title = titleText[tid]!;
      const list = titlesOf.get(id);
      if (list) list.push(title);
      else titlesOf.set(id, [title]);
      if (count > docBest[id]!) docBest[id] = count;
    }
    for (const id of titlesOf.keys()) {
      (buckets[docBest[id]!] ??= []).push(id);
      docBest[id] = 0;
    }
    const ids: number[] = [];
    for (let count = buckets.length - 1; count >= needed && ids.length < maxCandidates; count--) {
      const bucket = buckets[count];
      if (!bucket) continue;
      bucket.sort(byRank);
      for (let i = 0; i < bucket.length && ids.length < maxCandidates; i++) ids.push(bucket[i]!);
    }
    return { ids, titles: titlesOf };
  }

  function tierOf(doc: readonly string[], query: string): MatchTier {
    let tier: MatchTier = MatchTier.Fuzzy;
    for (const title of doc) {
      if (title === query) return MatchTier.Exact;
      if (title.startsWith(query)) tier = MatchTier.Prefix;
      else if (tier > MatchTier.WordPrefix && title.includes(` ${query}`)) tier = MatchTier.WordPrefix;
    }
    return tier;
  }

  return {
    search(raw) {
      const query = normalizeTitle(raw);
      if (!query) return [];
      const { ids, titles } = candidates(query);
      const hits: SearchHit[] = [];
      const fuzzy: { id: number; title: string }[] = [];
      // fuse.js runs its bitap once per 32-character chunk of the query, over each title's length.
      let budget = fuzzyBudget / Math.max(1, Math.ceil(query.length / 32));
      for (const id of ids) {
        const tier = tierOf(docs[id]!, query);
        if (tier !== MatchTier.Fuzzy) hits.push({ index: id, tier, score: 1 });
        else if (budget > 0) {
          for (const title of titles.get(id) ?? []) {
            fuzzy.push({ id, title });
            budget -= title.length + 8;
          }
        }
      }
      if (fuzzy.length === 0) return hits;
      // Exact and prefix hits are ordered by popularity, so only the fuzzy rest needs fuse's score.
      // One fuse document per title, best title wins: with an array key fuse multiplies the
      // scores of all matching titles, which favours entries with many synonyms over the best match.
      const fuse = new Fuse(fuzzy, { keys: ['title'], includeScore: true, threshold, ignoreLocation: true });
      const scores = new Map<number, number>();
      for (const result of fuse.search(query)) {
        const score = result.score ?? 1;
        const best = scores.get(result.item.id);
        if (best === undefined || score < best) scores.set(result.item.id, score);
      }
      for (const [id, score] of scores) hits.push({ index: id, tier: MatchTier.Fuzzy, score });
      return hits;
    },
  };
}
