/** A `/full` answer follows every record it is made from, on the memory store (cases: `full-changes.ts`). */
import { it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createCatalogueApp, createMemoryStore } from '../src/index.js';
import { checkFullChanges } from './full-changes.js';

it('answers a change to any record of a /full on the next request, with the cache off', async () => {
  const store = createMemoryStore(demoData);
  const app = createCatalogueApp({ store, gateway: { rateLimit: false, cache: false }, logger: { error: () => {} } });
  await checkFullChanges(app, store, demoData.anime!);
});
