/**
 * Search latency and quality of the PostgreSQL store at full scale: imports the benchmark set's
 * 30k anime and 70k manga through the importer (zod-validated, batched upserts; the import rate is
 * reported), then times the search `GET /v1/anime` and `GET /v1/manga` run (`searchEntries`) for
 * each kind of record's labelled battery (`bench/lib/battery.ts`), one- and two-letter and
 * 200-character anime queries, and filter/order queries without `q` (p50/p99); scores the battery
 * on both stores over the same data (recall per kind, empty answers), and compares them: how often
 * both rank the same entry first, and how many of the memory store's top 10 PostgreSQL also returns.
 *
 * Usage: `DATABASE_URL=postgres://… npx tsx --tsconfig packages/store-postgres/test/tsconfig.json
 * bench/search-postgres.ts [--demo] [--json] [--passes N] [--reimport] [--schema NAME]` (needs `npm
 * run build:bench-data` unless `--demo`). The data stays in the schema (`--schema`, else
 * `SEARCH_BENCH_SCHEMA`, else `catalogue_bench`; `_demo` appended with `--demo`) between runs,
 * re-imported when its size differs, or with `--reimport`. With `--json` the last stdout line is
 * the result as JSON.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMemoryStore } from '@catalogue-api/core';
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import type { AnimeSearch, CatalogueStore } from '@catalogue-api/core/store';
import { ANIME, MANGA, type KindSpec } from '../packages/core/src/catalogue/kinds.ts';
import { searchEntries } from '../packages/core/src/catalogue/media-search.ts';
import { createPostgresStore } from '../packages/store-postgres/src/catalogue-store.ts';
import { importFile, toStoreSink } from '../packages/store-postgres/src/import.ts';
import { buildBattery, KIND_CUTOFF, latencyQueries, percentile, scoreBattery, type LabelledQuery, type QueryKind, type Recall, type TitledEntry } from './lib/battery.ts';
import { ndjsonOf } from './lib/ndjson.ts';

let options: { demo?: boolean; json?: boolean; reimport?: boolean; passes?: string; schema?: string };
try {
  ({ values: options } = parseArgs({
    options: { demo: { type: 'boolean' }, json: { type: 'boolean' }, reimport: { type: 'boolean' }, passes: { type: 'string' }, schema: { type: 'string' } },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\nusage: search-postgres.ts [--demo] [--json] [--passes N] [--reimport] [--schema NAME]`);
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
const fileOf = (kind: 'anime' | 'manga') =>
  fileURLToPath(new URL(demo ? `../packages/demo-data/data/${kind}.json` : `./.data/${kind}.json`, import.meta.url));
for (const kind of ['anime', 'manga'] as const) {
  if (!existsSync(fileOf(kind))) {
    console.error(`bench/.data/${kind}.json is missing: run \`npm run build:bench-data\` first (or pass --demo).`);
    process.exit(2);
  }
}

const anime = JSON.parse(readFileSync(fileOf('anime'), 'utf8')) as Anime[];
const manga = JSON.parse(readFileSync(fileOf('manga'), 'utf8')) as Manga[];
const schema = `${options.schema ?? process.env.SEARCH_BENCH_SCHEMA ?? 'catalogue_bench'}${demo ? '_demo' : ''}`;
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) {
  console.error(`--schema must be a plain lower-case identifier, got "${schema}"`);
  process.exit(2);
}
const store = createPostgresStore({ url, schema, max: 4 });
let importStats: { records: number; seconds: number; perSecond: number; rejected: number } | undefined;
const stale = async () =>
  (await store.sql`select 1 from pg_namespace where nspname = ${schema}`).length === 0 ||
  (await store.count('anime')) !== anime.length ||
  (await store.count('manga')) !== manga.length;
if (reimport || (await stale())) {
  await store.sql.unsafe(`drop schema if exists "${schema}" cascade`);
  await store.migrate();
  const started = performance.now();
  let imported = 0;
  let rejected = 0;
  for (const [resource, records] of [['anime', anime], ['manga', manga]] as const) {
    const source = demo ? fileOf(resource) : ndjsonOf(fileOf(resource), records);
    const summary = await importFile(source, { resource, sink: toStoreSink(store), batchSize: 1000 });
    imported += summary.imported;
    rejected += summary.rejected.length;
  }
  const seconds = (performance.now() - started) / 1000;
  importStats = { records: imported, seconds, perSecond: imported / seconds, rejected };
}
// A kept schema may be older than the store: migrate it, and ready its indexes and statistics either way.
await store.migrate();
await store.analyze();

const memory = createMemoryStore({ anime, manga });
const base: AnimeSearch = { page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' };
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

/** The search `GET /v1/anime` (or `/v1/manga`) runs over a store, with the base query's defaults. */
const searchIn = (s: CatalogueStore, spec: KindSpec, search: Partial<AnimeSearch>) => searchEntries(s, spec, { ...base, ...search });

async function ids(s: CatalogueStore, spec: KindSpec, search: Partial<AnimeSearch>): Promise<number[]> {
  return (await searchIn(s, spec, search)).data.map((a) => a.mal_id);
}

async function time(spec: KindSpec, searches: readonly Partial<AnimeSearch>[]): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < passes; r++) {
    for (const search of searches) {
      const start = performance.now();
      await searchIn(store, spec, search);
      samples.push(performance.now() - start);
    }
  }
  return samples;
}
const stats = (samples: number[]) => ({ n: samples.length, p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99), max: Math.max(...samples) });

/** How alike the two stores rank: the same first result, and the memory store's top 10 found in PostgreSQL's, per query. */
function agreement(battery: readonly LabelledQuery[], pg: readonly number[][], mem: readonly number[][]) {
  let overlap = 0;
  let top1 = 0;
  const differing: { kind: string; q: string; memory: number[]; postgres: number[] }[] = [];
  battery.forEach((query, i) => {
    const mem10 = mem[i]!.slice(0, 10);
    const pg10 = new Set(pg[i]!.slice(0, 10));
    overlap += mem10.length === 0 ? (pg10.size === 0 ? 1 : 0) : mem10.filter((id) => pg10.has(id)).length / mem10.length;
    if (pg[i]![0] === mem[i]![0]) top1++;
    else if (differing.length < 20) differing.push({ kind: query.kind, q: query.q, memory: mem[i]!.slice(0, 3), postgres: pg[i]!.slice(0, 3) });
  });
  return { top10OverlapWithMemory: overlap / battery.length, sameTopHit: top1 / battery.length, differing };
}

/** One kind of record's battery on both stores: recall, agreement, PostgreSQL's latency and slowest queries. */
async function measureKind(spec: KindSpec, entries: readonly TitledEntry[]) {
  const battery = buildBattery(entries);
  // Warm-up pass, which is also the quality pass.
  const pgResults: number[][] = [];
  const memResults: number[][] = [];
  for (const query of battery) {
    pgResults.push(await ids(store, spec, { q: query.q }));
    memResults.push(await ids(memory, spec, { q: query.q }));
  }
  const samples = await time(spec, battery.map((b) => ({ q: b.q })));
  const perKind: Partial<Record<QueryKind, ReturnType<typeof stats>>> = {};
  for (const kind of new Set(battery.map((b) => b.kind))) perKind[kind] = stats(samples.filter((_, i) => battery[i % battery.length]!.kind === kind));
  return {
    entries: entries.length,
    battery: stats(samples),
    perKind,
    recall: { postgres: scoreBattery(battery, pgResults), memory: scoreBattery(battery, memResults) },
    ...agreement(battery, pgResults, memResults),
    slowest: samples
      .map((ms, i) => ({ ms, kind: battery[i % battery.length]!.kind, q: battery[i % battery.length]!.q }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10),
  };
}

for (const f of FILTERS) await searchIn(store, ANIME, f);
const result = {
  dataset: demo ? 'demo' : 'full',
  schema,
  import: importStats,
  anime: await measureKind(ANIME, anime),
  manga: await measureKind(MANGA, manga),
  filters: stats(await time(ANIME, FILTERS)),
  short: stats(await time(ANIME, short.map((q) => ({ q })))),
  long200: stats(await time(ANIME, long.map((q) => ({ q })))),
};
await store.close();

const f = (n: number) => n.toFixed(2);
if (!json || process.stderr.isTTY) {
  const log = json ? console.error : console.log;
  log(`PostgreSQL store, ${result.dataset}: ${anime.length} anime, ${manga.length} manga, schema ${schema}`);
  if (importStats) {
    log(`  import      ${importStats.records} records in ${importStats.seconds.toFixed(1)} s = ${Math.round(importStats.perSecond)}/s (zod-validated, 1000 per transaction), ${importStats.rejected} rejected`);
  }
  for (const [name, s] of [['filters', result.filters], ['1–2 letters', result.short], ['200 chars', result.long200]] as const) {
    log(`  ${name.padEnd(12)} n=${s.n} p50 ${f(s.p50)} ms  p90 ${f(s.p90)}  p99 ${f(s.p99)}  max ${f(s.max)}`);
  }
  for (const kind of ['anime', 'manga'] as const) {
    const k = result[kind];
    log(`  ${kind} battery n=${k.battery.n} p50 ${f(k.battery.p50)} ms  p90 ${f(k.battery.p90)}  p99 ${f(k.battery.p99)}  max ${f(k.battery.max)}`);
    for (const [q, r] of Object.entries(k.recall.postgres)) {
      const m = k.recall.memory[q as QueryKind]!;
      const cut = q === 'all' ? 10 : KIND_CUTOFF[q as QueryKind];
      const at = (x: Recall) => (cut === 1 ? x.hit1 : cut === 5 ? x.hit5 : x.hit10);
      log(`    ${q.padEnd(9)} @${cut} postgres ${at(r)}/${r.n} empty ${r.empty}   memory ${at(m)}/${m.n} empty ${m.empty}`);
    }
    log(`    vs memory: same top hit ${(k.sameTopHit * 100).toFixed(1)}%, top-10 overlap ${(k.top10OverlapWithMemory * 100).toFixed(1)}%`);
  }
}
if (json) console.log(JSON.stringify(result));
