/**
 * The search query battery, built at run time from a dataset with a seeded PRNG: labelled queries
 * in ten kinds (exact, case, English, Japanese, synonym, one typo, prefix, partial, romaji and a
 * two-word fragment with a typo), each scored at its own cut-off ({@link KIND_CUTOFF}) against its
 * target ({@link KIND_TARGET}), plus latency-only groups (one- and two-letter queries,
 * 200-character queries). The same builder serves anime and manga: it reads only the title fields
 * both share.
 *
 * The battery normalises titles with its own {@link plain}, not the search's, so that a change to
 * the search cannot change the questions it is asked.
 * @module
 */
import { mulberry32 } from '../../scripts/lib/mulberry32.mjs';

/** A query kind. */
export type QueryKind = 'exact' | 'case' | 'english' | 'japanese' | 'synonym' | 'typo' | 'prefix' | 'partial' | 'romaji' | 'fragment';

/** Every kind, in the order the battery and the report list them. */
export const QUERY_KINDS: readonly QueryKind[] = ['exact', 'case', 'english', 'japanese', 'synonym', 'typo', 'prefix', 'partial', 'romaji', 'fragment'];

/** How deep in the results a query of each kind may find its entry and still count as a hit. */
export const KIND_CUTOFF: Record<QueryKind, 1 | 5 | 10> = {
  exact: 1,
  case: 1,
  english: 1,
  japanese: 1,
  synonym: 1,
  typo: 5,
  prefix: 10,
  partial: 10,
  romaji: 1,
  fragment: 10,
};

/** The recall each kind must reach at its cut-off; kinds without one are reported as context. */
export const KIND_TARGET: Partial<Record<QueryKind, number>> = { exact: 0.99, english: 0.99, japanese: 0.99, synonym: 0.99, typo: 0.98, prefix: 0.97, partial: 0.9 };

/**
 * The kinds whose every query is a real title or one edit away from one: none of them may come back
 * empty (the one-edit battery).
 */
export const WITHIN_ONE_EDIT: readonly QueryKind[] = ['exact', 'case', 'english', 'japanese', 'synonym', 'typo'];

/** The title fields anime and manga share: all the battery reads of an entry. */
export interface TitledEntry {
  mal_id: number;
  title: string;
  title_english: string | null;
  title_japanese: string | null;
  title_synonyms: string[];
}

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
 * A title as the battery compares titles: diacritics and full-width forms folded, lower case,
 * every run of other characters one space.
 * @param s - A title.
 * @returns The plain form.
 */
export function plain(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * One realistic typo, one edit (Damerau–Levenshtein) from the text: a neighbouring-key
 * substitution, a dropped letter, a doubled letter or two swapped letters, never in the first
 * letter and never on a space.
 * @param text - A plain title or part of one.
 * @param rand - The PRNG.
 * @returns The mistyped text (the text itself when it has no letter to change).
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

/**
 * Romaji spelling variants: long vowels written short (`Shippuuden` → `shippuden`, `Kyou` → `kyo`).
 * @param title - A title.
 * @returns Its plain form with long vowels shortened.
 */
export function romajiVariant(title: string): string {
  return plain(title).replace(/ou/g, 'o').replace(/uu/g, 'u').replace(/oo/g, 'o').replace(/ii/g, 'i');
}

/** The title in mixed case: every letter upper or lower at random, and never the title as written. */
function recase(title: string, rand: () => number): string {
  const mode = Math.floor(rand() * 3);
  if (mode === 0) return title.toLowerCase();
  if (mode === 1) return title.toUpperCase();
  return [...title].map((c) => (rand() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
}

/** How many queries of each kind {@link buildBattery} makes (fewer when the data has too few). */
export const BATTERY_SIZES: Record<QueryKind, number> = {
  exact: 150,
  case: 100,
  english: 150,
  japanese: 150,
  synonym: 150,
  typo: 300,
  prefix: 150,
  partial: 200,
  romaji: 100,
  fragment: 100,
};

/** A word counts as distinctive when at most this many entries carry it in their main title. */
const DISTINCTIVE = 5;

/** What the kinds need to know about the whole catalogue: who bears which title, and how common each word is. */
interface Catalogue {
  /** Plain title → the entries bearing it (any of their titles). */
  byTitle: Map<string, Set<number>>;
  /** Plain word or two-word phrase of a main title → how many entries' main titles hold it. */
  wordCount: Map<string, number>;
}

function indexCatalogue(entries: readonly TitledEntry[]): Catalogue {
  const byTitle = new Map<string, Set<number>>();
  const wordCount = new Map<string, number>();
  for (const e of entries) {
    for (const t of [e.title, e.title_english, e.title_japanese, ...e.title_synonyms]) {
      if (!t) continue;
      const key = plain(t);
      let set = byTitle.get(key);
      if (!set) byTitle.set(key, (set = new Set()));
      set.add(e.mal_id);
    }
    const words = plain(e.title).split(' ');
    const grams = new Set([...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)]);
    for (const g of grams) wordCount.set(g, (wordCount.get(g) ?? 0) + 1);
  }
  return { byTitle, wordCount };
}

type Make = (e: TitledEntry, rand: () => number, cat: Catalogue) => { q: string; accept: Set<number> } | undefined;

const latin = (s: string | null | undefined): s is string => !!s && /^[\x20-\x7e]+$/.test(s) && plain(s).length >= 4;
const sameTitle = (cat: Catalogue, title: string, id: number) => new Set([id, ...(cat.byTitle.get(plain(title)) ?? [])]);
const asIs = (title: string | null | undefined, cat: Catalogue, id: number) => (title && plain(title) ? { q: title, accept: sameTitle(cat, title, id) } : undefined);

/** How each kind makes a query from an entry, or passes it by. */
const MAKERS: Record<QueryKind, Make> = {
  exact: (e, rand, cat) => (rand() < 0.5 ? asIs(e.title, cat, e.mal_id) : undefined),
  case: (e, rand, cat) => {
    if (!/\p{L}/u.test(e.title) || e.title.toLowerCase() === e.title.toUpperCase()) return undefined;
    const q = recase(e.title, rand);
    return q === e.title ? undefined : { q, accept: sameTitle(cat, e.title, e.mal_id) };
  },
  english: (e, _, cat) => (e.title_english && plain(e.title_english) !== plain(e.title) ? asIs(e.title_english, cat, e.mal_id) : undefined),
  japanese: (e, _, cat) => asIs(e.title_japanese, cat, e.mal_id),
  synonym: (e, rand, cat) => asIs(e.title_synonyms[Math.floor(rand() * e.title_synonyms.length)], cat, e.mal_id),
  typo: (e, rand, cat) => {
    // Short titles too ("Slayers" → "slaeyrs"): that is where a slip leaves the fewest letters to match.
    if (!latin(e.title) || rand() < 0.5) return undefined;
    const q = oneTypo(plain(e.title), rand);
    // A slip that spells another real title is that title's query, not this one's.
    return q === plain(e.title) || cat.byTitle.has(q) ? undefined : { q, accept: sameTitle(cat, e.title, e.mal_id) };
  },
  prefix: (e, rand, cat) => {
    // "mushoku tens", "fullmeta": the first one or two words, the last one cut short.
    const words = plain(e.title).split(' ');
    if (!latin(e.title) || words[0]!.length < 4 || rand() < 0.5) return undefined;
    const n = words.length > 1 && words[1]!.length >= 4 && rand() < 0.6 ? 2 : 1;
    const last = words[n - 1]!;
    const q = [...words.slice(0, n - 1), last.slice(0, Math.max(3, Math.ceil(last.length * 0.7)))].join(' ');
    // A prefix is answered by any entry whose title starts with it (its franchise).
    const accept = new Set([e.mal_id]);
    for (const [title, ids] of cat.byTitle) if (title.startsWith(q)) for (const id of ids) accept.add(id);
    return { q, accept };
  },
  partial: (e, rand, cat) => {
    // "tetsuwan" for "Astro Boy: Tetsuwan Atom": a word from past the start of the main title that
    // few entries share, or two adjacent ones that together few entries share.
    const words = plain(e.title).split(' ');
    if (!latin(e.title) || words.length < 2) return undefined;
    const at = 1 + Math.floor(rand() * (words.length - 1));
    const word = words[at]!;
    if (word.length >= 4 && (cat.wordCount.get(word) ?? 0) <= DISTINCTIVE) return { q: word, accept: sameTitle(cat, e.title, e.mal_id) };
    const pair = words.slice(at, at + 2).join(' ');
    if (at + 1 < words.length && pair.length >= 7 && (cat.wordCount.get(pair) ?? 0) <= DISTINCTIVE) return { q: pair, accept: sameTitle(cat, e.title, e.mal_id) };
    return undefined;
  },
  romaji: (e, _, cat) => {
    const q = romajiVariant(e.title);
    return latin(e.title) && q !== plain(e.title) && q.length >= 6 && !cat.byTitle.has(q) ? { q, accept: sameTitle(cat, e.title, e.mal_id) } : undefined;
  },
  fragment: (e, rand, cat) => {
    // Two words from inside a longer title, one of them mistyped ("kirameki no slapstik").
    const words = plain(e.title).split(' ');
    if (!latin(e.title) || words.length < 4 || rand() < 0.5) return undefined;
    const at = 1 + Math.floor(rand() * (words.length - 2));
    const pair = words.slice(at, at + 2).join(' ');
    return pair.length < 8 ? undefined : { q: oneTypo(pair, rand), accept: sameTitle(cat, e.title, e.mal_id) };
  },
};

/**
 * Builds the labelled battery from a dataset: each kind walks the entries in one seeded shuffled
 * order and takes the first {@link BATTERY_SIZES} queries it can make, one per entry, no query twice.
 * @param entries - The catalogue (anime or manga).
 * @param seed - PRNG seed; the same data and seed give the same battery.
 * @param sizes - Queries per kind.
 * @returns The queries, kind by kind.
 */
export function buildBattery(entries: readonly TitledEntry[], seed = 7, sizes = BATTERY_SIZES): LabelledQuery[] {
  const rand = mulberry32(seed);
  const cat = indexCatalogue(entries);
  const shuffled = [...entries];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const out: LabelledQuery[] = [];
  for (const kind of QUERY_KINDS) {
    const used = new Set<string>();
    for (const e of shuffled) {
      if (used.size >= sizes[kind]) break;
      const made = MAKERS[kind](e, rand, cat);
      if (!made || used.has(made.q)) continue;
      used.add(made.q);
      out.push({ kind, q: made.q, expected: e.mal_id, accept: made.accept });
    }
  }
  return out;
}

/**
 * Latency-only queries: one- and two-letter prefixes, and queries at the spec's 200-character bound.
 * @param entries - The catalogue.
 * @param seed - PRNG seed.
 * @returns The short and the long queries.
 */
export function latencyQueries(entries: readonly TitledEntry[], seed = 11): { short: string[]; long: string[] } {
  const rand = mulberry32(seed);
  const short = ['a', 'k', 's', 'z', 'x', 'na', 'sh', 'ka', 'to', 'ma', 'bo', 'ki', 're', 'mo', 'ha', 'no', 'de', 'ou', 'ze', 'yu'];
  const long: string[] = [];
  for (let i = 0; i < 10; i++) {
    let q = '';
    while (q.length < 200) q += `${entries[Math.floor(rand() * entries.length)]!.title} `;
    long.push(q.slice(0, 200));
  }
  long.push('a'.repeat(200), 'no '.repeat(66) + 'no', 'shingeki no kyojin '.repeat(11).slice(0, 200));
  return { short, long };
}

/** Quality of one kind of query. */
export interface Recall {
  n: number;
  hit1: number;
  hit5: number;
  hit10: number;
  /** Queries answered with no result at all. */
  empty: number;
}

/**
 * Scores ranked results against the battery, per kind and over all.
 * @param battery - The labelled queries.
 * @param results - For each query, the mal_ids returned, best first.
 * @returns Hits at 1, 5 and 10 and empty answers, per kind and as `all`.
 */
export function scoreBattery(battery: readonly LabelledQuery[], results: readonly (readonly number[])[]): Partial<Record<QueryKind | 'all', Recall>> {
  const out: Partial<Record<QueryKind | 'all', Recall>> = {};
  battery.forEach((query, i) => {
    const ids = results[i] ?? [];
    const rank = ids.slice(0, 10).findIndex((id) => query.accept.has(id));
    for (const key of [query.kind, 'all'] as const) {
      const r = (out[key] ??= { n: 0, hit1: 0, hit5: 0, hit10: 0, empty: 0 });
      r.n++;
      if (rank === 0) r.hit1++;
      if (rank >= 0 && rank < 5) r.hit5++;
      if (rank >= 0) r.hit10++;
      if (ids.length === 0) r.empty++;
    }
  });
  return out;
}

/**
 * The p-th percentile of samples, nearest rank.
 * @param samples - The samples.
 * @param p - 0–100.
 * @returns The percentile, NaN when there are no samples.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
