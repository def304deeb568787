#!/usr/bin/env node
/**
 * `catalogue-api`: the command-line importer.
 *
 * ```
 * catalogue-api import FILE --store postgres [--resource anime] [--database-url URL] [--schema catalogue]
 * catalogue-api import FILE --store memory-snapshot [--resource anime] [--out snapshot.json]
 * catalogue-api import FILE --request /anime/20/characters --store postgres   # one Jikan response of an entry's part
 * ```
 *
 * Exit codes: 0 every record imported; 1 some records rejected (the valid ones are imported, the
 * rejected ones listed with their line or index and reason as they are found, an NDJSON line that
 * is not UTF-8 among them); 2 usage error (including a FILE that is missing, unreadable or not a
 * regular file); 3 the import failed part-way, the database unreachable or lost (batches committed
 * before the failure are kept; re-run to finish, it is idempotent); 4 FILE cannot be read as
 * records (a JSON document that does not parse, holds no records, is over the size limit, nests
 * deeper than 64 levels or is not UTF-8): nothing was imported. Records repeating an id of an
 * earlier record of FILE replace it (the last one is kept) and are counted as duplicates; they
 * change no exit code.
 * @module
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { createPostgresStore } from './catalogue-store.js';
import { DELETE_USAGE, runDelete } from './cli-delete.js';
import { PURGE_CACHE_USAGE, runPurgeCache } from './cli-purge-cache.js';
import {
  createSnapshotSink,
  detectResource,
  importFile,
  ImportInputError,
  ImportInterruptedError,
  KEPT_REJECTIONS,
  MAX_DOCUMENT_BYTES,
  MAX_LINE_BYTES,
  MAX_NESTING,
  toStoreSink,
  type ImportProgress,
  type ImportSink,
  type Rejection,
} from './import.js';
import { isResourceName, parseRequest, REQUESTS, RESOURCE_NAMES, type ImportKind, type ResourceName } from './resources.js';
import { runSync } from './cli-sync.js';

const USAGE = `usage: catalogue-api import FILE --store memory-snapshot|postgres [options]
       catalogue-api sync --upstream URL [--watch] [options]   (catalogue-api sync --help)

  --store S          postgres, or memory-snapshot (a JSON file the memory store loads)
  --resource R       what FILE holds (default: told from its records; else from the file
                     name, else anime); one of ${REQUESTS} (NDJSON lines of Jikan responses:
                     { "request": "/anime/20/characters", "body": { "data": [...] } }),
                     ${RESOURCE_NAMES.join(', ')}
  --request PATH     FILE is the one Jikan response of PATH, e.g. /anime/20/characters,
                     /manga/2/relations or /anime/20/full: the owner comes from PATH
  --database-url U   PostgreSQL URL (default: $DATABASE_URL)
  --schema S         PostgreSQL schema (default: catalogue)
  --out F            snapshot file for memory-snapshot (default: snapshot.json)
  --batch-size N     records per transaction (default: 500 for postgres; 10000 for
                     memory-snapshot, where each batch rewrites the whole file)
  --list-rejected N  rejected records listed with their reason (default: ${KEPT_REJECTIONS});
                     the rest are counted

Records exactly as Jikan v4 serves them: an anime or manga of /full keeps its relations,
theme songs, external and streaming links; a response of an entry's part (/anime/{id}/staff…)
needs its request (--request, or the "request" of its NDJSON line); deletedAnimeIds and
deletedMangaIds remove those entries with what they own.

FILE is UTF-8 JSON (an array of records, or { "data": [...] }, up to ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB, nested at most
${MAX_NESTING} levels) or NDJSON (one record per line, any size; a line over ${MAX_LINE_BYTES / 1024 / 1024} MiB, nested deeper or not
UTF-8 is rejected). Records that repeat an id of an earlier record of FILE replace it (the
last one is kept) and are counted as duplicates.

Exit codes: 0 all imported; 1 some records rejected; 2 usage error; 3 the import failed
part-way (committed batches are kept; re-run to finish); 4 FILE cannot be read as records.`;

/** How long the importer's connection may stay silent while a statement runs (`timeoutMs` of the store). */
const IMPORT_TIMEOUT_MS = 60_000;

/** Default records per batch of a memory snapshot; see the usage. */
const SNAPSHOT_BATCH = 10_000;

class UsageError extends Error {}

/** Exit codes; see the module comment. */
const EXIT = {
  ok: 0,
  rejected: 1,
  usage: 2,
  failed: 3,
  unreadable: 4,
} as const;

/** The resource named by a file (`manga.ndjson` → manga, `anime-2024.json` → anime), if any. */
function resourceFromFileName(file: string): ResourceName | undefined {
  const stem = basename(file).replace(/\..*$/, '');
  return RESOURCE_NAMES.find((name) => stem === name || stem.startsWith(`${name}-`) || stem.startsWith(`${name}_`));
}

/**
 * What FILE holds when `--resource` does not say: told from its records (a record only one
 * resource's schema accepts); among resources that all accept them (bare ids), the one the file
 * is named after; else the file name, else anime. A file of a Jikan sub-resource response is a
 * usage error naming `--request`.
 */
async function resourceOf(file: string): Promise<ImportKind> {
  const detected = await detectResource(file);
  const named = resourceFromFileName(file);
  if (detected.resource) return detected.resource;
  if (detected.candidates) {
    if (named && detected.candidates.includes(named)) return named;
    throw new UsageError(`the records of "${file}" fit ${detected.candidates.join(' and ')} alike: pass --resource`);
  }
  if (detected.part) {
    throw new UsageError(
      `"${file}" holds a Jikan response of ${detected.part}, whose owner is not in its records: pass --request with the path it answered (e.g. ${detected.part
        .replace('{kind}', 'anime')
        .replace('{id}', '20')})`,
    );
  }
  return named ?? 'anime';
}

function progressReporter(label: string): {
  update(p: ImportProgress): void;
  stop(): void;
  log(line: string): void;
} {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {imported} imported, {rejected} rejected | {eta_formatted} left`,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1000, 0, { imported: 0, rejected: 0 });
    return {
      update: (p) =>
        bar.update(Math.round(p.fraction * 1000), {
          imported: p.imported,
          rejected: p.rejected,
        }),
      stop: () => bar.stop(),
      // Clears the bar's line; the bar draws itself again below on its next update.
      log: (line) => process.stderr.write(`\r\x1b[2K${line}\n`),
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
    log: (line) => console.error(line),
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
      'list-rejected': { type: 'string' },
      request: { type: 'string' },
    },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError('import takes exactly one FILE');
  const request = values.request === undefined ? undefined : parseRequest(values.request);
  if (values.request !== undefined && !request) {
    throw new UsageError(`--request "${values.request}" names no part of an anime or manga: /anime/{id}/{part} or /manga/{id}/{part}`);
  }
  if (request && values.resource !== undefined && values.resource !== REQUESTS) throw new UsageError('--request and --resource exclude each other');
  if (values.resource !== undefined && values.resource !== REQUESTS && !isResourceName(values.resource)) {
    throw new UsageError(`unknown --resource "${values.resource}"`);
  }
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) throw new UsageError('--batch-size must be a positive integer');
  const listed = values['list-rejected'] === undefined ? KEPT_REJECTIONS : Number(values['list-rejected']);
  if (!(Number.isInteger(listed) && listed >= 0)) throw new UsageError('--list-rejected must be an integer of 0 or more');
  if (values.store !== 'postgres' && values.store !== 'memory-snapshot') throw new UsageError('--store must be memory-snapshot or postgres');
  // Checked before connecting anywhere: a mistyped path is a usage error, not a failed import.
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not readable';
    throw new UsageError(`cannot read FILE "${file}": ${why}`);
  }
  // A directory, a device (/dev/zero) or a pipe has no records to read to an end.
  if (!(await stat(file)).isFile()) throw new UsageError(`FILE "${file}" is not a regular file`);
  const resource = request ? REQUESTS : (values.resource as ImportKind | undefined) ?? (await resourceOf(file));

  let sink: ImportSink;
  let target: string;
  if (values.store === 'postgres') {
    const url = values['database-url'] ?? process.env.DATABASE_URL;
    if (!url) throw new UsageError('--store postgres needs --database-url or DATABASE_URL');
    if (!/^postgres(ql)?:$/.test(URL.parse(url)?.protocol ?? '')) {
      throw new UsageError(`--database-url (or DATABASE_URL) must be a postgres:// URL, got "${url}"`);
    }
    // No client waits on an import: a statement may run long (the final `analyze()` of a large
    // catalogue takes seconds), so only a connection silent for a minute is taken as lost.
    const store = createPostgresStore({
      url,
      schema: values.schema,
      max: 2,
      timeoutMs: IMPORT_TIMEOUT_MS,
    });
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
  // Rejections are listed as they are found, the first `listed` of them; the rest are counted.
  let rejections = 0;
  const onReject = (r: Rejection) => {
    rejections++;
    if (rejections <= listed) progress.log(`rejected ${r.position}: ${r.reason}`);
    else if (rejections === listed + 1) progress.log(`(more rejections are counted, not listed; --list-rejected N lists more)`);
  };
  try {
    const summary = await importFile(file, {
      resource,
      request,
      sink,
      // A snapshot batch rewrites the whole file: 500-record batches made a 70k-record import
      // write the growing file 140 times.
      batchSize: batchSize ?? (values.store === 'memory-snapshot' ? SNAPSHOT_BATCH : undefined),
      onProgress: (p) => progress.update(p),
      onReject,
      keepRejections: 0,
    });
    progress.stop();
    const seconds = (Date.now() - started) / 1000;
    // Read = imported + duplicates + rejected: a repeated id is not one more record imported.
    const duplicates =
      summary.duplicates > 0 ? `, ${summary.duplicates} duplicate${summary.duplicates === 1 ? '' : 's'} of an id already in this input (the last one of each id is kept)` : '';
    // Written through the record writer, a record equal to the stored one is imported but writes nothing.
    const unchanged = summary.unchanged > 0 ? `, ${summary.unchanged} already stored as they are` : '';
    console.error(
      `${resource}: ${summary.imported} of ${summary.read} records imported into ${target} in ${seconds.toFixed(1)} s` +
        ` (${Math.round(summary.imported / Math.max(seconds, 0.001))}/s, ${summary.batches} batches)${unchanged}, ${summary.rejectedCount} rejected${duplicates}`,
    );
    return summary.rejectedCount > 0 ? EXIT.rejected : EXIT.ok;
  } catch (error) {
    progress.stop();
    if (error instanceof ImportInterruptedError) {
      console.error(`${error.message}; ${error.summary.rejectedCount} rejected so far\n` + 'Batches committed so far are kept; re-running the same command finishes the import.');
      return EXIT.failed;
    }
    if (error instanceof ImportInputError) {
      console.error(`catalogue-api: ${error.message}\nNothing was imported.`);
      return EXIT.unreadable;
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
    if (command === 'delete') return await runDelete(rest);
    if (command === 'purge-cache') return await runPurgeCache(rest);
    if (command === 'sync') return await runSync(rest);
    if (command === '--help' || command === '-h' || command === 'help') {
      console.log(`${USAGE}\n\n${DELETE_USAGE}\n\n${PURGE_CACHE_USAGE}`);
      return 0;
    }
    throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    console.error(`catalogue-api: ${(error as Error).message}`);
    return EXIT.failed;
  }
}

// The PostgreSQL client can throw outside any call when its connection drops mid-write
// (https://github.com/porsager/postgres/issues/1154). The call in progress reports the drop as
// well and the import ends as a failed one (exit 3); until then this keeps Node from exiting with
// 1, which means "records rejected" here. Every batch is a transaction, so the database holds
// whole batches only.
let uncaught = false;
process.on('uncaughtException', (error) => {
  uncaught = true;
  console.error(`catalogue-api: ${error.message}`);
  process.exitCode = EXIT.failed;
});

main(process.argv.slice(2)).then((code) => {
  // After an error outside any call, never report success or mere rejections.
  process.exitCode = uncaught ? Math.max(code, EXIT.failed) : code;
});
