/**
 * The example of packages/demo-data/README.md; examples.test.ts runs it.
 * @module
 */
// #region demo-data
import { createMemoryStore } from '@catalogue-api/core';
import { demoAnime, demoData } from '@catalogue-api/demo-data';

export const bebop = demoAnime.find((anime) => anime.mal_id === 1); // plain Jikan v4 records
export const counts = Object.entries(demoData).map(([resource, records]) => `${resource}: ${records.length}`);
export const store = createMemoryStore(demoData); // or seed a PostgreSQL store with it
// #endregion demo-data
