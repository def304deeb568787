/**
 * Writing a whole `CatalogueData` into a store, collection by collection.
 * @module
 */
import type { CatalogueData } from './collections.js';
import { COLLECTION_NAMES } from './collections.js';
import type { CatalogueStore } from './types.js';

/**
 * Upserts every collection of a dataset into a store, in `COLLECTION_NAMES` order, in batches.
 * @param store - The store.
 * @param data - e.g. `demoData`.
 * @param batch - Records per `upsert` call. @default 5000
 * @returns The store.
 */
export async function loadCatalogue<S extends CatalogueStore>(store: S, data: CatalogueData, batch = 5000): Promise<S> {
  for (const name of COLLECTION_NAMES) {
    const records = (data[name] ?? []) as readonly never[];
    for (let i = 0; i < records.length; i += batch) await store.upsert(name, records.slice(i, i + batch));
  }
  return store;
}
