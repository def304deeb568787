#!/usr/bin/env node
/**
 * `catalogue-api`: the command-line importer.
 *
 * ```
 * catalogue-api import FILE --store postgres [--resource anime] [--database-url URL] [--schema catalogue]
 * catalogue-api import FILE --store memory-snapshot [--resource anime] [--out snapshot.json]
 * ```
 *
 * Exit codes: 0 every record imported; 1 some records rejected (the valid ones are imported, the
 * rejected ones listed with their line or index and reason); 2 usage error; 3 the import failed
 * part-way (batches committed before the failure are kept; re-run to finish, it is idempotent).
 * @module
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { createPostgresStore } from './catalogue-store.js';
import { createSnapshotSink, importFile, ImportInterruptedError, toStoreSink, type ImportProgress, type ImportSink } from './import.js';
import { isResourceName, RESOURCE_NAMES, type ResourceName } from './resources.js';

const USAGE = `usage: catalogue-api import FILE --store memory-snapshot|postgres [options]

  --store S          postgres, or memory-snapshot (a JSON file the memory store loads)
  --resource R       what FILE holds (default: from the file name, else anime); one of
                     ${RESOURCE_NAMES.join(', ')}
  --database-url U   PostgreSQL URL (default: $DATABASE_URL)
  --schema S         PostgreSQL schema (default: catalogue)
  --out F            snapshot file for memory-snapshot (default: snapshot.json)
  --batch-size N     records per transaction (default: 500 for postgres; 10000 for
                     memory-snapshot, where each batch rewrites the whole file)

FILE is JSON (an array of records, or { "data": [...] }) or NDJSON (one record per line).`;

/** Default records per batch of a memory snapshot; see the usage. */
const SNAPSHOT_BATCH = 10_000;

class UsageError extends Error {}

/** The resource named by a file (`manga.ndjson` → manga, `anime-2024.json` → anime), if any. */
function resourceFromFileName(file: string): ResourceName | undefined {
  const stem = basename(file).replace(/\..*$/, '');
  return RESOURCE_NAMES.find((name) => stem === name || stem.startsWith(`${name}-`) || stem.startsWith(`${name}_`));
}

function progressReporter(label: string): { update(p: ImportProgress): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {imported} imported, {rejected} rejected | {eta_formatted} left`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1000, 0, { imported: 0, rejected: 0 });
    return {
      update: (p) => bar.update(Math.round(p.fraction * 1000), { imported: p.imported, rejected: p.rejected }),
      stop: () => bar.stop(),
    };
  }
  // Not a terminal (CI, a log file): a plain line at most every two seconds.
  let last = 0;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 2000) return;
      last = now;
      console.error(`${label}: ${(p.fraction * 100).toFixed(0)}% read, ${p.imported} imported, ${p.rejected} rejected`);
    },
    stop() {},
  };
}

async function runImport(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      store: { type: 'string' },
      resource: { type: 'string' },
      'database-url': { type: 'string' },
      schema: { type: 'string' },
      out: { type: 'string' },
      'batch-size': { type: 'string' },
    },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('import takes exactly one FILE');
  const resource = values.resource ?? resourceFromFileName(file) ?? 'anime';
  if (!isResourceName(resource)) throw new UsageError(`unknown --resource "${resource}"`);
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) throw new UsageError('--batch-size must be a positive integer');
  if (values.store !== 'postgres' && values.store !== 'memory-snapshot') throw new UsageError('--store must be memory-snapshot or postgres');
  // Checked before connecting anywhere: a mistyped path is a usage error, not a failed import.
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not readable';
    throw new UsageError(`cannot read FILE "${file}": ${why}`);
  }

  let sink: ImportSink;
  let target: string;
  if (values.store === 'postgres') {
    const url = values['database-url'] ?? process.env.DATABASE_URL;
    if (!url) throw new UsageError('--store postgres needs --database-url or DATABASE_URL');
    if (!/^postgres(ql)?:$/.test(URL.parse(url)?.protocol ?? '')) {
      throw new UsageError(`--database-url (or DATABASE_URL) must be a postgres:// URL, got "${url}"`);
    }
    const store = createPostgresStore({ url, schema: values.schema, max: 2 });
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
    sink = toStoreSink(store, { closeStore: true });
    target = `PostgreSQL schema ${store.schema}`;
  } else if (values.store === 'memory-snapshot') {
    const out = values.out ?? 'snapshot.json';
    sink = await createSnapshotSink(out);
    target = out;
  } else {
    throw new UsageError('--store must be memory-snapshot or postgres');
  }

  const progress = progressReporter(`${resource} ← ${basename(file)}`);
  const started = Date.now();
  try {
    const summary = await importFile(file, {
      resource,
      sink,
      // A snapshot batch rewrites the whole file: 500-record batches made a 70k-record import
      // write the growing file 140 times.
      batchSize: batchSize ?? (values.store === 'memory-snapshot' ? SNAPSHOT_BATCH : undefined),
      onProgress: (p) => progress.update(p),
    });
    progress.stop();
    for (const r of summary.rejected) console.error(`rejected ${r.position}: ${r.reason}`);
    const seconds = (Date.now() - started) / 1000;
    console.error(
      `${resource}: ${summary.imported} of ${summary.read} records imported into ${target} in ${seconds.toFixed(1)} s` +
        ` (${Math.round(summary.imported / Math.max(seconds, 0.001))}/s, ${summary.batches} batches), ${summary.rejected.length} rejected`,
    );
    return summary.rejected.length > 0 ? 1 : 0;
  } catch (error) {
    progress.stop();
    if (error instanceof ImportInterruptedError) {
      for (const r of error.summary.rejected) console.error(`rejected ${r.position}: ${r.reason}`);
      console.error(`${error.message}\nBatches committed so far are kept; re-running the same command finishes the import.`);
      return 3;
    }
    throw error;
  }
}

/**
 * Runs the CLI.
 * @param argv - Arguments after the program name.
 * @returns The exit code.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'import') return await runImport(rest);
    if (command === '--help' || command === '-h' || command === 'help') {
      console.log(USAGE);
      return 0;
    }
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`catalogue-api: ${(error as Error).message}`);
    return 3;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
