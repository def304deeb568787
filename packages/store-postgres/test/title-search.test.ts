/**
 * Title search of the PostgreSQL store (`pg_trgm`), on the small catalogue of real titles the memory
 * store's title-search test uses (`packages/core/test/title-search-cases.ts`), with the same answers:
 * manga are found by their English titles, and fuzzy hits sharing no word with the query do not
 * follow hits that do. Needs `DATABASE_URL`; the run uses its own schema and drops it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@catalogue-api/core';
import { answersOf } from '@catalogue-api/testkit';
import { closeQuery, createWordSimilarity } from '../../core/src/seam/word-similarity.js';
import { normalizeTitle } from '../../core/src/seam/search.js';
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

  it.each(['frieren', 'one piece', 'kanojo', 'shingeki no kyoijn', 'tomodachi', 'kimi no na', 'sousou frieeren', 'attack titan'])(
    'keeps the same hits as the memory store for %j, in the same order',
    async (q) => {
      for (const kind of ['anime', 'manga'] as const) {
        const [pg, mem] = await Promise.all([hits(store, kind, q), memory<{ mal_id: number }[]>(`/v1/${kind}?q=${encodeURIComponent(q)}&unapproved`)]);
        expect(pg.ids, `${kind} ${q}`).toEqual(mem!.data.map((e) => e.mal_id));
      }
    },
  );

  it("measures word similarity as the memory store does, to the last bit of PostgreSQL's real", async () => {
    const texts = [...new Set(titleSearchData.anime!.flatMap((a) => [a.title, a.title_english ?? '', ...a.title_synonyms]).map(normalizeTitle))].filter(Boolean);
    const queries = ['frieren', 'sousou no frieeren', 'shingeki no kyoijn', 'one piece one', 'kimi no na wa', 'attack on titan final season', 'abcd'];
    let compared = 0;
    for (const q of queries) {
      const close = closeQuery(q)!;
      const similarity = createWordSimilarity(close);
      const rows = await store.sql<{ t: string; w: number }[]>`select t, word_similarity(${close}, t) as w from unnest(${texts}::text[]) t`;
      for (const { t, w } of rows) expect(similarity(t), `${close} / ${t}`).toBe(Math.fround(w));
      compared += rows.length;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
