/**
 * A CatalogueStore of your own: anime lookups from your database, everything else delegated.
 * Shown in docs/custom-store.md; checked by custom-store.test.ts with the store contract.
 * @module
 */
// #region store
import { createMemoryStore, type Anime, type CatalogueData, type CatalogueStore } from '@catalogue-api/core';

/** Stands in for your database client. */
export interface AnimeTable {
  findById(id: number): Promise<Anime | undefined>;
}

export function createMyStore(table: AnimeTable, data: CatalogueData): CatalogueStore {
  // Start from the memory store for every method you have not pushed down yet...
  const fallback = createMemoryStore(data);
  return {
    ...fallback,
    // ...and replace methods one by one. Return plain, spec-shaped records; `undefined` means 404.
    async getAnime(id) {
      return table.findById(id);
    },
  };
}
// #endregion store
