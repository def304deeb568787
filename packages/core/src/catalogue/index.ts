/**
 * Every endpoint's logic over the record seam, written once: `catalogueOver(records)` answers the
 * endpoint-shaped `Catalogue` interface from a `CatalogueStore`, so the routes run unchanged over
 * any record store while they move to declarative rows.
 * @module
 */
import type { Catalogue } from './store.js';
import type { CatalogueStore } from '../seam/types.js';
import { entryMethods } from './entries.js';
import { listMethods } from './lists.js';

/**
 * The endpoint methods over a record store.
 * @param records - The record store.
 * @returns An endpoint-shaped store whose every answer is computed in core from records.
 */
export function catalogueOver(records: CatalogueStore): Catalogue {
  return { ...entryMethods(records), ...listMethods(records) };
}
