/**
 * Characters, people, producers, magazines, genres, seasons, schedules, top lists, random picks and
 * the community lists (recommendations, reviews, news, articles, stacks).
 * @module
 */
import type { Catalogue } from './store.js';
import type { CatalogueStore } from '../seam/types.js';
import { airingMethods } from './airing.js';
import { communityMethods } from './feeds.js';
import type { EntryMethods } from './entries.js';
import { namedMethods } from './people.js';
import { postMethods } from './posts.js';
import { producerMethods } from './producers.js';
import { randomMethods } from './random.js';
import { topMethods } from './top.js';

/** Every `Catalogue` method that is not an anime or manga one. */
export type ListMethods = Omit<Catalogue, keyof EntryMethods>;

/**
 * The other methods over a record store.
 * @param records - The record store.
 * @returns The character, person, producer, magazine, genre, season, schedule, top, random and
 * community methods, each answered from records.
 * @example
 * ```ts
 * const lists = listMethods(await loadCatalogue(createRecordStore(), demoData));
 * await lists.getTopCharacters({ page: 1, limit: 25 });
 * ```
 */
export function listMethods(records: CatalogueStore): ListMethods {
  return {
    ...namedMethods(records),
    ...producerMethods(records),
    ...airingMethods(records),
    ...topMethods(records),
    ...randomMethods(records),
    ...communityMethods(records),
    ...postMethods(records),
  };
}
