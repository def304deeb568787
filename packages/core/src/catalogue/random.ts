/**
 * The random picks: the caller supplies a number in [0, 1), and the pick is the record at
 * ⌊pick × count⌋ of the matches in `mal_id` order, so the store stays deterministic.
 * @module
 */
import type { Catalogue, RandomQuery } from './store.js';
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

/** The conditions of a random anime or manga pick. */
const entryWhere = (q: RandomQuery): Condition[] => [...sfwWhere(q.sfw), ...approvalWhere(q.approval)];

/** The random-pick methods of `Catalogue`. */
export type RandomMethods = Pick<Catalogue, 'getRandomAnime' | 'getRandomManga' | 'getRandomCharacter' | 'getRandomPerson'>;

/**
 * The random-pick methods over a record store.
 * @param records - The record store.
 */
export function randomMethods(records: CatalogueStore): RandomMethods {
  return {
    getRandomAnime: (q) => pickOne(records, 'anime', entryWhere(q), q.pick),
    getRandomManga: (q) => pickOne(records, 'manga', entryWhere(q), q.pick),
    getRandomCharacter: (pick) => pickOne(records, 'characters', [], pick),
    getRandomPerson: (pick) => pickOne(records, 'people', [], pick),
  };
}
