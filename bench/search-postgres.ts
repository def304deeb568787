/**
 * Search latency and quality of the PostgreSQL store at full scale: imports the 30k-anime
 * benchmark set through the importer (zod-validated, batched upserts; the import rate is reported),
 * then times the search `GET /v1/anime` runs (`searchEntries`) for the labelled battery, one- and
 * two-letter and 200-character queries, and filter/order queries without `q` (p50/p99), and
 * compares hit@1 / hits@10 with the memory store on the same data, plus how many of the memory
 * store's top 10 the PostgreSQL store also returns.
 *
 * Usage: `DATABASE_URL=postgres://… npx tsx --tsconfig packages/store-postgres/test/tsconfig.json
 * bench/search-postgres.ts [--demo] [--json] [--passes N] [--reimport]` (needs `npm run
 * build:bench-data` unless `--demo`). The data stays in the schema `catalogue_bench` between runs
 * (re-imported when its size differs, or with `--reimport`). With `--json` the last stdout line is
 * the result as JSON.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMemoryStore } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import type { AnimeSearch, CatalogueStore } from '@catalogue-api/core/store';
import { ANIME } from '../packages/core/src/catalogue/kinds.ts';
import { searchEntries } from '../packages/core/src/catalogue/media-search.ts';
import { createPostgresStore } from '../packages/store-postgres/src/catalogue-store.ts';
import { importFile, toStoreSink } from '../packages/store-postgres/src/import.ts';
import { buildBattery, latencyQueries, percentile, scoreBattery } from './lib/battery.ts';
import { ndjsonOf } from './lib/ndjson.ts';

let options: { demo?: boolean; json?: boolean; reimport?: boolean; passes?: string };
try {
  ({ values: options } = parseArgs({
    options: { demo: { type: 'boolean' }, json: { type: 'boolean' }, reimport: { type: 'boolean' }, passes: { type: 'string' } },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\nusage: search-postgres.ts [--demo] [--json] [--passes N] [--reimport]`);
  process.exit(2);
}
const { demo = false, json = false, reimport = false } = options;
const passes = Number(options.passes ?? 2);
if (!Number.isInteger(passes) || passes < 1) {
  console.error(`--passes must be a positive integer, got "${options.passes}"`);
  process.exit(2);
}
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(2);
}
const benchFile = fileURLToPath(new URL('./.data/anime.json', import.meta.url));
const demoFile = fileURLToPath(new URL('../packages/demo-data/data/anime.json', import.meta.url));
const file = demo ? demoFile : benchFile;
if (!existsSync(file)) {
  console.error('bench/.data/anime.json is missing: run `npm run build:bench-data` first (or pass --demo).');
  process.exit(2);
}

const anime = JSON.parse(readFileSync(file, 'utf8')) as Anime[];
const schema = demo ? 'catalogue_bench_demo' : 'catalogue_bench';
const store = createPostgresStore({ url, schema, max: 4 });
let importStats: { records: number; seconds: number; perSecond: number; rejected: number } | undefined;
if (reimport || (await store.sql`select 1 from pg_namespace where nspname = ${schema}`).length === 0 || (await store.count('anime')) !== anime.length) {
  await store.sql.unsafe(`drop schema if exists "${schema}" cascade`);
  await store.migrate();
  const started = performance.now();
  const summary = await importFile(demo ? file : ndjsonOf(file, anime), { resource: 'anime', sink: toStoreSink(store), batchSize: 1000 });
  const seconds = (performance.now() - started) / 1000;
  importStats = { records: summary.imported, seconds, perSecond: summary.imported / seconds, rejected: summary.rejected.length };
}
// A kept schema may be older than the store: migrate it, and ready its indexes and statistics either way.
await store.migrate();
await store.analyze();

const memory = createMemoryStore({ anime });
const base: AnimeSearch = { page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' };
const battery = buildBattery(anime);
const { short, long } = latencyQueries(anime);

/** Filter and order queries without q: what list pages and the top/season endpoints cost. */
const FILTERS: Partial<AnimeSearch>[] = [
  {},
  { approval: 'approved' },
  { order_by: 'score', sort: 'desc' },
  { order_by: 'members', sort: 'desc', page: 40 },
  { order_by: 'popularity' },
  { order_by: 'title', page: 200 },
  { order_by: 'start_date', sort: 'desc', sfw: 'strict' },
  { type: ['TV'], order_by: 'score', sort: 'desc', sfw: 'normal' },
  { type: ['Movie', 'OVA'], status: 'Finished Airing' },
  { genres: [1, 2] },
  { genres: [1], genres_exclude: [9, 12], order_by: 'rank' },
  { producers: [1, 14, 18] },
  { rating: ['PG-13 - Teens 13 or older'], min_score: 8 },
  { letter: 'k', order_by: 'title' },
  { start_date: { first: '2010-01-01', last: '2010-12-31' }, end_date: { first: '2015-01-01', last: '2015-12-31' } },
  { page: 1000, limit: 25 },
  { page: 600, limit: 50, order_by: 'favorites', sort: 'desc' },
  { q: 'shingeki', type: ['TV'], sfw: 'strict' },
  { q: 'no', order_by: 'score', sort: 'desc' },
];

/** The search `GET /v1/anime` runs over a store, with the base query's defaults. */
const searchAnime = (s: CatalogueStore, search: Partial<AnimeSearch>) => searchEntries(s, ANIME, { ...base, ...search });

async function ids(s: CatalogueStore, search: Partial<AnimeSearch>): Promise<number[]> {
  return (await searchAnime(s, search)).data.map((a) => a.mal_id);
}

// Warm-up pass, which is also the quality pass.
const pgResults: number[][] = [];
const memResults: number[][] = [];
for (const query of battery) {
  pgResults.push(await ids(store, { q: query.q }));
  memResults.push(await ids(memory, { q: query.q }));
}
let overlap = 0;
let top1 = 0;
battery.forEach((_, i) => {
  const mem10 = memResults[i]!.slice(0, 10);
  const pg10 = new Set(pgResults[i]!.slice(0, 10));
  overlap += mem10.length === 0 ? 1 : mem10.filter((id) => pg10.has(id)).length / mem10.length;
  if (pgResults[i]![0] === memResults[i]![0]) top1++;
});

async function time(searches: readonly Partial<AnimeSearch>[]): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < passes; r++) {
    for (const search of searches) {
      const start = performance.now();
      await searchAnime(store, search);
      samples.push(performance.now() - start);
    }
  }
  return samples;
}
const stats = (samples: number[]) => ({ n: samples.length, p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99), max: Math.max(...samples) });
for (const f of FILTERS) await searchAnime(store, f);

const result = {
  dataset: demo ? 'demo' : 'full',
  entries: anime.length,
  import: importStats,
  battery: stats(await time(battery.map((b) => ({ q: b.q })))),
  filters: stats(await time(FILTERS)),
  short: stats(await time(short.map((q) => ({ q })))),
  long200: stats(await time(long.map((q) => ({ q })))),
  recall: { postgres: scoreBattery(battery, pgResults), memory: scoreBattery(battery, memResults) },
  /** Mean share of the memory store's top 10 that the PostgreSQL store also returns in its top 10. */
  top10OverlapWithMemory: overlap / battery.length,
  /** Share of queries where both stores rank the same entry first. */
  sameTopHit: top1 / battery.length,
};
await store.close();

const f = (n: number) => n.toFixed(2);
if (!json || process.stderr.isTTY) {
  const log = json ? console.error : console.log;
  log(`PostgreSQL store, ${result.dataset}: ${anime.length} anime`);
  if (importStats) {
    log(`  import      ${importStats.records} records in ${importStats.seconds.toFixed(1)} s = ${Math.round(importStats.perSecond)}/s (zod-validated, 1000 per transaction), ${importStats.rejected} rejected`);
  }
  for (const [name, s] of [['battery', result.battery], ['filters', result.filters], ['1–2 letters', result.short], ['200 chars', result.long200]] as const) {
    log(`  ${name.padEnd(12)} n=${s.n} p50 ${f(s.p50)} ms  p90 ${f(s.p90)}  p99 ${f(s.p99)}  max ${f(s.max)}`);
  }
  for (const [kind, r] of Object.entries(result.recall.postgres)) {
    const m = result.recall.memory[kind as keyof typeof result.recall.memory];
    log(`  ${kind.padEnd(8)} postgres hit@1 ${r.hit1}/${r.n} hits@10 ${r.hit10}/${r.n}   memory hit@1 ${m.hit1}/${m.n} hits@10 ${m.hit10}/${m.n}`);
  }
  log(`  vs memory: same top hit ${(result.sameTopHit * 100).toFixed(1)}%, top-10 overlap ${(result.top10OverlapWithMemory * 100).toFixed(1)}%`);
}
if (json) console.log(JSON.stringify(result));
