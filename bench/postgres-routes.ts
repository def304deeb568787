/**
 * Every route of the API on PostgreSQL at full scale (item 6 of `npm run bench`): the built Node
 * example (`examples/node/dist/server.js`) started on a schema that holds the full-scale set
 * (`npm run build:bench-data`: 30k anime, 70k manga, 100k characters, 30k people, imported with the
 * importer CLI, `bin/catalogue-api.js import`), with the response cache, rate limits and access
 * log off so that every request reaches the store.
 *
 * It measures, in this order:
 * 1. start-up: from spawn to listening, then the first answer of every route (a fresh process:
 *    nothing loaded, nothing cached);
 * 2. per route: p50 and p99 of `--requests` sequential requests spread over ids and queries;
 * 3. the instance's peak RSS (`VmHWM`) after all of it;
 * 4. a second instance on the same schema answers every probe byte for byte the same;
 * 5. an upsert of 100 anime (their titles changed) through the store, then both instances serve the
 *    new titles on the next request, and the originals are written back.
 *
 * Usage: `DATABASE_URL=postgres://… npx tsx --tsconfig packages/store-postgres/test/tsconfig.json
 * bench/postgres-routes.ts [--json] [--requests N] [--reimport]` after `npm run build`. The data
 * stays in the schema `catalogue_routes` between runs (re-imported when the data's first anime is not there, or
 * with `--reimport`). `BENCH_DATA_DIR` names the data (default `bench/.data`).
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenApiDocument } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { createPostgresStore } from '../packages/store-postgres/src/catalogue-store.ts';
import { percentile } from './lib/battery.ts';
import { BENCH_KINDS as KINDS, ensureBenchSchema, missingBenchData } from './lib/bench-schema.ts';
import { memoryOf } from './lib/example.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({ options: { json: { type: 'boolean' }, requests: { type: 'string' }, reimport: { type: 'boolean' } } });
// A p99 needs at least 100 samples to be anything but the slowest one: over 40, one pause of the
// host fails a route. Over 200 it is the third slowest, by nearest rank (`bench/lib/battery.ts`).
const requests = Number(options.requests ?? 200);
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(2);
}
const missing = missingBenchData();
if (missing) {
  console.error(missing);
  process.exit(2);
}
const log = (line: string) => console.error(line);

// ---- the data ----
const schema = 'catalogue_routes';
const store = createPostgresStore({ url, schema, max: 2 });
const imported = await ensureBenchSchema(store, { url, schema, reimport: options.reimport, log });
// The tables as an import leaves them (vacuumed): the upsert step of an earlier run updated 100
// anime twice, and a count reads index entries alone only on pages vacuumed since.
await store.analyze();
// The ids in the order of the files (the stored order), read from the store: this process parses
// none of the data files (hundreds of MiB of heap whose collection, set off by the bodies it
// reads, paused it for 10 to 30 ms inside timed requests).
const ids = Object.fromEntries(
  await Promise.all(KINDS.map(async (kind) => [kind, (await store.pluck(kind, 'mal_id', { offset: 0, limit: 2 ** 31 })) as number[]])),
) as Record<(typeof KINDS)[number], number[]>;
/** The anime of the upsert step, as stored. */
const changed = (await store.getMany('anime', Array.from({ length: 100 }, (_, i) => ids.anime[(i * 283) % ids.anime.length]!))) as Anime[];

// ---- the probes: every path of the OpenAPI document, with ids and queries ----
const pick = (list: readonly number[], i: number) => list[(i * 7919) % list.length]!;
const QUERIES: Record<string, string[]> = {
  '/v1/anime': ['', 'q=naruto', 'q=shingeki&sfw', 'order_by=score&sort=desc&page=10', 'type=tv&status=complete&order_by=members&sort=desc', 'genres=1,2&page=3', 'letter=k&order_by=title', 'start_date=2010&end_date=2015', 'page=1000'],
  '/v1/manga': ['', 'q=one', 'order_by=popularity&page=20', 'type=manga&status=publishing', 'genres=4&sfw'],
  '/v1/characters': ['', 'q=sakura', 'order_by=favorites&sort=desc&page=50', 'letter=a'],
  '/v1/people': ['', 'q=hiro', 'order_by=birthday&page=5', 'letter=m'],
  '/v1/top/anime': ['', 'filter=airing', 'filter=bypopularity&page=40', 'filter=favorite&type=movie', 'sfw&page=100'],
  '/v1/top/manga': ['', 'filter=publishing', 'filter=upcoming', 'type=novel&page=10'],
  '/v1/seasons/{year}/{season}': ['', 'continuing', 'sfw&filter=tv'],
  '/v1/schedules': ['', 'filter=monday', 'kids=false&sfw'],
  '/v1/anime/ids': ['', 'type=movie&include=title', 'updated_at=2026-01-01T00:00:00Z'],
  '/v1/manga/ids': ['', 'status=publishing'],
};
const SEASONS = ['winter', 'spring', 'summer', 'fall'];

function probesOf(path: string): string[] {
  const queries = QUERIES[path] ?? ['', 'sfw'];
  const kind = /^\/v1\/(anime|manga|characters|people)\b/.exec(path)?.[1] as (typeof KINDS)[number] | undefined;
  const out: string[] = [];
  for (let i = 0; out.length < requests; i++) {
    const concrete = path
      .replace('{id}', String(kind ? pick(ids[kind], i) : 1 + (i % 50)))
      .replace('{episode}', String(1 + (i % 12)))
      .replace('{year}', String(1990 + (i % 35)))
      .replace('{season}', SEASONS[i % 4]!)
      .replace('{filter}', ['monday', 'friday', 'sunday', 'other', 'unknown'][i % 5]!);
    const query = queries[i % queries.length]!;
    out.push(query ? `${concrete}?${query}` : concrete);
  }
  return out;
}

const document = createOpenApiDocument();
const paths = Object.keys(document.paths as object).filter((p) => !p.includes('openapi'));

// ---- the instances ----
interface Instance {
  child: ChildProcess;
  base: string;
  startMs: number;
}

async function start(): Promise<Instance> {
  const started = performance.now();
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: url, DATABASE_SCHEMA: schema, CACHE: 'off', RATE_LIMIT: 'off', ACCESS_LOG: 'off', REDIS_URL: '' };
  const child = spawn(process.execPath, [`${root}examples/node/dist/server.js`], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let head = '';
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error('no URL within 60 s'))), 60_000);
    child.stdout!.on('data', (chunk) => {
      head += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(head);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ child, base: match[1]!, startMs: performance.now() - started });
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the server exited (${code}): ${head}`))));
  });
}

/** One kept-alive connection per instance, as a client of the API would hold. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request, timed from sending to its last byte. The body is read as text only when asked for:
 * a timed request only counts its bytes, so that this process makes little garbage (decoding a
 * 400 KB id list into a string per request had its own collections pause it inside timed requests).
 */
function timed(base: string, target: string, read: true): Promise<{ ms: number; status: number; body: string }>;
function timed(base: string, target: string): Promise<{ ms: number; status: number }>;
function timed(base: string, target: string, read = false): Promise<{ ms: number; status: number; body?: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(base + target, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => read && chunks.push(chunk));
      response.on('end', () => {
        const ms = performance.now() - started;
        resolve({ ms, status: response.statusCode!, body: read ? Buffer.concat(chunks).toString('utf8') : undefined });
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

const a = await start();
log(`instance A listening after ${a.startMs.toFixed(0)} ms`);
const rows: Array<{ route: string; first: number; p50: number; p99: number; statuses: string }> = [];
const firsts = new Map<string, number>();
for (const path of paths) firsts.set(path, (await timed(a.base, probesOf(path)[0]!)).ms);
for (const path of paths) {
  const times: number[] = [];
  const statuses = new Set<number>();
  for (const target of probesOf(path)) {
    const { ms, status } = await timed(a.base, target);
    times.push(ms);
    statuses.add(status);
  }
  times.sort((x, y) => x - y);
  rows.push({ route: path, first: firsts.get(path)!, p50: percentile(times, 50), p99: percentile(times, 99), statuses: [...statuses].sort().join(' ') });
  log(`${path}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
}
const rssMb = memoryOf(a.child.pid!).hwmMb;

// ---- a second instance, the same answers ----
const b = await start();
const compared = paths.filter((p) => !p.startsWith('/v1/random/')).flatMap((p) => probesOf(p).slice(0, 3));
let differing = 0;
for (const target of compared) {
  const [x, y] = [await timed(a.base, target, true), await timed(b.base, target, true)];
  if (x.status !== y.status || x.body !== y.body) {
    differing++;
    log(`differs: ${target}`);
  }
}

// ---- an upsert of 100 records, served at once by both ----
await store.upsert('anime', changed.map((r) => ({ ...r, title: `${r.title} (updated)` })));
let visible = 0;
for (const r of changed) {
  const [x, y] = [await timed(a.base, `/v1/anime/${r.mal_id}`, true), await timed(b.base, `/v1/anime/${r.mal_id}`, true)];
  if (x.body.includes(`${JSON.stringify(`${r.title} (updated)`)}`) && y.body.includes(JSON.stringify(`${r.title} (updated)`))) visible++;
}
await store.upsert('anime', changed);
agent.destroy();
for (const instance of [a, b]) instance.child.kill('SIGTERM');
await store.close();

const result = { imported, requests, startMs: a.startMs, rssMb, routes: rows, secondInstance: { compared: compared.length, differing }, upsert: { records: changed.length, visibleOnBoth: visible } };
if (options.json) console.log(JSON.stringify(result));
else {
  console.log('| route | first answer (ms) | p50 (ms) | p99 (ms) | statuses |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.route} | ${r.first.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.statuses} |`);
  console.log(`\nstart ${a.startMs.toFixed(0)} ms, peak RSS ${rssMb.toFixed(0)} MB; second instance: ${differing} of ${compared.length} differ; upsert: ${visible} of 100 visible on both`);
}
