/**
 * Start-up time and memory of the memory store at full scale: read and parse the four benchmark
 * files (30k anime, 70k manga, 100k characters, 30k people), then `createMemoryStore` with all of
 * them (every index built at load), then one search to prove it answers. Wall-clock and CPU time
 * (user + system of this process) are both reported: on a shared machine the difference is time
 * other processes held the core.
 *
 * Usage: `node --expose-gc --import tsx bench/startup.ts [--json]` (needs `npm run build:bench-data`).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ANIME } from '../packages/core/src/catalogue/kinds.ts';
import { searchEntries } from '../packages/core/src/catalogue/media-search.ts';
import { createMemoryStore } from '../packages/core/src/seam/memory-store.ts';
import type { CatalogueData } from '../packages/core/src/catalogue/queries.ts';

const json = process.argv.includes('--json');
const dir = fileURLToPath(new URL('./.data/', import.meta.url));
const kinds = ['anime', 'manga', 'characters', 'people'] as const;
if (!existsSync(`${dir}anime.json`)) {
  console.error('bench/.data is missing: run `npm run build:bench-data` first.');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mib = (n: number) => n / 2 ** 20;

gc();
const heap0 = process.memoryUsage().heapUsed;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const data: Record<string, unknown[]> = {};
const counts: Record<string, number> = {};
for (const kind of kinds) {
  data[kind] = JSON.parse(readFileSync(`${dir}${kind}.json`, 'utf8')) as unknown[];
  counts[kind] = data[kind].length;
}
const parseMs = performance.now() - t0;
const parseCpu = process.cpuUsage(cpu0);
gc();
const heapData = process.memoryUsage().heapUsed;
const cpu1 = process.cpuUsage();
const t1 = performance.now();
const store = createMemoryStore(data as CatalogueData);
const buildMs = performance.now() - t1;
const buildCpu = process.cpuUsage(cpu1);
const t2 = performance.now();
const first = await searchEntries(store, ANIME, { q: 'shingeki no kyojin', page: 1, limit: 25, sfw: 'off', approval: 'all', sort: 'asc' });
const firstSearchMs = performance.now() - t2;
gc();
const usage = process.memoryUsage();
const result = {
  counts,
  parseMs,
  buildMs,
  startMs: parseMs + buildMs,
  /** CPU time of the same two steps (the GC between them, for the heap figures, left out). */
  startCpuMs: (parseCpu.user + parseCpu.system + buildCpu.user + buildCpu.system) / 1000,
  parseCpuMs: (parseCpu.user + parseCpu.system) / 1000,
  buildCpuMs: (buildCpu.user + buildCpu.system) / 1000,
  firstSearchMs,
  firstSearchTotal: first.total,
  heapDataMiB: mib(heapData - heap0),
  heapIndexesMiB: mib(usage.heapUsed - heapData),
  heapTotalMiB: mib(usage.heapUsed - heap0),
  rssMiB: mib(usage.rss),
  /** Highest RSS of the process so far (parsing holds the JSON text and the records at once). */
  peakRssMiB: process.resourceUsage().maxRSS / 1024,
};
const log = json ? console.error : console.log;
log(
  `full scale (${kinds.map((k) => `${counts[k]} ${k}`).join(', ')}): parse ${parseMs.toFixed(0)} ms + store ${buildMs.toFixed(0)} ms = ` +
    `${result.startMs.toFixed(0)} ms (CPU ${result.startCpuMs.toFixed(0)} ms); heap ${result.heapTotalMiB.toFixed(0)} MiB (records ${result.heapDataMiB.toFixed(0)}, ` +
    `indexes ${result.heapIndexesMiB.toFixed(0)}); RSS ${result.rssMiB.toFixed(0)} MiB (peak ${result.peakRssMiB.toFixed(0)}); first search ${firstSearchMs.toFixed(1)} ms`,
);
if (json) console.log(JSON.stringify(result));
