/**
 * The search query battery: ~200 labelled queries built from a dataset with a seeded PRNG, in
 * six groups (exact, English, synonym, typo, partial, romaji; results in docs/benchmarks.md) and a
 * harder seventh (a two-word fragment from inside a title, with a typo), plus
 * latency-only groups (one- and two-letter queries, 200-character queries).
 * @module
 */
import { normalizeTitle } from '../../packages/core/src/seam/search.ts';
import type { Anime } from '../../packages/core/src/schemas/anime.ts';
import { mulberry32 } from '../../scripts/lib/mulberry32.mjs';

/** A query kind. */
export type QueryKind = 'exact' | 'english' | 'synonym' | 'typo' | 'partial' | 'romaji' | 'fragment';

/** One labelled query: what to type and which entries count as a hit. */
export interface LabelledQuery {
  kind: QueryKind;
  q: string;
  /** The entry the query was made from. */
  expected: number;
  /** Every entry that counts as a hit (the expected one, and others bearing the very same title). */
  accept: Set<number>;
}

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'sq', b: 'vn', c: 'xv', d: 'sf', e: 'wr', f: 'dg', g: 'fh', h: 'gj', i: 'uo', j: 'hk', k: 'jl', l: 'k',
  m: 'n', n: 'bm', o: 'ip', p: 'o', q: 'w', r: 'et', s: 'ad', t: 'ry', u: 'yi', v: 'cb', w: 'qe', x: 'zc', y: 'tu', z: 'x',
};

/**
 * One realistic typo: a neighbouring-key substitution, a dropped letter, a doubled letter or two
 * swapped letters, never in the first letter and never on a space.
 */
export function oneTypo(text: string, rand: () => number): string {
  const letters = [...text];
  const positions = letters.map((c, i) => (i > 0 && /[a-z]/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (positions.length === 0) return text;
  const i = positions[Math.floor(rand() * positions.length)]!;
  const c = letters[i]!;
  const kind = Math.floor(rand() * 4);
  if (kind === 0) {
    const options = KEYBOARD_NEIGHBOURS[c] ?? 'e';
    letters[i] = options[Math.floor(rand() * options.length)]!;
  } else if (kind === 1) letters.splice(i, 1);
  else if (kind === 2) letters.splice(i, 0, c);
  else if (i + 1 < letters.length && letters[i + 1] !== ' ' && letters[i + 1] !== c) [letters[i], letters[i + 1]] = [letters[i + 1]!, c];
  else letters.splice(i, 1);
  return letters.join('');
}

/** Romaji spelling variants: long vowels written short (`Shippuuden` → `shippuden`, `Kyou` → `kyo`). */
export function romajiVariant(title: string): string {
  return normalizeTitle(title).replace(/ou/g, 'o').replace(/uu/g, 'u').replace(/oo/g, 'o').replace(/ii/g, 'i');
}

/** How many queries of each kind {@link buildBattery} makes. */
export const BATTERY_SIZES: Record<QueryKind, number> = { exact: 35, english: 30, synonym: 25, typo: 30, partial: 30, romaji: 25, fragment: 25 };

/**
 * Builds the labelled battery from a dataset.
 * @param anime - The catalogue.
 * @param seed - PRNG seed; the same data and seed give the same battery.
 */
export function buildBattery(anime: readonly Anime[], seed = 7, sizes = BATTERY_SIZES): LabelledQuery[] {
  const rand = mulberry32(seed);
  const byTitle = new Map<string, Set<number>>();
  const titlesOf = (a: Anime) => [a.title, a.title_english, a.title_japanese, ...a.title_synonyms].filter((t): t is string => !!t);
  for (const a of anime) {
    for (const t of titlesOf(a)) {
      const key = normalizeTitle(t);
      let set = byTitle.get(key);
      if (!set) byTitle.set(key, (set = new Set()));
      set.add(a.mal_id);
    }
  }
  const acceptTitle = (title: string, id: number) => new Set([id, ...(byTitle.get(normalizeTitle(title)) ?? [])]);
  const out: LabelledQuery[] = [];
  const used = new Set<string>();
  const shuffled = [...anime];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const take = (kind: QueryKind, make: (a: Anime) => { q: string; accept: Set<number> } | undefined) => {
    let n = 0;
    for (const a of shuffled) {
      if (n >= sizes[kind]) break;
      const made = make(a);
      if (!made || used.has(`${kind}:${made.q}`)) continue;
      used.add(`${kind}:${made.q}`);
      out.push({ kind, q: made.q, expected: a.mal_id, accept: made.accept });
      n++;
    }
  };
  const latin = (s: string | null | undefined): s is string => !!s && /^[\x20-\x7e]+$/.test(s) && normalizeTitle(s).length >= 4;
  take('exact', (a) => (latin(a.title) && rand() < 0.5 ? { q: a.title, accept: acceptTitle(a.title, a.mal_id) } : undefined));
  take('english', (a) =>
    latin(a.title_english) && a.title_english !== a.title ? { q: a.title_english, accept: acceptTitle(a.title_english, a.mal_id) } : undefined,
  );
  take('synonym', (a) => {
    const s = a.title_synonyms.find(latin);
    return s ? { q: s, accept: acceptTitle(s, a.mal_id) } : undefined;
  });
  take('typo', (a) => {
    if (!latin(a.title) || normalizeTitle(a.title).length < 8 || rand() < 0.5) return undefined;
    const q = oneTypo(normalizeTitle(a.title), rand);
    return q === normalizeTitle(a.title) ? undefined : { q, accept: acceptTitle(a.title, a.mal_id) };
  });
  take('partial', (a) => {
    // "mushoku tens", "fullmeta": the first one or two words, the last one cut short.
    const words = normalizeTitle(a.title).split(' ');
    if (!latin(a.title) || words[0]!.length < 4 || rand() < 0.5) return undefined;
    const n = words.length > 1 && words[1]!.length >= 4 && rand() < 0.6 ? 2 : 1;
    const last = words[n - 1]!;
    const cut = Math.max(3, Math.ceil(last.length * 0.7));
    const q = [...words.slice(0, n - 1), last.slice(0, cut)].join(' ');
    // A partial title is answered by any entry whose title starts with it (its franchise).
    const accept = new Set([a.mal_id]);
    for (const [title, ids] of byTitle) if (title.startsWith(q)) for (const id of ids) accept.add(id);
    return { q, accept };
  });
  take('romaji', (a) => {
    const q = romajiVariant(a.title);
    return latin(a.title) && q !== normalizeTitle(a.title) && q.length >= 6 ? { q, accept: acceptTitle(a.title, a.mal_id) } : undefined;
  });
  take('fragment', (a) => {
    // Two words from inside a longer title, one of them mistyped ("kirameki no slapstik").
    const words = normalizeTitle(a.title).split(' ');
    if (!latin(a.title) || words.length < 4 || rand() < 0.5) return undefined;
    const at = 1 + Math.floor(rand() * (words.length - 2));
    const pair = words.slice(at, at + 2).join(' ');
    if (pair.length < 8) return undefined;
    return { q: oneTypo(pair, rand), accept: acceptTitle(a.title, a.mal_id) };
  });
  return out;
}

/** Latency-only queries: one- and two-letter prefixes, and queries at the spec's 200-character bound. */
export function latencyQueries(anime: readonly Anime[], seed = 11): { short: string[]; long: string[] } {
  const rand = mulberry32(seed);
  const short = ['a', 'k', 's', 'z', 'x', 'na', 'sh', 'ka', 'to', 'ma', 'bo', 'ki', 're', 'mo', 'ha', 'no', 'de', 'ou', 'ze', 'yu'];
  const long: string[] = [];
  for (let i = 0; i < 10; i++) {
    let q = '';
    while (q.length < 200) q += `${anime[Math.floor(rand() * anime.length)]!.title} `;
    long.push(q.slice(0, 200));
  }
  long.push('a'.repeat(200), 'no '.repeat(66) + 'no', 'shingeki no kyojin '.repeat(11).slice(0, 200));
  return { short, long };
}

/** Quality of one kind of query. */
export interface Recall {
  n: number;
  hit1: number;
  hit10: number;
}

/**
 * Scores ranked results against the battery.
 * @param battery - The labelled queries.
 * @param results - For each query, the mal_ids returned, best first.
 */
export function scoreBattery(battery: readonly LabelledQuery[], results: readonly (readonly number[])[]): Record<QueryKind | 'all', Recall> {
  const out = {} as Record<QueryKind | 'all', Recall>;
  const add = (key: QueryKind | 'all', hit1: boolean, hit10: boolean) => {
    const r = (out[key] ??= { n: 0, hit1: 0, hit10: 0 });
    r.n++;
    if (hit1) r.hit1++;
    if (hit10) r.hit10++;
  };
  battery.forEach((query, i) => {
    const ids = results[i] ?? [];
    const hit1 = ids.length > 0 && query.accept.has(ids[0]!);
    const hit10 = ids.slice(0, 10).some((id) => query.accept.has(id));
    add(query.kind, hit1, hit10);
    add('all', hit1, hit10);
  });
  return out;
}

/** The p-th percentile (0–100) of samples, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
