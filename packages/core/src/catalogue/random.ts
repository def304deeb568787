/**
 * The random picks: the caller supplies a number in [0, 1), and the pick is the record at
 * ⌊pick × count⌋ of the matches in `mal_id` order, so the store stays deterministic.
 * @module
 */
import type { RandomQuery } from './queries.js';
import type { MediaKind } from './kinds.js';
import type { CollectionName, CollectionRecord } from '../seam/collections.js';
import type { Condition, CatalogueStore } from '../seam/types.js';
import { approvalWhere } from './kinds.js';
import { BY_ID } from './named.js';
import { sfwWhere } from './shared.js';

/**
 * The record at ⌊pick × count⌋ of those matching, in `mal_id` order: one count, then one record.
 * @returns The record, or `undefined` when nothing matches (or `pick` is outside [0, 1)).
 */
async function pickOne<C extends CollectionName>(records: CatalogueStore, collection: C, where: readonly Condition[], pick: number): Promise<CollectionRecord<C> | undefined> {
  const { total } = await records.query(collection, { where, offset: 0, limit: 0 });
  const k = Math.floor(pick * total);
  if (!(k >= 0 && k < total)) return undefined;
  return (await records.query(collection, { where, orderBy: [BY_ID], offset: k, limit: 1, count: false })).data[0];
}

/**
 * A random anime or manga among those the query's SFW and approval filters let through.
 * @param records - The record store.
 * @param kind - Anime or manga.
 * @param q - The filters and the pick.
 * @returns The pick; `undefined` only when nothing matches.
 */
export function randomEntry<K extends MediaKind>(records: CatalogueStore, kind: K, q: RandomQuery): Promise<CollectionRecord<K> | undefined> {
  return pickOne(records, kind, [...sfwWhere(q.sfw), ...approvalWhere(q.approval)], q.pick);
}

/**
 * A random character or person: the one at position ⌊`pick` × count⌋ in `mal_id` order.
 * @param records - The record store.
 * @param collection - `characters` or `people`.
 * @param pick - A number in [0, 1).
 */
export function randomNamed<C extends 'characters' | 'people'>(records: CatalogueStore, collection: C, pick: number): Promise<CollectionRecord<C> | undefined> {
  return pickOne(records, collection, [], pick);
}
