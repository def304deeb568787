/**
 * The anime search filters and orderings as predicates and keys over records, for the memory
 * store: their meaning is the kind table's (`catalogue/kinds.ts`) and the search conditions'
 * (`catalogue/media-search.ts`) over the fields of `seam/collections.ts`, computed once per record.
 * @module
 */
import { ANIME, type KindSpec } from './catalogue/kinds.js';
import { searchWhere, type MediaSearch } from './catalogue/media-search.js';
import { compareBy, type SortKey } from './internal/ordering.js';
import { fieldValues, type CollectionName } from './seam/collections.js';
import { holdsAll, type Fields } from './seam/evaluate.js';
import type { SfwClass } from './sfw.js';
import type { AnimeOrderBy, AnimeSearch } from './store.js';
import type { Anime } from './schemas/anime.js';

/** An anime with values precomputed for filtering. */
export interface IndexedAnime {
  anime: Anime;
  sfw: SfwClass;
  /** Every genre, explicit genre, theme and demographic id, once. */
  tags: readonly number[];
  /** Every producer, studio and licensor id, once. */
  companies: readonly number[];
  /** Lower-case title, for `letter` and `title` ordering. */
  titleKey: string;
  /** Every field of the record (`COLLECTIONS.anime.fields`). */
  fields: Fields;
}

/**
 * The field values of an anime or manga record and the ones the memory store reads directly.
 * @param collection - `anime` or `manga`.
 * @param record - The record.
 */
export function entryFields(collection: CollectionName & KindSpec['kind'], record: unknown) {
  const fields: Fields = fieldValues(collection, record);
  return { fields, sfw: fields['sfw'] as SfwClass, tags: fields['tags'] as readonly number[], titleKey: fields['title_key'] as string };
}

/**
 * Precomputes what filtering needs.
 * @param anime - The record.
 */
export function indexAnime(anime: Anime): IndexedAnime {
  const { fields, sfw, tags, titleKey } = entryFields('anime', anime);
  return { anime, sfw, tags, companies: fields['companies'] as readonly number[], titleKey, fields };
}

/**
 * The filter of a search over either kind, everything except `q`.
 * @param spec - The kind.
 * @param s - The validated search.
 * @returns A predicate over indexed records.
 */
export function entryFilter(spec: KindSpec, s: MediaSearch): (entry: { fields: Fields }) => boolean {
  const where = searchWhere(spec, s);
  return (entry) => holdsAll(entry.fields, where);
}

/**
 * The filter of an anime search, everything except `q`.
 * @param s - The validated search.
 * @returns A predicate over indexed records.
 */
export function animeFilter(s: AnimeSearch): (entry: IndexedAnime) => boolean {
  return entryFilter(ANIME, s);
}

/**
 * The key of each `order_by` value of a kind: the seam field it orders by.
 * @param orderBy - The kind's `order_by` table.
 */
export function orderKeys<O extends string>(orderBy: Readonly<Record<O, string>>): Record<O, (e: { fields: Fields }) => SortKey> {
  const keys = {} as Record<O, (e: { fields: Fields }) => SortKey>;
  for (const [value, field] of Object.entries(orderBy) as [O, string][]) keys[value] = (e) => e.fields[field] as SortKey;
  return keys;
}

/** The key of each `order_by` value of an anime search. */
export const ANIME_ORDER_KEYS: Record<AnimeOrderBy, (e: IndexedAnime) => SortKey> = orderKeys(ANIME.orderBy);

/**
 * The ordering of `order_by` + `sort`: nulls last in both directions, ties by `mal_id` ascending so
 * that pages never repeat or skip an entry.
 * @param orderBy - The field.
 * @param sort - The direction.
 * @returns A comparator.
 */
export function animeComparator(orderBy: AnimeOrderBy, sort: 'asc' | 'desc'): (a: IndexedAnime, b: IndexedAnime) => number {
  return compareBy(ANIME_ORDER_KEYS[orderBy], (e) => e.anime.mal_id, sort);
}

/**
 * Relevance tie-break: more popular first (lower `popularity` rank; unranked last), then `mal_id`.
 * @param a - One entry.
 * @param b - The other.
 */
export function byPopularity(a: IndexedAnime, b: IndexedAnime): number {
  const x = a.anime.popularity ?? Number.MAX_SAFE_INTEGER;
  const y = b.anime.popularity ?? Number.MAX_SAFE_INTEGER;
  return x - y || a.anime.mal_id - b.anime.mal_id;
}
