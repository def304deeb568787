/**
 * Word similarity as PostgreSQL's `pg_trgm` defines it
 * (https://www.postgresql.org/docs/current/pgtrgm.html): the greatest similarity between the set of
 * trigrams of a query and the set of trigrams of any continuous stretch of a text's trigrams, taken
 * in order. A trigram is three characters of a word written with two spaces before it and one
 * after (`ab` → `  a`, ` ab`, `ab `); the similarity of two sets is the trigrams they share over
 * all the trigrams of both. The memory store measures its close hits with it, as the PostgreSQL
 * store does with `word_similarity`, so that both list the same close hits in the same order.
 * @module
 */

/** Query characters the close match looks at: past this a query has found its hits by other tiers. */
const CLOSE_QUERY_CHARS = 64;
/** Queries shorter than this (in characters, without repeated words) have no close hits, only those containing them. */
const CLOSE_QUERY_MIN = 4;

/**
 * What of a folded query its close hits are measured against: its words without repeats (word
 * similarity takes the query's trigrams as a set, so a repeated word adds nothing), the first
 * 64 characters of them. Both stores measure against this same text.
 * @param query - A folded query (`normalizeTitle`).
 * @returns The text, or `undefined` when it is under four characters: such a query's close hits
 * are the texts containing it.
 * @example
 * ```ts
 * closeQuery('one piece one'); // 'one piece'
 * closeQuery('kmi'); // undefined
 * ```
 */
export function closeQuery(query: string): string | undefined {
  const words = [...new Set(query.split(' '))].join(' ');
  if ([...words].length < CLOSE_QUERY_MIN) return undefined;
  return words.length > CLOSE_QUERY_CHARS ? words.slice(0, CLOSE_QUERY_CHARS).trimEnd() : words;
}

/** Calls `each` with every trigram of a folded text, in order: each word with two spaces before it and one after. */
function eachTrigram(text: string, each: (gram: string) => void): void {
  for (const word of text.split(' ')) {
    if (!word) continue;
    const chars = word.length === [...word].length ? word : [...word];
    let a = ' ';
    let b = ' ';
    for (let i = 0; i <= chars.length; i++) {
      const c = i < chars.length ? chars[i]! : ' ';
      each(a + b + c);
      a = b;
      b = c;
    }
  }
}

/**
 * Anything outside ASCII, where Unicode folding can change a text (search.ts folds ASCII by a fast
 * path); such a text's trigrams are made as strings of code points.
 */
export const NON_ASCII = /[^\x00-\x7f]/;
/** The space, the one separator of folded text, as a character code. */
export const SPACE = 32;
/** Three ASCII characters as one number. */
const asciiGram = (a: number, b: number, c: number) => (a << 14) | (b << 7) | c;

/**
 * A measure of word similarity to one query, to be called on many texts.
 * @param query - The text to measure against ({@link closeQuery}).
 * @param floor - Similarities below this may be answered as 0: a text whose trigrams cannot reach
 * it is not measured further.
 * @returns A function from a folded text to its word similarity to `query`, from 0 to 1, rounded to
 * a 32-bit float as PostgreSQL's `real` is.
 * @example
 * ```ts
 * const similarity = createWordSimilarity('frieren');
 * similarity('sousou no frieren'); // 1
 * similarity('sousou no frieen'); // 0.5
 * ```
 */
export function createWordSimilarity(query: string, floor = 0): (text: string) => number {
  // The query's trigrams are ids 0 … size - 1; a text's others get ids from size on, per text.
  const grams = new Map<string, number>();
  eachTrigram(query, (gram) => {
    if (!grams.has(gram)) grams.set(gram, grams.size);
  });
  const size = grams.size;
  // An ASCII query's trigrams as numbers too: an ASCII text's are read without making strings.
  const ascii = !NON_ASCII.test(query);
  const asciiGrams = new Map<number, number>();
  if (ascii) for (const [gram, id] of grams) asciiGrams.set(asciiGram(gram.charCodeAt(0), gram.charCodeAt(1), gram.charCodeAt(2)), id);
  // A text's other trigrams: by their string (a text outside ASCII) or, for an ASCII text, in an
  // open-addressed table of their numbers, stamped per text. A Map cleared per text allocated its
  // table again for each of the thousands of texts one query measures.
  const others = new Map<string, number>();
  const table = { keys: new Int32Array(256), stamps: new Int32Array(256), ids: new Int32Array(256), shift: 24, stamp: 0 };
  let otherCount = 0;
  let ids = new Int32Array(64);
  let seen = new Int32Array(size + 64);
  let stamp = 0;
  let n = 0;
  const add = (id: number) => {
    if (n === ids.length) {
      const grown = new Int32Array(n * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[n++] = id;
  };
  const other = (key: string) => {
    let id = others.get(key);
    if (id === undefined) others.set(key, (id = size + otherCount++));
    return id;
  };
  const otherAscii = (key: number) => {
    const { keys, stamps, stamp } = table;
    const mask = keys.length - 1;
    // The product's high bits (Fibonacci hashing): its low ones depend only on the last character.
    for (let i = Math.imul(key, 0x9e3779b1) >>> table.shift; ; i++) {
      const at = i & mask;
      if (stamps[at] !== stamp) {
        stamps[at] = stamp;
        keys[at] = key;
        return (table.ids[at] = size + otherCount++);
      }
      if (keys[at] === key) return table.ids[at]!;
    }
  };
  const addGram = (gram: string) => add(grams.get(gram) ?? other(gram));
  return (text) => {
    otherCount = 0;
    n = 0;
    if (ascii && !NON_ASCII.test(text)) {
      // At most one trigram a character and one a word: the table stays at most half full.
      if (table.keys.length < 2 * (text.length + 1)) {
        const bits = Math.ceil(Math.log2(4 * (text.length + 1)));
        Object.assign(table, { keys: new Int32Array(2 ** bits), stamps: new Int32Array(2 ** bits), ids: new Int32Array(2 ** bits), shift: 32 - bits, stamp: 0 });
      }
      table.stamp++;
      let a = SPACE;
      let b = SPACE;
      for (let i = 0; i <= text.length; i++) {
        const c = i < text.length ? text.charCodeAt(i) : SPACE;
        if (c === SPACE && b === SPACE) continue;
        const key = asciiGram(a, b, c);
        add(asciiGrams.get(key) ?? otherAscii(key));
        if (c === SPACE) a = b = SPACE;
        else {
          a = b;
          b = c;
        }
      }
    } else {
      others.clear();
      eachTrigram(text, addGram);
    }
    if (seen.length < size + otherCount) seen = new Int32Array(2 * (size + otherCount));
    // The similarity is at most the query's trigrams the text holds over all of the query's.
    stamp++;
    let found = 0;
    for (let k = 0; k < n; k++) {
      const id = ids[k]!;
      if (id < size && seen[id] !== stamp) {
        seen[id] = stamp;
        found++;
      }
    }
    if (found === 0 || found < floor * size) return 0;
    // The best stretch starts and ends on a trigram of the query: every start, every end after it.
    let best = 0;
    for (let from = 0; from < n && best < 1; from++) {
      if (ids[from]! >= size) continue;
      stamp++;
      let distinct = 0;
      let shared = 0;
      for (let to = from; to < n; to++) {
        const id = ids[to]!;
        if (seen[id] !== stamp) {
          seen[id] = stamp;
          distinct++;
          if (id < size) shared++;
        }
        if (id < size) best = Math.max(best, shared / (size + distinct - shared));
      }
    }
    return Math.fround(best);
  };
}
