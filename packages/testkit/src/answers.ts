/**
 * A store's answers as a Jikan client reads them: the catalogue app over the store (no gateway, so
 * no cache and no rate limits), asked through its `fetch` door. Tests of a store, of an import or
 * of the refresher read what the API serves, not an internal interface.
 * @module
 */
import { createCatalogueApp, type CatalogueAppOptions } from '@catalogue-api/core';
import type { CatalogueStore } from '@catalogue-api/core/store';

/** A 200 body: `data` and, on a list, its `pagination`. */
export interface Answer<T = any> {
  data: T;
  pagination?: { last_visible_page: number; has_next_page: boolean; current_page?: number; items?: { count: number; total: number; per_page: number } };
}

/**
 * Reads a store's answers by request target.
 * @param store - The store under test.
 * @param options - More options of the catalogue app (an injected `now` or `random`).
 * @returns `get(target)`: the parsed 200 body, `undefined` for a 404; anything else throws with
 *   the status and body, so that a test never mistakes an error for an answer.
 * @example
 * ```ts
 * const get = answersOf(createMemoryStore(demoData));
 * const { data } = (await get('/v1/anime/20/full'))!;
 * ```
 */
export function answersOf(store: CatalogueStore, options: Omit<CatalogueAppOptions, 'store' | 'gateway'> = {}): <T = any>(target: string) => Promise<Answer<T> | undefined> {
  const app = createCatalogueApp({ ...options, store, gateway: false });
  return async (target) => {
    const response = await app.fetch(new Request(`http://catalogue.test${target}`));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw new Error(`${target}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Answer;
  };
}
