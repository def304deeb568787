/**
 * Title search through `GET /v1/anime` and `GET /v1/manga` on the memory store: manga are found by
 * the same titles as anime (English included), and fuzzy hits sharing no word with the query do not
 * follow hits that do. The PostgreSQL store runs the same cases (`store-postgres`'s title-search test).
 * @module
 */
import { describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { createCatalogueApp, createMemoryStore } from '../src/index.js';
import { type Character } from '../src/entry-schemas.js';
import { TITLE_SEARCH_CASES, titleSearchData } from './title-search-cases.js';

const app = createCatalogueApp({ store: createMemoryStore(titleSearchData), gateway: false });

describe('title search (memory store)', () => {
  it.each(TITLE_SEARCH_CASES.map((c) => [c.kind, c.q, c] as const))('/v1/%s?q=%s', async (kind, q, { ids, first, starts }) => {
    const response = await app.fetch(new Request(`http://localhost/v1/${kind}?q=${encodeURIComponent(q)}`));
    expect(response.status).toBe(200);
    const found = ((await response.json()) as { data: { mal_id: number }[] }).data.map((e) => e.mal_id);
    if (ids) expect(found).toEqual(ids);
    if (first !== undefined) expect(found[0]).toBe(first);
    if (starts) expect(found.slice(0, starts.length)).toEqual(starts);
  });
});

describe('name search (memory store, the same index)', () => {
  const character = (mal_id: number, name: string, nicknames: string[] = []): Character => ({ ...demoData.characters![0]!, mal_id, name, name_kanji: null, nicknames });
  const names = createCatalogueApp({
    store: createMemoryStore({
      characters: [character(184947, 'Frieren'), character(184948, 'Fern'), character(184949, 'Girlfriend, Rent-a', ['Rent-a-Girlfriend']), character(184950, 'Friend, Haganai')],
    }),
    gateway: false,
  });

  it('/v1/characters?q=frieren lists Frieren, not names sharing no word with it', async () => {
    const response = await names.fetch(new Request('http://localhost/v1/characters?q=frieren'));
    expect(((await response.json()) as { data: { mal_id: number }[] }).data.map((c) => c.mal_id)).toEqual([184947]);
  });
});
