/**
 * The manga search filters and orderings as predicates and keys over records (docs/specification.md:
 * Jikan filters; the anime rules with `published` for `aired` and `magazines` matching
 * serializations), from the kind table like the anime ones (`select.ts`).
 * @module
 */
import { MANGA } from './catalogue/kinds.js';
import type { SortKey } from './internal/ordering.js';
import type { Fields } from './seam/evaluate.js';
import { entryFields, entryFilter, orderKeys } from './select.js';
import type { SfwClass } from './sfw.js';
import type { MangaOrderBy, MangaSearch } from './store.js';
import type { Manga } from './schemas/manga.js';

/** A manga with values precomputed for filtering. */
export interface IndexedManga {
  manga: Manga;
  sfw: SfwClass;
  /** Every genre, explicit genre, theme and demographic id, once. */
  tags: readonly number[];
  /** Serialization (magazine) ids, once. */
  magazines: readonly number[];
  /** Lower-case title, for `letter` and `title` ordering. */
  titleKey: string;
  /** Every field of the record (`COLLECTIONS.manga.fields`). */
  fields: Fields;
}

/**
 * Precomputes what filtering needs.
 * @param manga - The record.
 */
export function indexManga(manga: Manga): IndexedManga {
  const { fields, sfw, tags, titleKey } = entryFields('manga', manga);
  return { manga, sfw, tags, magazines: fields['magazines'] as readonly number[], titleKey, fields };
}

/**
 * The filter of a manga search, everything except `q`.
 * @param s - The validated search.
 * @returns A predicate over indexed records.
 */
export function mangaFilter(s: MangaSearch): (entry: IndexedManga) => boolean {
  return entryFilter(MANGA, s);
}

/** The key of each `order_by` value of a manga search. */
export const MANGA_ORDER_KEYS: Record<MangaOrderBy, (e: IndexedManga) => SortKey> = orderKeys(MANGA.orderBy);
