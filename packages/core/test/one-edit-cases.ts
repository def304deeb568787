/**
 * One-edit searches for the memory store's and the PostgreSQL store's tests: the real titles and
 * names of the demo data's anime, manga, characters and people, each folded and given one slip (a
 * letter inserted, dropped, changed, or swapped with the next one; never the first letter), by a
 * seeded generator so that a failing query can be replayed. Every such query is within one edit of
 * a real title, so no search of it may answer empty (docs/search.md, "The fallback").
 * @module
 */
import { demoData } from '@catalogue-api/demo-data';
import { mulberry32 } from '../../../scripts/lib/mulberry32.mjs';
import { normalizeTitle } from '../src/seam/search.js';
import type { CatalogueStore } from '../src/seam/types.js';

/** The collections searched by title or name. */
export const SEARCHED = ['anime', 'manga', 'characters', 'people'] as const;
/** A collection searched by title or name. */
export type Searched = (typeof SEARCHED)[number];

/** The four single edits. */
export const EDITS = ['insertion', 'deletion', 'substitution', 'transposition'] as const;
/** A single edit. */
export type Edit = (typeof EDITS)[number];

/** One search: a title or name with one slip, and the record it was made from. */
export interface OneEditCase {
  collection: Searched;
  edit: Edit;
  /** The query. */
  q: string;
  /** The folded title it was made from. */
  from: string;
  /** The record's `mal_id`. */
  id: number;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * `text` with one edit at a letter after the first (an insertion goes after one), or `undefined`
 * when it has no place for that edit.
 */
function edited(text: string, edit: Edit, rand: () => number): string | undefined {
  const c = [...text];
  const letter = (i: number) => i < c.length && /[a-z]/.test(c[i]!);
  const places = c.map((_, i) => i).filter((i) => i > 0 && letter(i) && (edit !== 'transposition' || (letter(i + 1) && c[i] !== c[i + 1])));
  if (places.length === 0) return undefined;
  const at = places[Math.floor(rand() * places.length)]!;
  const other = (not: string) => {
    const pick = LETTERS[Math.floor(rand() * 25)]!;
    return pick === not ? 'z' : pick;
  };
  if (edit === 'insertion') c.splice(at, 0, other(''));
  else if (edit === 'deletion') c.splice(at, 1);
  else if (edit === 'substitution') c[at] = other(c[at]!);
  else [c[at], c[at + 1]] = [c[at + 1]!, c[at]!];
  return c.join('');
}

/** The title or name a record is best known by. */
const mainTitle = (collection: Searched, record: { title?: string; name?: string }) => (collection === 'anime' || collection === 'manga' ? record.title : record.name) ?? '';

/**
 * One query per record of each searched collection whose main title folds to four or more
 * characters of ASCII: its edit taken in turn (insertion, deletion, substitution, transposition),
 * its place and letter drawn from a PRNG seeded with `seed`.
 * @param seed - The PRNG's seed.
 * @returns The cases, collection by collection.
 */
export function oneEditCases(seed = 17): OneEditCase[] {
  const rand = mulberry32(seed);
  const cases: OneEditCase[] = [];
  for (const collection of SEARCHED) {
    const records = (demoData[collection] ?? []) as Array<{ mal_id: number; title?: string; name?: string }>;
    for (const [n, record] of records.entries()) {
      const from = normalizeTitle(mainTitle(collection, record));
      if (from.length < 4 || !/^[a-z0-9 ]+$/.test(from)) continue;
      const edit = EDITS[n % EDITS.length]!;
      const q = edited(from, edit, rand);
      if (q && q !== from) cases.push({ collection, edit, q, from, id: record.mal_id });
    }
  }
  return cases;
}

/**
 * The cases a store answers with no record at all, as `collection "q" (from "title")`; and how many
 * of the rest find the record they were made from among the first ten.
 * @param store - A store holding the demo data's searched collections.
 * @param cases - The searches.
 */
export async function emptyAnswers(store: CatalogueStore, cases: readonly OneEditCase[]): Promise<{ empty: string[]; found: number }> {
  const empty: string[] = [];
  let found = 0;
  for (const c of cases) {
    const page = await store.query(c.collection, { search: c.q, offset: 0, limit: 10, select: ['mal_id'] });
    const ids = page.data.map((r) => (r as { mal_id: number }).mal_id);
    if (ids.length === 0) empty.push(`${c.collection} ${c.edit} ${JSON.stringify(c.q)} (from ${JSON.stringify(c.from)})`);
    if (ids.includes(c.id)) found++;
  }
  return { empty, found };
}
