/**
 * The full-scale bench set in a PostgreSQL schema, for the benches that run the example server on it
 * (`bench/postgres-routes.ts`, `bench/abuse.ts`): imported with the importer CLI
 * (`packages/store-postgres/bin/catalogue-api.js import`) from the NDJSON twins of `bench/.data`
 * (`npm run build:bench-data`), and kept between runs.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Anime } from '../../packages/core/src/schemas/anime.ts';
import type { PostgresStore } from '../../packages/store-postgres/src/catalogue-store.ts';
import { ndjsonOf } from './ndjson.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The kinds of records of the bench set, in the order they are imported. */
export const BENCH_KINDS = ['anime', 'manga', 'characters', 'people'] as const;

/** `BENCH_DATA_DIR`, or `bench/.data`. */
export const benchDataDir = process.env.BENCH_DATA_DIR ?? `${root}bench/.data`;

/**
 * Why the bench set cannot be imported from `dataDir`, or undefined when every file is there.
 * @param dataDir - Where `npm run build:bench-data` wrote it.
 */
export function missingBenchData(dataDir = benchDataDir): string | undefined {
  for (const kind of BENCH_KINDS) {
    if (!existsSync(`${dataDir}/${kind}.json`)) return `${dataDir}/${kind}.json is missing: run \`npm run build:bench-data\` first.`;
  }
  return undefined;
}

/** The first record of a data file: the first line of its NDJSON twin, read alone. */
async function firstRecord<T>(dataDir: string, kind: string): Promise<T> {
  const lines = createInterface({ input: createReadStream(ndjsonOf(`${dataDir}/${kind}.json`)), crlfDelay: Infinity });
  try {
    for await (const line of lines) return JSON.parse(line) as T;
    throw new Error(`${dataDir}/${kind}.json holds no records`);
  } finally {
    lines.close();
  }
}

/** Options of {@link ensureBenchSchema}. */
export interface BenchSchemaOptions {
  /** The connection URL, passed to the importer as `DATABASE_URL`. */
  url: string;
  /** The schema that holds (or is to hold) the set; dropped and imported again when it does not hold it. */
  schema: string;
  /** Where the data files are. @default benchDataDir */
  dataDir?: string;
  /** Import again even when the schema holds the set. */
  reimport?: boolean;
  /** Progress lines. @default console.error */
  log?: (line: string) => void;
}

/**
 * Makes `schema` hold the bench set: imported when it has no tables, when the data's first anime is
 * not in it (another data build), or when asked to.
 * @param store - A store on that schema (`createPostgresStore({ url, schema })`).
 * @param options - URL, schema, data and whether to import anyway.
 * @returns How long the import took, and how many records it imported; undefined when the schema already held the set.
 */
export async function ensureBenchSchema(store: PostgresStore, options: BenchSchemaOptions): Promise<{ seconds: number; records: number } | undefined> {
  const { url, schema, dataDir = benchDataDir, log = (line: string) => console.error(line) } = options;
  const [{ n: held = 0 } = {}] = await store.sql<{ n: number }[]>`
    select count(*)::int as n from information_schema.tables where table_schema = ${schema}`;
  if (!options.reimport && held > 0 && (await store.get('anime', (await firstRecord<Anime>(dataDir, 'anime')).mal_id)) !== undefined) {
    // Kept from an earlier run, maybe of older code: brought up to this version's tables, as a server's start would.
    await store.migrate();
    return undefined;
  }
  await store.sql.unsafe(`drop schema if exists "${schema}" cascade`);
  const started = performance.now();
  for (const kind of BENCH_KINDS) {
    log(`importing ${kind} into ${schema}…`);
    const file = ndjsonOf(`${dataDir}/${kind}.json`);
    execFileSync(process.execPath, [`${root}packages/store-postgres/bin/catalogue-api.js`, 'import', file, '--store', 'postgres', '--resource', kind, '--schema', schema, '--batch-size', '2000'], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const seconds = (performance.now() - started) / 1000;
  let records = 0;
  for (const kind of BENCH_KINDS) records += await store.count(kind);
  return { seconds, records };
}
