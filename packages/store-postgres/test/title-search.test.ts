/**
 * Title search of the PostgreSQL store (`pg_trgm`), on the small catalogue of real titles the memory
 * store's title-search test uses (`packages/core/test/title-search-cases.ts`), with the same answers:
 * manga are found by their English titles, and fuzzy hits sharing no word with the query do not
 * follow hits that do. Needs `DATABASE_URL`; the run uses its own schema and drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres, { type Sql } from 'postgres';
import { createMemoryStore } from '@catalogue-api/core';
import { TITLE_SEARCH_CASES, titleSearchData } from '../../core/test/title-search-cases.js';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';

const url = process.env.DATABASE_URL;
const search = { page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' } as const;

describe.skipIf(!url)('PostgreSQL title search', () => {
  let sql: Sql;
  let store: PostgresStore;
  const memory = createMemoryStore(titleSearchData);
  const schema = `catalogue_titles_${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    sql = postgres(url!, { max: 2, onnotice: () => {} });
    store = createPostgresStore({ sql, schema });
    await store.migrate();
    await store.seed(titleSearchData);
  });

  afterAll(async () => {
    await sql?.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql?.end({ timeout: 5 });
  });

  it.each(TITLE_SEARCH_CASES.map((c) => [c.kind, c.q, c] as const))('%s q=%s', async (kind, q, { ids, first }) => {
    const page = kind === 'anime' ? await store.searchAnime({ ...search, q }) : await store.searchManga({ ...search, q });
    const found = page.data.map((e) => e.mal_id);
    if (ids) expect(found).toEqual(ids);
    if (first !== undefined) expect(found[0]).toBe(first);
    expect(page.total).toBe(found.length);
  });

  it.each(['frieren', 'one piece', 'kanojo', 'shingeki no kyoijn', 'tomodachi'])('keeps the same hits as the memory store for %j', async (q) => {
    for (const kind of ['anime', 'manga'] as const) {
      const [pg, mem] = await Promise.all(
        kind === 'anime' ? [store.searchAnime({ ...search, q }), memory.searchAnime({ ...search, q })] : [store.searchManga({ ...search, q }), memory.searchManga({ ...search, q })],
      );
      expect(pg.data.map((e) => e.mal_id).sort(), `${kind} ${q}`).toEqual(mem.data.map((e) => e.mal_id).sort());
    }
  });
});
