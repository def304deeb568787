/**
 * A `/full` answer follows every record it is made from, on the PostgreSQL store: the memory
 * store's cases (`packages/core/test/full-changes.ts`). Needs `DATABASE_URL`; the run uses its own
 * schema and drops it.
 */
import { describe, it } from 'vitest';
import { createCatalogueApp } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { checkFullChanges } from '../../core/test/full-changes.js';
import { suiteDatabase } from './suite-database.js';

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL /full after a change', () => {
  const { fresh } = suiteDatabase('pgseam_full_changes', 2);

  it('answers a change to any record of a /full on the next request, with the cache off', async () => {
    const store = await fresh();
    await store.seed(demoData);
    const app = createCatalogueApp({ store, gateway: { rateLimit: false, cache: false }, logger: { error: () => {} } });
    await checkFullChanges(app, store, demoData.anime!);
  }, 120_000);
});
