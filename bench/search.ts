/**
 * Search latency and quality of the memory store at full scale: `createMemoryStore({ anime, manga })`
 * over the benchmark set (30k anime, 70k manga), searched as `GET /v1/anime?q=` and
 * `GET /v1/manga?q=` search it (`searchEntries`), for each kind of record's labelled battery
 * (`bench/lib/battery.ts`: recall at each kind's cut-off, empty answers, p50/p99, the slowest
 * queries), and for one- and two-letter and 200-character anime queries.
 *
 * Usage: `npx tsx bench/search.ts [--demo] [--json] [--passes N]` (needs `npm run build:bench-data`
 * unless `--demo`). With `--json` the last stdout line is the result as JSON (read by `bench/run.ts`).
 * @module
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ANIME, MANGA, type KindSpec } from '../packages/core/src/catalogue/kinds.ts';
import { searchEntries } from '../packages/core/src/catalogue/media-search.ts';
import { createMemoryStore } from '../packages/core/src/seam/memory-store.ts';
import type { AnimeSearch } from '../packages/core/src/catalogue/queries.ts';
import type { Anime } from '../packages/core/src/schemas/anime.ts';
import type { Manga } from '../packages/core/src/schemas/manga.ts';
import { buildBattery, KIND_CUTOFF, latencyQueries, percentile, scoreBattery, type QueryKind, type TitledEntry } from './lib/battery.ts';

const args = process.argv.slice(2);
const demo = args.includes('--demo');
const json = args.includes('--json');
const passes = Number(args[args.indexOf('--passes') + 1] ?? 2) || 2;

async function loadJson<T>(kind: 'anime' | 'manga'): Promise<T> {
  if (demo) {
    const file = fileURLToPath(new URL(`../packages/demo-data/data/${kind}.json`, import.meta.url));
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }
  const file = fileURLToPath(new URL(`./.data/${kind}.json`, import.meta.url));
  if (!existsSync(file)) {
    console.error(`bench/.data/${kind}.json is missing: run \`npm run build:bench-data\` first.`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

const search = (q: string): AnimeSearch => ({ q, page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' });

const anime = await loadJson<Anime[]>('anime');
const manga = await loadJson<Manga[]>('manga');
const t0 = performance.now();
const store = createMemoryStore({ anime, manga });
const buildMs = performance.now() - t0;
const { short, long } = latencyQueries(anime);

/** Wall-clock ms per query; CPU ms per query (user + system of this process) go to `cpu`. */
async function time(spec: KindSpec, queries: readonly string[], rounds: number, cpu: number[] = []): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const cpu0 = process.cpuUsage();
      const start = performance.now();
      await searchEntries(store, spec, search(q));
      samples.push(performance.now() - start);
      const used = process.cpuUsage(cpu0);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  return samples;
}
const stats = (samples: number[]) => ({
  n: samples.length,
  p50: percentile(samples, 50),
  p90: percentile(samples, 90),
  p99: percentile(samples, 99),
  max: Math.max(...samples),
});

/** The battery of one kind of record: recall per kind of query, latency, the misses and the slowest queries. */
async function measureKind(spec: KindSpec, entries: readonly TitledEntry[]) {
  const battery = buildBattery(entries);
  // Warm-up pass, which is also the quality pass.
  const results: number[][] = [];
  for (const query of battery) results.push((await searchEntries(store, spec, search(query.q))).data.map((a) => a.mal_id));
  const cpu: number[] = [];
  const samples = await time(spec, battery.map((b) => b.q), passes, cpu);
  const perKind: Partial<Record<QueryKind, ReturnType<typeof stats>>> = {};
  for (const kind of new Set(battery.map((b) => b.kind))) perKind[kind] = stats(samples.filter((_, i) => battery[i % battery.length]!.kind === kind));
  return {
    entries: entries.length,
    battery: stats(samples),
    /** The same samples in CPU time: what a query costs without other processes taking the core. */
    batteryCpu: stats(cpu),
    perKind,
    recall: scoreBattery(battery, results),
    misses: battery
      .map((b, i) => ({ kind: b.kind, q: b.q, expected: b.expected, top: results[i]!.slice(0, 3) }))
      .filter((_, i) => !battery[i]!.accept.has(results[i]![0]!))
      .slice(0, 40),
    slowest: samples
      .map((ms, i) => ({ ms, kind: battery[i % battery.length]!.kind, q: battery[i % battery.length]!.q }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10),
  };
}

const result = {
  dataset: demo ? 'demo' : 'full',
  buildMs,
  anime: await measureKind(ANIME, anime),
  manga: await measureKind(MANGA, manga),
  short: stats(await time(ANIME, short, passes)),
  long200: stats(await time(ANIME, long, passes)),
};

const f = (n: number) => n.toFixed(2);
if (!json || process.stderr.isTTY) {
  const log = json ? console.error : console.log;
  log(`${result.dataset}: ${anime.length} anime, ${manga.length} manga, index built in ${result.buildMs.toFixed(0)} ms`);
  for (const [name, s] of [['1–2 letters', result.short], ['200 chars', result.long200]] as const) {
    log(`  ${name.padEnd(12)} n=${s.n} p50 ${f(s.p50)} ms  p90 ${f(s.p90)}  p99 ${f(s.p99)}  max ${f(s.max)}`);
  }
  for (const kind of ['anime', 'manga'] as const) {
    const k = result[kind];
    log(`  ${kind} battery n=${k.battery.n} p50 ${f(k.battery.p50)} ms  p90 ${f(k.battery.p90)}  p99 ${f(k.battery.p99)}  max ${f(k.battery.max)}  (CPU p99 ${f(k.batteryCpu.p99)})`);
    for (const [q, r] of Object.entries(k.recall)) {
      const cut = q === 'all' ? 10 : KIND_CUTOFF[q as QueryKind];
      const hits = cut === 1 ? r.hit1 : cut === 5 ? r.hit5 : r.hit10;
      log(`    ${q.padEnd(9)} @${cut} ${hits}/${r.n} = ${(hits / r.n).toFixed(3)}  hit@1 ${r.hit1}  empty ${r.empty}  p99 ${f(k.perKind[q as QueryKind]?.p99 ?? k.battery.p99)} ms`);
    }
  }
}
if (json) console.log(JSON.stringify(result));
