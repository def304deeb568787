/**
 * Characters, people, producers, magazines, genres, seasons, schedules, top lists, random picks and
 * the community lists (recommendations, reviews, news, articles, stacks).
 * @module
 */
import type { CatalogueStore } from '../store.js';
import type { RecordStore } from '../seam/types.js';
import type { EntryMethods } from './entries.js';

/** Every `CatalogueStore` method that is not an anime or manga one. */
export type ListMethods = Omit<CatalogueStore, keyof EntryMethods>;

/**
 * The other methods over a record store.
 * @param records - The record store.
 */
export function listMethods(records: RecordStore): ListMethods {
  void records;
  return {} as ListMethods; // not written yet
}
