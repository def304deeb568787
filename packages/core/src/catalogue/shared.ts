/**
 * What the endpoint logic of every section shares: short references to records, SFW conditions,
 * and paging over the seam.
 * @module
 */
import { createRecordViews } from '../seam/record-json.js';
import type { SfwMode } from '../seam/sfw.js';
import type { Paging } from './queries.js';
import type { Anime } from '../schemas/anime.js';
import type { Character } from '../schemas/character.js';
import type { AnimeMeta, CharacterMeta, Images, PersonMeta, RelatedEntry } from '../schemas/common.js';
import type { Manga } from '../schemas/manga.js';
import type { Person } from '../schemas/person.js';
import type { CollectionName, CollectionRecord } from '../seam/collections.js';
import type { Condition, CatalogueStore } from '../seam/types.js';
import type { Kind } from './kinds.js';

export type { Kind };

/** A short reference to an anime or manga (`anime_meta` / `manga_meta`). */
export const toMeta = (e: Anime | Manga): AnimeMeta => ({ mal_id: e.mal_id, url: e.url, images: e.images, title: e.title });
/** A short reference to a character. */
export const toCharacterMeta = (c: Character): CharacterMeta => ({ mal_id: c.mal_id, url: c.url, images: c.images, name: c.name });
/** A short reference to a person. */
export const toPersonMeta = (p: Person): PersonMeta => ({ mal_id: p.mal_id, url: p.url, images: p.images, name: p.name });
/** The JPG-only picture shape of characters and people. */
export const jpgOnly = (i: Images) => ({ jpg: { image_url: i.jpg.image_url } });
/** The related entries of a kind, one per stored entry (see `createRecordViews`). */
const relatedView = (type: Kind) =>
  createRecordViews((e: Anime | Manga): RelatedEntry => ({ mal_id: e.mal_id, type, name: e.title, url: e.url, images: e.images, media_type: e.type }));
const relatedOf = { anime: relatedView('anime'), manga: relatedView('manga') };
/** A related entry of a relation, news item, article or stack; the same object while the entry is unchanged. */
export const toRelated = (kind: Kind, e: Anime | Manga): RelatedEntry => relatedOf[kind](e);

/**
 * A part of a record that answers `undefined` when the record does not exist (the route answers 404).
 * @param collection - The record's collection.
 * @param part - The part, over the store and the record's id.
 * @example
 * ```ts
 * const themes = guarded('anime', themesOf);
 * await themes(records, 999_999_999); // undefined
 * ```
 */
export const guarded =
  <A extends unknown[], T>(collection: CollectionName, part: (records: CatalogueStore, id: number, ...args: A) => Promise<T>) =>
  async (records: CatalogueStore, id: number, ...args: A): Promise<T | undefined> =>
    (await records.get(collection, id)) ? part(records, id, ...args) : undefined;

/** What a sub-record can belong to. */
export type OwnerKind = Kind | 'character' | 'person' | 'producer';

/** The owner reference of a record, as the `owners` field holds it. */
export const owner = (kind: OwnerKind, id: number) => `${kind}:${id}`;

/** The `owners` condition of a sub-resource. */
export const ownedBy = (kind: OwnerKind, id: number): Condition => ({
  field: 'owners',
  op: 'has',
  value: owner(kind, id),
});

/** The slice of a 1-based page. */
export const slice = (p: Paging) => ({ offset: (p.page - 1) * p.limit, limit: p.limit });

/** Every record of a query, in one call (sub-resources are small). */
export const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER } as const;

/**
 * Every record of a collection that belongs to one owner, in stored order.
 * @param records - The store.
 * @param collection - The collection of sub-records (cast, staff, relations…).
 * @param by - The owner's kind.
 * @param id - The owner's id.
 */
export async function ownedRows<C extends CollectionName>(records: CatalogueStore, collection: C, by: OwnerKind, id: number) {
  return (await records.query(collection, { where: [ownedBy(by, id)], ...ALL })).data;
}

/**
 * The rows of a collection that belong to one owner, each with the record it points at (one
 * `getMany`); rows whose record is not in the catalogue are left out.
 * @param records - The store.
 * @param collection - The collection of links (cast, staff).
 * @param by - The owner's kind.
 * @param id - The owner's id.
 * @param target - The collection the rows point into.
 * @param key - The id a row points at.
 */
export async function joined<C extends CollectionName, T extends CollectionName>(
  records: CatalogueStore,
  collection: C,
  by: OwnerKind,
  id: number,
  target: T,
  key: (row: CollectionRecord<C>) => number,
): Promise<Array<[CollectionRecord<C>, CollectionRecord<T>]>> {
  const rows = await ownedRows(records, collection, by, id);
  const found = await records.getMany(target, rows.map(key));
  return rows.flatMap((row, i) => {
    const record = found[i];
    return record ? [[row, record]] : [];
  });
}

/**
 * The condition on an entry's `sfw` class (0 safe, 1 Ecchi, 2 adult) that a mode lets through, or
 * none when the mode is `off`.
 * @param mode - The request's SFW mode.
 */
export function sfwWhere(mode: SfwMode): Condition[] {
  if (mode === 'off') return [];
  return [{ field: 'sfw', op: mode === 'normal' ? 'lte' : 'eq', value: mode === 'normal' ? 1 : 0 } as Condition];
}

/**
 * Which of some entry ids a mode hides (none when `off`): what a list of other records (news)
 * leaves out by the entries they refer to. Ids of entries the store lacks are not hidden.
 * @param records - The store.
 * @param kind - Anime or manga.
 * @param mode - The request's SFW mode.
 * @param among - The ids (the entries a list's records refer to).
 */
export async function hiddenIds(records: CatalogueStore, kind: Kind, mode: SfwMode, among: readonly number[]): Promise<number[]> {
  if (mode === 'off' || among.length === 0) return [];
  const where: Condition[] = [
    { field: 'mal_id', op: 'in', values: among },
    { field: 'sfw', op: 'gt', value: mode === 'normal' ? 1 : 0 },
  ];
  return (await records.pluck(kind, 'mal_id', { where, ...ALL })) as number[];
}

/**
 * The entry ids that the records of a collection matching `where` refer to in a field (each once).
 * @param records - The store.
 * @param collection - Records that refer to entries.
 * @param field - Their field of entry ids.
 * @param where - Which records.
 */
export async function referencedIds(
  records: CatalogueStore,
  collection: 'recommendations' | 'reviews' | 'news',
  field: string,
  where: readonly Condition[],
): Promise<number[]> {
  return (await records.tally(collection, field, where)).map(([id]) => id as number);
}

/**
 * Entries of a kind by id, for the ids that exist (one `getMany` for a list of references).
 * @param records - The store.
 * @param kind - Anime or manga.
 * @param ids - The ids (repeats are fetched once).
 */
export async function entriesById(records: CatalogueStore, kind: Kind, ids: readonly number[]): Promise<Map<number, Anime | Manga>> {
  const unique = ids.length < 2 ? ids : [...new Set(ids)];
  const found = await records.getMany(kind, unique);
  const byId = new Map<number, Anime | Manga>();
  for (let i = 0; i < unique.length; i++) {
    const e = found[i];
    if (e) byId.set(unique[i]!, e);
  }
  return byId;
}
