// #region contract
import { defineStoreContract } from '@catalogue-api/testkit';
import { createMapStore } from './custom-store.js';

// The suite every record store passes: it loads the demo data through your `upsert`, then checks
// lookups, every condition, ordering, paging, select, tally, search and writes.
defineStoreContract('my map store', () => createMapStore());
// #endregion contract
