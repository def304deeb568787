// #region contract
import { demoData } from '@catalogue-api/demo-data';
import { defineStoreContract } from '@catalogue-api/testkit';
import { createMyStore, type AnimeTable } from './custom-store.js';

const byId = new Map(demoData.anime.map((anime) => [anime.mal_id, anime]));
const table: AnimeTable = { findById: async (id) => byId.get(id) };

// The same suite the memory and PostgreSQL stores pass: lookups, filters, ordering, SFW, paging, search.
defineStoreContract('my store', () => createMyStore(table, demoData));
// #endregion contract
