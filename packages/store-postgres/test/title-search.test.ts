/**
 * Title search of the PostgreSQL store (`pg_trgm`), on the small catalogue of real titles the memory
 * store's title-search test uses (`packages/core/test/title-search-cases.ts`), with the same answers:
 * manga are found by their English titles, and fuzzy hits sharing no word with the query do not
 * follow hits that do. Needs `DATABASE_URL`; the run uses its own schema and drops it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@catalogue-api/core';
import { answersOf } from '@catalogue-api/testkit';
import { TITLE_SEARCH_CASES, titleSearchData } from '../../core/test/title-search-cases.js';
import type { PostgresStore } from '../src/catalogue-store.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;

/** The first 25 hits of a search of the store, as `GET /v1/anime?q=` asks it with no filter. */
async function hits(store: PostgresStore, kind: 'anime' | 'manga', q: string): Promise<{ ids: number[]; total: number }> {
  const page = await store.query(kind, { search: q, offset: 0, limit: 25, select: ['mal_id'] });
  return { ids: page.data.map((e) => (e as { mal_id: number }).mal_id), total: page.total };
}

describe.skipIf(!url)('PostgreSQL title search', () => {
  const { fresh } = suiteDatabase('pgseam_titles', 2);
  let store: PostgresStore;
  const memory = answersOf(createMemoryStore(titleSearchData));

  beforeAll(async () => {
    store = await fresh();
    await store.seed(titleSearchData);
  });

  it.each(TITLE_SEARCH_CASES.map((c) => [c.kind, c.q, c] as const))('%s q=%s', async (kind, q, { ids, first, starts }) => {
    const page = await hits(store, kind, q);
    const found = page.ids;
    if (ids) expect(found).toEqual(ids);
    if (first !== undefined) expect(found[0]).toBe(first);
    if (starts) expect(found.slice(0, starts.length)).toEqual(starts);
    expect(page.total).toBe(found.length);
  });

  it.each(['frieren', 'one piece', 'kanojo', 'shingeki no kyoijn', 'tomodachi'])('keeps the same hits as the memory store for %j', async (q) => {
    for (const kind of ['anime', 'manga'] as const) {
      const [pg, mem] = await Promise.all([hits(store, kind, q), memory<{ mal_id: number }[]>(`/v1/${kind}?q=${encodeURIComponent(q)}&unapproved`)]);
      expect(pg.ids.sort(), `${kind} ${q}`).toEqual(mem!.data.map((e) => e.mal_id).sort());
    }
  });
});
