/**
 * Latency of a few seam queries on the PostgreSQL record store at full scale: p50 and p99 of anime
 * title search, browsing by score (page 10), the characters of the most popular anime (an `owners`
 * query), the top list's first page and a tally of anime tags. Reads a schema filled by the
 * importer (`catalogue-api import … --schema pgseam_bench`, from `npm run build:bench-data`).
 *
 * Usage: `DATABASE_URL=… tsx bench/seam-postgres.ts [schema]`.
 * @module
 */
import type { RecordQuery } from '@catalogue-api/core/store';
import { createPostgresStore } from '../packages/store-postgres/src/catalogue-store.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(2);
}
const store = createPostgresStore({ url, schema: process.argv[2] ?? 'pgseam_bench', max: 2 });
const ROUNDS = Number(process.env.ROUNDS ?? 200);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(name: string, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 10; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(44)} p50 ${quantile(times, 0.5).toFixed(2).padStart(7)} ms   p99 ${quantile(times, 0.99).toFixed(2).padStart(7)} ms`);
}

const approved = { field: 'approved', op: 'eq', value: true } as const;
const popular = (await store.query('anime', { where: [{ field: 'popularity', op: 'notNull' }], orderBy: [{ field: 'popularity', dir: 'asc' }], offset: 0, limit: 200, select: ['mal_id', 'title'] })).data as Array<{ mal_id: number; title: string }>;
const titles = popular.map((a) => a.title);
const words = titles.map((t) => t.split(' ')[0]!.toLowerCase());

await measure('anime search q (exact titles)', (i) => store.query('anime', { search: titles[i % titles.length], where: [approved], offset: 0, limit: 25 }));
await measure('anime search q (first words)', (i) => store.query('anime', { search: words[i % words.length], where: [approved], offset: 0, limit: 25 }));
const browse: RecordQuery = { where: [approved], orderBy: [{ field: 'score', dir: 'desc' }, { field: 'mal_id', dir: 'asc' }], offset: 225, limit: 25 };
await measure('anime by score desc, page 10', () => store.query('anime', browse));
await measure('characters of the most popular anime', (i) =>
  store.query('animeCharacters', { where: [{ field: 'owners', op: 'has', value: `anime:${popular[i % 10]!.mal_id}` }], offset: 0, limit: 1000 }),
);
const top: RecordQuery = { where: [{ field: 'rank', op: 'notNull' }, approved], orderBy: [{ field: 'rank', dir: 'asc' }, { field: 'mal_id', dir: 'asc' }], offset: 0, limit: 25 };
await measure('top anime by rank, page 1', () => store.query('anime', top));
await measure('tally of anime tags', () => store.tally('anime', 'tags'));
await measure('tally of anime tags (sfw 0, approved)', () => store.tally('anime', 'tags', [{ field: 'sfw', op: 'eq', value: 0 }, approved]));
await measure('anime by key', (i) => store.get('anime', popular[i % popular.length]!.mal_id));
await store.close();
