/**
 * Records answered as the JSON text PostgreSQL holds (core's `parseStoredRecord`): every body is
 * exactly `JSON.stringify` of itself and of what the memory store answers for the same records,
 * also for records whose strings need escapes or hold `/s/` image paths, and for id lists with
 * included fields (written by PostgreSQL as one JSON array); and an entity tag changes when one
 * record of its page does. Needs `DATABASE_URL`.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { suiteDatabase } from './suite-database.js';

const now = () => Date.UTC(2024, 3, 15, 12);
const logger = { error: () => {} };
const appOver = (store: CatalogueStore) =>
  createCatalogueApp({
    store,
    gateway: { rateLimit: false, cache: false },
    now,
    logger,
  });

const anime = demoData.anime!;
/** Strings JSON escapes, characters beyond the BMP, and image paths to resolve, in text and list fields. */
const awkward: Anime[] = [
  {
    ...anime[0]!,
    title: 'Quote " backslash \\ tab \t bell \u0007 DEL \u007f snow ☃ face 😀',
    synopsis: 'line\nbreak </script> \u2028',
  },
  {
    ...anime[1]!,
    title: '/s/ a title that looks like a path',
    images: {
      ...anime[1]!.images,
      jpg: {
        ...anime[1]!.images.jpg,
        image_url: '/s/common/uploaded_files/a.jpg',
      },
    },
  },
];

const TARGETS = [
  ...awkward.flatMap((a) => [`/v1/anime/${a.mal_id}`, `/v1/anime/${a.mal_id}/full`, `/v1/anime/${a.mal_id}/relations`]),
  '/v1/anime?limit=25',
  '/v1/anime?order_by=score&sort=desc&limit=25&sfw',
  '/v1/anime?q=quote',
  '/v1/top/anime',
  '/v1/seasons/now',
  '/v1/anime/ids',
  '/v1/anime/ids?include=title',
  '/v1/anime/ids?include=title,type,airing,episodes',
  // A float column and a field without one: read as before, by the driver.
  '/v1/anime/ids?include=title,score',
  '/v1/anime/ids?include=images&type=movie',
  '/v1/manga/ids?include=title,publishing',
];

describe.skipIf(!process.env.DATABASE_URL)('bodies over PostgreSQL from the stored JSON text', { timeout: 60_000 }, () => {
  const db = suiteDatabase('catalogue_serialized', 4);
  const stores = async () => {
    const pg = await db.fresh();
    await pg.seed(demoData);
    const memory = createMemoryStore(demoData);
    for (const store of [pg, memory]) await store.upsert('anime', awkward);
    return { pg, memory };
  };

  it('are JSON.stringify of themselves and the memory store’s bodies, byte for byte', async () => {
    const { pg, memory } = await stores();
    const [a, b] = [appOver(pg), appOver(memory)];
    for (const target of TARGETS) {
      const [x, y] = await Promise.all([a, b].map(async (app) => (await app.fetch(new Request(`http://localhost${target}`))).text()));
      expect(x, target).toBe(y);
      expect(x, target).toBe(JSON.stringify(JSON.parse(x!)));
    }
    const detail = await (await a.fetch(new Request(`http://localhost/v1/anime/${awkward[1]!.mal_id}`))).json();
    expect(detail.data.images.jpg.image_url).toBe('https://cdn.myanimelist.net/images/s/common/uploaded_files/a.jpg');
    expect(detail.data.title).toBe('https://cdn.myanimelist.net/images/s/ a title that looks like a path');
  });

  it('get a new entity tag when one record of a page or an id list changes, and keep it otherwise', async () => {
    const { pg } = await stores();
    const app = appOver(pg);
    const etag = async (target: string) => (await app.fetch(new Request(`http://localhost${target}`))).headers.get('etag');
    const targets = ['/v1/anime?limit=25', '/v1/anime/ids?include=title', `/v1/anime/${anime[3]!.mal_id}/full`];
    const before = await Promise.all(targets.map(etag));
    expect(await Promise.all(targets.map(etag))).toEqual(before);
    const record = (await pg.get('anime', anime[3]!.mal_id))!;
    // One character of the title: the length of every body stays, its bytes do not.
    await pg.upsert('anime', [
      {
        ...record,
        title: (record.title[0] === 'A' ? 'B' : 'A') + record.title.slice(1),
      },
    ]);
    const after = await Promise.all(targets.map(etag));
    for (let i = 0; i < targets.length; i++) expect(after[i], targets[i]).not.toBe(before[i]);
    await pg.upsert('anime', [record]);
    expect(await Promise.all(targets.map(etag))).toEqual(before);
  });
});
