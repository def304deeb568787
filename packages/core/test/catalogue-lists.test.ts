/**
 * Every route of the OpenAPI document answered byte for byte the same over the plain reference
 * record store as over the indexed memory store (packages/testkit/src/differential.ts), on a
 * dataset of their own: the demo data stored in reverse order, with some referenced entries, a
 * character and a person missing. The demo data itself, and its ordered collections written in
 * reverse, are compared in `differential.test.ts`.
 */
import { createCatalogueApp, createMemoryStore } from '../src/index.js';
import { createRecordStore, loadCatalogue, type CatalogueData, type CatalogueStore } from '../src/entry-store.js';
import { demoData } from '../../demo-data/src/index.js';
import { defineDifferentialContract, type FetchHandler } from '../../testkit/src/differential.js';

// A fixed clock (inside a demo season, for /v1/seasons/now) and a fixed pick for /v1/random/*.
const now = () => Date.UTC(2024, 3, 15, 12);
const random = () => 0.42;
// A 500 is reported by the comparison; its log lines would only bury it.
const logger = { error: () => {} };
const appOver = (store: CatalogueStore): FetchHandler => createCatalogueApp({ store, gateway: false, now, random, logger }).fetch;

/**
 * The demo data stored in reverse order (so no answer may lean on the stored order where the memory
 * store orders by a key), without two referenced anime, two referenced manga, a cast character and
 * a voice actor (so every list must leave out what it cannot show).
 */
function variant(): CatalogueData {
  const recs = demoData.recommendations!;
  const gone = {
    anime: new Set([recs.find((r) => r.type === 'anime')!.entry_ids[1], demoData.reviews!.find((r) => r.type === 'anime')!.entry_id]),
    manga: new Set([recs.find((r) => r.type === 'manga')!.entry_ids[0], demoData.reviews!.find((r) => r.type === 'manga')!.entry_id]),
    characters: new Set([demoData.animeCharacters![0]!.character_id]),
    people: new Set([demoData.animeCharacters!.find((r) => r.voice_actors.length > 0)!.voice_actors[0]!.person_id]),
  };
  const out: Record<string, readonly unknown[]> = {};
  for (const [name, list] of Object.entries(demoData) as [string, readonly { mal_id?: number }[]][]) {
    const drop = gone[name as keyof typeof gone];
    out[name] = [...list].reverse().filter((r) => !drop?.has(r.mal_id!));
  }
  return out as CatalogueData;
}

defineDifferentialContract('memory store vs reference record store, demo data reversed with references missing', async () => {
  const data = variant();
  return { a: appOver(createMemoryStore(data)), b: appOver(await loadCatalogue(createRecordStore(), data)) };
});
