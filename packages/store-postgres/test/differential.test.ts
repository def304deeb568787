/**
 * Every route of the OpenAPI document answered by the catalogue over PostgreSQL and over the memory
 * store, byte for byte (the differential contract of `@catalogue-api/testkit`, a few thousand
 * requests with filters, orders, SFW modes, pages and unknown ids): on the demo data as seeded, and
 * again after the same upserts and deletes were written to both stores (changed titles and scores,
 * an entry turned adult, a new entry, deleted entries that other records still refer to). Fuzzy `q`
 * searches are compared by their first hit for exact titles only. Needs `DATABASE_URL`.
 */
import { describe, it } from 'vitest';
import postgres from 'postgres';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { defineDifferentialContract, type FetchHandler } from '@catalogue-api/testkit';
import { throwawaySchemas } from './schemas.js';

const url = process.env.DATABASE_URL;

// A fixed clock (inside a demo season, for /v1/seasons/now) and a fixed pick for /v1/random/*.
const now = () => Date.UTC(2024, 3, 15, 12);
const random = () => 0.42;
// A 500 is reported by the comparison; its log lines would only bury it.
const logger = { error: () => {} };
const appOver = (store: CatalogueStore): FetchHandler => createCatalogueApp({ store, gateway: false, now, random, logger }).fetch;

/**
 * The same writes for both stores: what a refresh of the catalogue does between two requests.
 * Every change reaches some list: titles (search, `letter`, title orders), scores (top lists and
 * `order_by=score`), a rating that makes an entry adult (SFW of news and reviews that name it), a
 * new entry in a demo season, and deletes of records other records refer to.
 */
async function write(store: CatalogueStore): Promise<void> {
  const anime = demoData.anime!;
  const changed: Anime[] = anime.slice(0, 3).map((a, i) => ({ ...a, title: `${a.title} (Rewritten ${i})`, score: 9.99 - i / 100 }));
  const inNews = anime.find((a) => demoData.news!.some((n) => n.anime_ids.includes(a.mal_id)) && a.rating !== 'Rx - Hentai')!;
  const adult: Anime = { ...inNews, rating: 'Rx - Hentai' };
  const added: Anime = { ...anime[4]!, mal_id: 999_001, title: 'Differential Newcomer', titles: [{ type: 'Default', title: 'Differential Newcomer' }], season: 'spring', year: 2024 };
  await store.upsert('anime', [...changed, adult, added]);
  const character = { ...demoData.characters![3]!, favorites: 999_999 };
  await store.upsert('characters', [character]);
  // Still referenced by relations, recommendations, cast rows and news: those lists must drop them
  // alike. None is a record whose exact title the contract searches for (every n-th from the first):
  // with it gone, which fuzzy hit comes first is each store's own ranking.
  await store.delete('anime', [anime[5]!.mal_id, anime[8]!.mal_id]);
  await store.delete('manga', [demoData.manga![2]!.mal_id]);
  await store.delete('characters', [demoData.characters![1]!.mal_id]);
}

if (url) {
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  const schemas = throwawaySchemas(sql, 'catalogue_differential');
  const seeded = async () => {
    const store = await schemas.fresh();
    await store.seed(demoData);
    return store;
  };
  let done = 0;
  // The second suite ends the client.
  const cleanup = async () => {
    await schemas.cleanup();
    if (++done === 2) await sql.end({ timeout: 5 });
  };

  defineDifferentialContract('memory store vs PostgreSQL, as seeded', async () => ({ a: appOver(createMemoryStore(demoData)), b: appOver(await seeded()) }), { cleanup });

  defineDifferentialContract(
    'memory store vs PostgreSQL, right after an upsert and a delete',
    async () => {
      const memory = createMemoryStore(demoData);
      const pg = await seeded();
      await write(memory);
      await write(pg);
      return { a: appOver(memory), b: appOver(pg) };
    },
    { cleanup },
  );
} else {
  // A named skip, not a silent one: without a database there is nothing to compare with.
  describe.skip('differential: memory store vs PostgreSQL (DATABASE_URL is not set)', () => {
    it('needs DATABASE_URL', () => {});
  });
}
