/**
 * Search latency and quality of the memory store at full scale: `createMemoryStore({ anime })`
 * over the 30k-anime benchmark set, searched as `GET /v1/anime?q=` searches it (`searchEntries`)
 * for the labelled battery (p50/p99, hit@1, hits@10 per kind), one- and two-letter queries and
 * 200-character queries.
 *
 * Usage: `npx tsx bench/search.ts [--demo] [--json] [--passes N]` (needs `npm run build:bench-data`
 * unless `--demo`). With `--json` the last stdout line is the result as JSON (read by `bench/run.ts`).
 * @module
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ANIME } from '../packages/core/src/catalogue/kinds.ts';
import { searchEntries } from '../packages/core/src/catalogue/media-search.ts';
import { createMemoryStore } from '../packages/core/src/seam/memory-store.ts';
import type { AnimeSearch } from '../packages/core/src/catalogue/queries.ts';
import type { Anime } from '../packages/core/src/schemas/anime.ts';
import { buildBattery, latencyQueries, percentile, scoreBattery, type QueryKind } from './lib/battery.ts';

const args = process.argv.slice(2);
const demo = args.includes('--demo');
const json = args.includes('--json');
const passes = Number(args[args.indexOf('--passes') + 1] ?? 2) || 2;
const dataFile = fileURLToPath(new URL('./.data/anime.json', import.meta.url));

async function loadAnime(): Promise<Anime[]> {
  if (demo) return (await import('../packages/demo-data/data/anime.json', { with: { type: 'json' } })).default as unknown as Anime[];
  if (!existsSync(dataFile)) {
    console.error('bench/.data/anime.json is missing: run `npm run build:bench-data` first.');
    process.exit(2);
  }
  return JSON.parse(readFileSync(dataFile, 'utf8')) as Anime[];
}

const search = (q: string): AnimeSearch => ({ q, page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' });

const anime = await loadAnime();
const t0 = performance.now();
const store = createMemoryStore({ anime });
const buildMs = performance.now() - t0;
const battery = buildBattery(anime);
const { short, long } = latencyQueries(anime);

// Warm-up pass, which is also the quality pass.
const results: number[][] = [];
for (const query of battery) results.push((await searchEntries(store, ANIME, search(query.q))).data.map((a) => a.mal_id));
const recall = scoreBattery(battery, results);

/** Wall-clock ms per query; CPU ms per query (user + system of this process) go to `cpu`. */
async function time(queries: readonly string[], rounds: number, cpu: number[] = []): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const cpu0 = process.cpuUsage();
      const start = performance.now();
      await searchEntries(store, ANIME, search(q));
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
const batteryCpu: number[] = [];
const batterySamples = await time(battery.map((b) => b.q), passes, batteryCpu);
const perKind: Partial<Record<QueryKind, ReturnType<typeof stats>>> = {};
for (const kind of new Set(battery.map((b) => b.kind))) {
  perKind[kind] = stats(batterySamples.filter((_, i) => battery[i % battery.length]!.kind === kind));
}
const result = {
  dataset: demo ? 'demo' : 'full',
  entries: anime.length,
  buildMs,
  battery: stats(batterySamples),
  /** The same samples in CPU time: what a query costs without other processes taking the core. */
  batteryCpu: stats(batteryCpu),
  perKind,
  short: stats(await time(short, passes)),
  long200: stats(await time(long, passes)),
  recall,
  misses: battery
    .map((b, i) => ({ kind: b.kind, q: b.q, expected: b.expected, top: results[i]!.slice(0, 3) }))
    .filter((m, i) => !battery[i]!.accept.has(results[i]![0]!))
    .slice(0, 40),
};

const f = (n: number) => n.toFixed(2);
if (!json || process.stderr.isTTY) {
  const log = json ? console.error : console.log;
  log(`${result.dataset}: ${anime.length} anime, index built in ${result.buildMs.toFixed(0)} ms`);
  for (const [name, s] of [['battery', result.battery], ['battery CPU', result.batteryCpu], ['1–2 letters', result.short], ['200 chars', result.long200]] as const) {
    log(`  ${name.padEnd(12)} n=${s.n} p50 ${f(s.p50)} ms  p90 ${f(s.p90)}  p99 ${f(s.p99)}  max ${f(s.max)}`);
  }
  for (const [kind, r] of Object.entries(recall)) log(`  ${kind.padEnd(8)} hit@1 ${r.hit1}/${r.n}  hits@10 ${r.hit10}/${r.n}  p99 ${f(perKind[kind as QueryKind]?.p99 ?? result.battery.p99)} ms`);
}
if (json) console.log(JSON.stringify(result));
