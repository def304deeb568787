/**
 * Search over named records (characters, people, producers, magazines): relevance with `q`, else
 * the requested order, else `mal_id`; `letter` tests the lower-cased name.
 * @module
 */
import type { NamedSearch, Page } from './queries.js';
import type { CollectionRecord } from '../seam/collections.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { slice } from './shared.js';

/** The collections of named records; each declares a lower-cased `name` field. */
export type NamedCollection = 'characters' | 'people' | 'producers' | 'magazines';

/** `mal_id` ascending: the order of a plain list, and the last key of every other. */
export const BY_ID: OrderKey = { field: 'mal_id', dir: 'asc' };

/**
 * One page of a named-record search.
 * @param records - The record store.
 * @param collection - Which records.
 * @param s - The search: `q`, `order_by` (a field the collection orders by), `sort`, `letter`, paging.
 * @returns The page, in relevance order with `q` and no `order_by`, else by `order_by` (ties by `mal_id`).
 */
export function searchNamed<C extends NamedCollection>(records: CatalogueStore, collection: C, s: NamedSearch<string>): Promise<Page<CollectionRecord<C>>> {
  const letter = s.letter?.toLowerCase();
  const where: Condition[] = letter ? [{ field: 'name', op: 'prefix', value: letter }] : [];
  const orderBy = s.order_by ? [{ field: s.order_by, dir: s.sort }, BY_ID] : s.q === undefined ? [BY_ID] : undefined;
  return records.query(collection, { where, search: s.q, orderBy, ...slice(s) });
}
