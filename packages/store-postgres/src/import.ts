/**
 * The importer behind `catalogue-api import`: reads JSON (an array, or `{ "data": [...] }`) or
 * NDJSON of Jikan v4-shaped records, validates every record with core's zod schema for its
 * resource, and writes the valid ones in batches to a sink (PostgreSQL or a memory-store snapshot).
 *
 * Guarantees: a rejected record is reported with its position and reason, never dropped silently,
 * and that includes what PostgreSQL would refuse (a NUL character, an id outside 0 … 2³¹−1), so
 * that both stores accept the same records and one bad record never fails the records beside it;
 * each batch is one transaction (or one atomic file write), so an interrupted import keeps every
 * batch written before the interruption; records are upserted by identity, so re-running an import
 * changes nothing, and records of the input that repeat an id are counted as duplicates (the last
 * one of each id is kept). Memory stays bounded whatever the file holds, but for the ids seen
 * (tens of bytes each): lines longer than {@link MAX_LINE_BYTES} are rejected unread, JSON
 * documents are read whole only up to {@link MAX_DOCUMENT_BYTES}, and nested no deeper than
 * {@link MAX_NESTING} levels (checked on the bytes, before parsing), and only the first rejections
 * are kept. Text must be UTF-8: bytes that are not are refused with their offset, never replaced.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fieldValues, holdsAll, type CatalogueStore, type CollectionName, type CollectionRecord, type Fields, type MediaKind } from '@catalogue-api/core/store';
import { createRecordWriter, type RecordWriter, type WriteOutcome } from '@catalogue-api/core/upstream';
import {
  isRequestLine,
  mismatchHint,
  parseRequest,
  partLike,
  recordKey,
  REQUESTS,
  RESOURCES,
  resourcesOf,
  type EntryRequest,
  type ImportKind,
  type ResourceName,
} from './resources.js';
import type { PostgresStore } from './catalogue-store.js';

/** The longest NDJSON line read (16 MiB); a longer one is rejected without being held in memory. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The largest JSON document (an array, or `{ "data": [...] }`) read (64 MiB): such a document is
 * parsed whole, so a larger one would hold gigabytes; NDJSON has no size limit.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a JSON document or an NDJSON line may have (64 levels),
 * checked on its bytes before it is parsed: a record nests at most 32 (deeper ones are rejected
 * after parsing, with their path), and `{ "data": [...] }` adds two. JSON that nests deeper is no
 * catalogue record; parsing it first cost a 62 MB `[[[…]]]` over 3 GB of memory and more than 10 s.
 */
export const MAX_NESTING = 64;

/** Rejections an {@link ImportSummary} keeps by default (all are counted). */
export const KEPT_REJECTIONS = 100;

/** Records a batch holds at most when they add up to this many bytes of input, whatever the batch size. */
const MAX_BATCH_BYTES = 32 * 1024 * 1024;

/** Issues of one record listed in its rejection; the rest are counted. */
const LISTED_ISSUES = 10;

/** One record read from a file, before validation. */
export interface SourceRecord {
  /** Where it is: `line 3` (NDJSON, 1-based) or `index 2` (JSON array, 0-based). */
  position: string;
  /** The parsed value, when the text was JSON. */
  value?: unknown;
  /** Why the text could not be parsed. */
  error?: string;
  /** How far through the file this record is, 0 to 1. */
  progress: number;
  /** The bytes of input it was read from, when known (NDJSON). */
  bytes?: number;
}

/** A record that was not imported, and why. */
export interface Rejection {
  /** `line 3` or `index 2`. */
  position: string;
  /** zod's issues (`path: message`, joined by `; `) or the JSON parse error. */
  reason: string;
}

/** Where valid records go. */
export interface ImportSink {
  /**
   * Writes one batch atomically (all or nothing), replacing records of the same identity.
   * @param resource - The resource.
   * @param records - Validated records.
   */
  write(resource: ResourceName, records: readonly unknown[]): Promise<void>;
  /** Called once after the last batch was written, when the whole file was read. */
  finish?(): Promise<void>;
  /** Releases resources; called once, after the last batch or a failure. */
  close(): Promise<void>;
  /**
   * Whether an error of `write` means the target refused the records themselves (a value it cannot
   * store) rather than failed (a lost connection). The importer then writes the records of that
   * batch one at a time and rejects only those refused. Absent: every error is a failure.
   * @param error - What `write` threw.
   */
  refusesRecords?(error: unknown): boolean;
  /**
   * The target as a catalogue store, for what is written through core's record writer (a `/full`
   * record with its parts, a sub-resource response, a deleted id removing its entry). Absent: the
   * sink takes plain records only.
   */
  readonly store?: CatalogueStore;
  /** Makes what was written through `store` durable (a snapshot file rewritten); called every batch of such writes and at the end. */
  commit?(): Promise<void>;
}

/** Progress of an import, reported after each batch and each rejection. */
export interface ImportProgress {
  /** Records read so far (valid or not). */
  read: number;
  /** Records written so far. */
  imported: number;
  /** Records rejected so far. */
  rejected: number;
  /** How far through the file, 0 to 1. */
  fraction: number;
}

/** Options of {@link importFile}. */
export interface ImportOptions {
  /**
   * The resource the file holds, or `requests`: NDJSON lines `{ "request": "/anime/20/characters",
   * "body": { "data": [...] } }`, each a Jikan response with the request it answered (or, with
   * `request`, the file is that one response).
   */
  resource: ImportKind;
  /** With `resource: 'requests'`: the request the whole file answered (`--request /anime/20/characters`). */
  request?: EntryRequest;
  /** The clock of the `updates` rows of entries whose records changed. @default Date.now */
  now?: () => number;
  /** Where valid records go. */
  sink: ImportSink;
  /** Records per batch (one transaction each). @default 500 */
  batchSize?: number;
  /** Called after each batch and each rejection. */
  onProgress?: (progress: ImportProgress) => void;
  /** Called for each rejected record, as it is found (all of them, kept or not). */
  onReject?: (rejection: Rejection) => void;
  /** How many rejections the summary keeps (all are counted). @default 100 */
  keepRejections?: number;
}

/** What an import did. */
export interface ImportSummary {
  /** What the file held. */
  resource: ImportKind;
  /** Records read (valid or not). */
  read: number;
  /**
   * Records imported: the distinct ids written. A record that repeats the id of an earlier record
   * of the input replaces it (the last one of each id is kept) and counts in `duplicates` instead.
   */
  imported: number;
  /** Records written over an earlier record of the same input with the same id. */
  duplicates: number;
  /** The first records that were not imported, in file order: at most `keepRejections`. */
  rejected: Rejection[];
  /** How many records were not imported, kept in `rejected` or not. */
  rejectedCount: number;
  /** Batches committed. */
  batches: number;
  /** Of the records imported through the record writer (`/full` records, responses, deleted ids): those that changed nothing stored. */
  unchanged: number;
}

/** Thrown when the sink fails mid-import; says how far the import got. */
export class ImportInterruptedError extends Error {
  /**
   * Wraps the sink's error with what was committed before it.
   * @param summary - What was committed before the failure.
   * @param cause - The sink's error.
   */
  constructor(readonly summary: ImportSummary, cause: unknown) {
    super(`import interrupted after ${summary.batches} committed batch(es) (${summary.imported} records): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ImportInterruptedError';
  }
}

/**
 * Thrown when the file cannot be read as records at all (a JSON document that does not parse,
 * holds no records, is too large to read whole, nests deeper than {@link MAX_NESTING} levels or
 * is not UTF-8, or a path that is not a regular file); nothing was imported.
 */
export class ImportInputError extends Error {
  /**
   * Creates the error.
   * @param message - What is wrong with the file and what to do.
   */
  constructor(message: string) {
    super(message);
    this.name = 'ImportInputError';
  }
}

const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl', '.ldjson']);

async function firstChar(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return /\S/.exec(buffer.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, ''))?.[0] ?? '';
  } finally {
    await handle.close();
  }
}

const MIB = 1024 * 1024;

/**
 * The lines of a file, split on bytes: a line longer than `maxLineBytes` comes back as its length
 * only, its bytes dropped as they are read, so no line (nor a file with no newline) is ever held
 * whole beyond the limit.
 */
async function* readLines(
  file: string,
  maxLineBytes: number,
): AsyncGenerator<{
  line: number;
  bytes?: Buffer;
  length: number;
  start: number;
  end: number;
}> {
  let parts: Buffer[] = [];
  let length = 0;
  let line = 0;
  let offset = 0;
  let lineStart = 0;
  const take = () => {
    line++;
    const bytes = length > maxLineBytes ? undefined : Buffer.concat(parts, length);
    const result = { line, bytes, length, start: lineStart, end: offset };
    parts = [];
    length = 0;
    lineStart = offset;
    return result;
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (length + (end - start) <= maxLineBytes) {
        if (end > start) parts.push(chunk.subarray(start, end));
      } else parts = [];
      length += end - start;
      offset += end - start;
      if (newline === -1) break;
      offset++;
      yield take();
      start = newline + 1;
    }
  }
  if (length > 0) yield take();
}

/**
 * Where JSON text nests deeper than `limit` arrays and objects, read on its bytes (brackets in
 * strings do not count; every byte of a multi-byte UTF-8 character is 0x80 or above, so none is
 * taken for a bracket or a quote), and how many top-level values ended before that point.
 * @param bytes - The text.
 * @param limit - The deepest nesting allowed.
 * @returns The offset of the first bracket past the limit (`undefined` when none is) and the
 * number of complete top-level values before it.
 */
function nesting(bytes: Uint8Array, limit: number): { deeperAt: number | undefined; values: number } {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x22) {
      // Skip the string: find its closing quote, one not escaped by an odd run of backslashes.
      for (let end = bytes.indexOf(0x22, i + 1); ; end = bytes.indexOf(0x22, end + 1)) {
        if (end === -1) return { deeperAt: undefined, values };
        let slashes = 0;
        while (bytes[end - 1 - slashes] === 0x5c) slashes++;
        if (slashes % 2 === 0) {
          i = end;
          break;
        }
      }
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > limit) return { deeperAt: i, values };
    } else if (b === 0x5d || b === 0x7d) {
      if (--depth === 0) values++;
    }
  }
  return { deeperAt: undefined, values };
}

/**
 * The offset of the first byte that is not UTF-8, if any: where `TextDecoder`, decoding without
 * `fatal`, puts its first U+FFFD that the input did not spell as one (EF BF BD); every byte
 * before it is UTF-8, so that it is the byte length of the text before it.
 */
function notUtf8At(bytes: Buffer): number | undefined {
  if (isUtf8(bytes)) return undefined;
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  // Counted on from the previous U+FFFD, so that many genuine ones cost one pass, not one each.
  let offset = 0;
  let counted = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    offset += Buffer.byteLength(text.slice(counted, at));
    counted = at;
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  return 0;
}

/**
 * Decodes text {@link notUtf8At} found to be UTF-8; `fatal`, so that whatever it might have missed
 * throws rather than become U+FFFD. A BOM is kept, for the callers to drop.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function* readNdjson(file: string, maxLineBytes: number): AsyncGenerator<SourceRecord> {
  const size = (await stat(file)).size || 1;
  for await (const { line, bytes, length, start, end } of readLines(file, maxLineBytes)) {
    const progress = Math.min(1, end / size);
    const position = `line ${line}`;
    if (bytes === undefined) {
      yield {
        position,
        error: `line is ${(length / MIB).toFixed(1)} MiB, longer than the ${maxLineBytes / MIB} MiB a record may have`,
        progress,
      };
      continue;
    }
    const bad = notUtf8At(bytes);
    if (bad !== undefined) {
      yield {
        position,
        error: `not UTF-8: byte ${start + bad} of the file (${bad} of the line) is 0x${bytes[bad]!.toString(16).padStart(2, '0')}`,
        progress,
      };
      continue;
    }
    const { deeperAt } = nesting(bytes, MAX_NESTING);
    if (deeperAt !== undefined) {
      yield {
        position,
        error: `nested deeper than ${MAX_NESTING} levels (at byte ${start + deeperAt} of the file); a record nests at most ${MAX_DEPTH}`,
        progress,
      };
      continue;
    }
    const text = utf8.decode(bytes);
    const trimmed = line === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim();
    if (!trimmed) continue;
    try {
      yield { position, value: JSON.parse(trimmed), progress, bytes: length };
    } catch (error) {
      yield {
        position,
        error: `invalid JSON: ${(error as Error).message}`,
        progress,
      };
    }
  }
}

/** Options of {@link readRecords}. */
export interface ReadOptions {
  /** The longest NDJSON line read; a longer one comes back as an error. @default MAX_LINE_BYTES */
  maxLineBytes?: number;
  /** The largest JSON document read. @default MAX_DOCUMENT_BYTES */
  maxDocumentBytes?: number;
  /** Whether the file is one JSON document read as one value (a response, with `--request`), not split into its `data`. */
  whole?: boolean;
}

/**
 * Reads the records of a file: NDJSON (by extension `.ndjson`/`.jsonl`, or when the file is not
 * one JSON document), a JSON array, a JSON object with a `data` array (a Jikan list response), or
 * with a `data` object (the response of one record).
 * @param file - The path of a regular file.
 * @param options - Limits of a line and of a JSON document.
 * @returns The records with their positions; unparsable or over-long NDJSON lines come back with `error`.
 * @throws ImportInputError when the path is not a regular file, or a JSON document is larger than
 * the limit, does not parse, or holds neither an array nor a `data` array.
 * @example
 * ```ts
 * for await (const record of readRecords('anime.ndjson')) console.log(record.position, record.error ?? 'ok');
 * ```
 */
export async function* readRecords(file: string, options: ReadOptions = {}): AsyncGenerator<SourceRecord> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const maxDocumentBytes = options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  const info = await stat(file);
  // A directory, a device (/dev/zero) or a pipe: nothing to read to an end, or nothing to read twice.
  if (!info.isFile()) throw new ImportInputError(`${file} is not a regular file`);
  const whole = options.whole === true;
  if (!whole && NDJSON_EXTENSIONS.has(extname(file).toLowerCase())) return yield* readNdjson(file, maxLineBytes);
  const first = await firstChar(file);
  if (whole && first !== '{') throw new ImportInputError(`${file} is not a JSON object: a response is { "data": ... }`);
  if (first !== '[' && first !== '{') return yield* readNdjson(file, maxLineBytes);
  if (info.size > maxDocumentBytes) {
    if (first === '{' && !whole) return yield* readNdjson(file, maxLineBytes);
    throw new ImportInputError(
      `${file} is a JSON document of ${(info.size / MIB).toFixed(0)} MiB; documents are read whole up to ${maxDocumentBytes / MIB} MiB. ` +
        `Import it as NDJSON, one record per line, which has no size limit: jq -c '.[]' (or '.data[]') ${file} > records.ndjson`,
    );
  }
  const bytes = await readFile(file);
  const { deeperAt, values } = nesting(bytes, MAX_NESTING);
  // Several values (`{…}\n{…}`) are NDJSON, whose lines are checked one by one.
  if (first === '{' && values > 1 && !whole) return yield* readNdjson(file, maxLineBytes);
  if (deeperAt !== undefined) {
    if (first === '{' && values > 0 && !whole) return yield* readNdjson(file, maxLineBytes);
    throw new ImportInputError(
      `${file} nests JSON deeper than ${MAX_NESTING} levels (at byte ${deeperAt}); a record nests at most ${MAX_DEPTH}, so this holds no catalogue records`,
    );
  }
  const bad = notUtf8At(bytes);
  if (bad !== undefined) {
    throw new ImportInputError(`${file} is not UTF-8: byte ${bad} is 0x${bytes[bad]!.toString(16).padStart(2, '0')}. Convert it to UTF-8 (e.g. iconv -f latin1 -t utf-8)`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(utf8.decode(bytes).replace(/^\uFEFF/, ''));
  } catch (error) {
    // `{…}\n{…}` is NDJSON; a broken `[…]` is a broken file.
    if (first === '{' && !whole) return yield* readNdjson(file, maxLineBytes);
    throw new ImportInputError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (whole) return yield { position: 'document', value: doc, progress: 1 };
  const list = Array.isArray(doc) ? doc : (doc as { data?: unknown }).data;
  if (!Array.isArray(list)) {
    // `{ "data": {…} }`, the response of one record (`GET /v4/anime/{id}`): that record.
    if (list !== null && typeof list === 'object') return yield { position: 'line 1', value: list, progress: 1 };
    // One object without `data`: a single record.
    if (first === '{') return yield { position: 'line 1', value: doc, progress: 1 };
    throw new ImportInputError(`${file} holds neither an array of records nor { "data": [...] }`);
  }
  for (let i = 0; i < list.length; i++)
    yield {
      position: `index ${i}`,
      value: list[i],
      progress: (i + 1) / list.length,
    };
}

/**
 * Formats zod issues as `path: message; …`.
 * @param issues - zod's issues.
 */
export function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const listed = issues.slice(0, LISTED_ISSUES).map((i) => `${i.path.length ? i.path.map(String).join('.') : '(record)'}: ${i.message}`);
  if (issues.length > LISTED_ISSUES) listed.push(`and ${issues.length - LISTED_ISSUES} more issues`);
  return listed.join('; ');
}

/** The largest value of a PostgreSQL `integer` column (ids, counts and ranks of anime and manga). */
const INT4_MAX = 2_147_483_647;

/** The typed `integer` columns of the anime and manga search tables, besides `mal_id`. */
const INTEGER_COLUMNS: Partial<Record<ResourceName, readonly string[]>> = {
  anime: ['scored_by', 'rank', 'popularity', 'members', 'favorites', 'episodes'],
  manga: ['scored_by', 'rank', 'popularity', 'members', 'favorites', 'chapters', 'volumes'],
};

const isIdKey = (key: string) => key === 'mal_id' || key.endsWith('_id');
const isIdListKey = (key: string) => key.endsWith('_ids');
const badId = (n: unknown) => typeof n === 'number' && !(Number.isInteger(n) && n >= 0 && n <= INT4_MAX);
// With the `u` flag a surrogate pair is one code point, so only an unpaired surrogate is `Cs`.
const UNPAIRED_SURROGATE = /\p{Cs}/u;
/**
 * The deepest nesting a record may have. Jikan v4 records nest a few levels; a field that takes any
 * object (`trailer.region_restriction`) could otherwise hold thousands, which no recursive walk
 * (this one, `JSON.stringify`, the store's) gets through.
 */
const MAX_DEPTH = 32;

/**
 * What a valid record holds that a store cannot keep: a string with U+0000 (PostgreSQL's text and
 * JSON refuse it) or an unpaired UTF-16 surrogate (not UTF-8), an id (`mal_id`, `…_id`, `…_ids`)
 * that is negative or larger than 2³¹−1, or a count of anime or manga that does not fit the
 * `integer` column that sorts by it, or nesting deeper than 32 levels.
 * @param resource - The resource.
 * @param record - The record as the schema output it.
 * @returns Issues as `path: message`, none when the record can be stored.
 * @example
 * ```ts
 * storageIssues('anime', { ...anime, mal_id: -1, title: 'a\u0000b' });
 * // ['mal_id: an id must be an integer from 0 to 2147483647, got -1', 'title: holds U+0000 (NUL), …']
 * ```
 */
export function storageIssues(resource: ResourceName, record: unknown): string[] {
  const issues: string[] = [];
  const at = (path: string) => path || '(record)';
  const visit = (value: unknown, path: string, depth = 0): void => {
    if (depth > MAX_DEPTH && value !== null && typeof value === 'object') {
      issues.push(`${at(path)}: nested deeper than ${MAX_DEPTH} levels`);
    } else if (typeof value === 'string') {
      if (value.includes('\0')) issues.push(`${at(path)}: holds U+0000 (NUL), which PostgreSQL cannot store`);
      else if (UNPAIRED_SURROGATE.test(value)) issues.push(`${at(path)}: holds an unpaired UTF-16 surrogate, which is not Unicode text`);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, path ? `${path}.${i}` : String(i), depth + 1));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        const where = path ? `${path}.${key}` : key;
        if (key.includes('\0')) issues.push(`${where}: a field name holds U+0000 (NUL)`);
        if (isIdKey(key) && badId(v)) issues.push(`${where}: an id must be an integer from 0 to ${INT4_MAX}, got ${String(v)}`);
        if (isIdListKey(key) && Array.isArray(v)) {
          v.forEach((id, i) => {
            if (badId(id)) issues.push(`${where}.${i}: an id must be an integer from 0 to ${INT4_MAX}, got ${String(id)}`);
          });
        }
        visit(v, where, depth + 1);
      }
    }
  };
  if ((resource === 'deletedAnimeIds' || resource === 'deletedMangaIds') && badId(record)) {
    issues.push(`(record): an id must be an integer from 0 to ${INT4_MAX}, got ${String(record)}`);
  }
  for (const column of INTEGER_COLUMNS[resource] ?? []) {
    const n = (record as Record<string, unknown>)[column];
    if (typeof n === 'number' && Math.abs(n) > INT4_MAX) issues.push(`${column}: must be at most ${INT4_MAX} in size, got ${n}`);
  }
  visit(record, '');
  return issues.slice(0, LISTED_ISSUES);
}

/** What a file's first records say it holds (see {@link detectResource}). */
export interface Detection {
  /** The resource every schema but its own refuses, or `requests` (lines `{ "request", "body" }`). */
  resource?: ImportKind;
  /** The resources whose schemas all accept the first record (bare ids: anime or manga deleted). */
  candidates?: ResourceName[];
  /** The Jikan sub-resource the records look like the response of (`/anime/{id}/characters`). */
  part?: string;
}

/** Records {@link detectResource} looks at, at most, for one that tells. */
const DETECTION_RECORDS = 10;

/**
 * What a file holds, told from its records rather than its name: the first record (of the first
 * ten that parse) that only one resource's schema accepts names it; lines `{ "request", "body" }`
 * are responses; an element of a Jikan sub-resource (`{ character, role, voice_actors }`) names
 * the response it belongs to.
 * @param file - The file.
 * @param options - Limits of a line and of a JSON document.
 * @returns What the records say; empty when they say nothing (or the file cannot be read: the import then says why).
 * @example
 * ```ts
 * await detectResource('character-objects.json'); // { resource: 'characters' }
 * ```
 */
export async function detectResource(file: string, options: ReadOptions = {}): Promise<Detection> {
  let looked = 0;
  try {
    for await (const source of readRecords(file, options)) {
      if (source.error !== undefined) continue;
      if (isRequestLine(source.value)) return { resource: REQUESTS };
      const fits = resourcesOf(source.value);
      if (fits.length === 1) return { resource: fits[0] };
      if (fits.length > 1) return { candidates: fits };
      const part = partLike(source.value);
      if (part) return { part };
      if (++looked >= DETECTION_RECORDS) break;
    }
  } catch (error) {
    if (!(error instanceof ImportInputError)) throw error;
  }
  return {};
}

/** The fields a `/full` anime or manga adds to the entry, which are records of their own. */
const FULL_PARTS = ['relations', 'theme', 'external', 'streaming', 'moreinfo'];

/** Rejections given a hint (what the record is instead), at most: each hint tries every resource's schema. */
const HINTED_REJECTIONS = 20;

/**
 * Of a batch of deleted ids, removes the entries the store holds with what they own (through the
 * record writer); the batch then lists every id. Tens of thousands of ids are mostly of entries
 * never imported: one read per batch finds the few that are. The batch's write that follows
 * makes the removals durable with it (a snapshot is written whole).
 * @param writer - The import's record writer.
 * @param store - The store it writes.
 * @param kind - Anime or manga.
 * @param ids - The batch's ids.
 * @param now - The time of the removals.
 * @param summary - The import's summary, for the error that interrupts it.
 */
async function removeListed(writer: RecordWriter, store: CatalogueStore, kind: MediaKind, ids: readonly number[], now: number, summary: ImportSummary): Promise<void> {
  let held: unknown[];
  try {
    held = await store.getMany(kind, ids);
  } catch (error) {
    throw new ImportInterruptedError(summary, error);
  }
  for (const [i, id] of ids.entries()) {
    if (held[i] === undefined) continue;
    try {
      await writer.remove(kind, id, now);
    } catch (error) {
      throw new ImportInterruptedError(summary, error);
    }
  }
}

/**
 * Imports one file into a sink.
 *
 * Plain records of a resource are validated and written in batches. Through core's record writer
 * (`createRecordWriter` over the sink's `store`), one at a time, go what owns other records: an
 * anime or manga as `/full` serves it (its relations, theme songs, external and streaming links
 * written with it, replacing those it had), each Jikan response of `resource: 'requests'`, and each
 * id of `deletedAnimeIds`/`deletedMangaIds` (the entry and what it owns removed, the id listed as
 * deleted). A record rejected as the wrong resource says what it looks like instead.
 * @param file - JSON or NDJSON of records of `options.resource`.
 * @param options - Resource, sink, batch size and callbacks.
 * @returns What was imported and rejected. The sink is closed either way.
 * @throws ImportInterruptedError when the sink fails; batches before the failing one stay committed.
 * @example
 * ```ts
 * const store = createPostgresStore({ url: process.env.DATABASE_URL });
 * await store.migrate();
 * const summary = await importFile('anime.ndjson', { resource: 'anime', sink: toStoreSink(store) });
 * for (const r of summary.rejected) console.error(`${r.position}: ${r.reason}`);
 * ```
 */
export async function importFile(file: string, options: ImportOptions & ReadOptions): Promise<ImportSummary> {
  const { resource, sink } = options;
  const now = options.now ?? Date.now;
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const keep = Math.max(0, options.keepRejections ?? KEPT_REJECTIONS);
  const summary: ImportSummary = { resource, read: 0, imported: 0, duplicates: 0, rejected: [], rejectedCount: 0, batches: 0, unchanged: 0 };
  // The ids written so far, to count records that repeat one (the store keeps the last).
  const written = new Set<string>();
  let batch: Array<{ position: string; record: unknown }> = [];
  let batchBytes = 0;
  let fraction = 0;
  let hinted = 0;
  let writer: RecordWriter | undefined;
  const writerOf = (store: CatalogueStore) => (writer ??= createRecordWriter(store, { check: (collection, record) => storageIssues(collection, record) }));
  let uncommitted = 0;
  const report = () =>
    options.onProgress?.({
      read: summary.read,
      imported: summary.imported,
      rejected: summary.rejectedCount,
      fraction,
    });
  const reject = (position: string, reason: string) => {
    const rejection = { position, reason };
    summary.rejectedCount++;
    if (summary.rejected.length < keep) summary.rejected.push(rejection);
    options.onReject?.(rejection);
  };
  const count = (key: string) => {
    if (written.has(key)) summary.duplicates++;
    else written.add(key);
    summary.imported = written.size;
  };
  const write = async (records: readonly unknown[]) => {
    if (resource === REQUESTS) throw new Error('requests are written through the record writer');
    try {
      await sink.write(resource, records);
    } catch (error) {
      if (!sink.refusesRecords?.(error)) throw new ImportInterruptedError(summary, error);
      return error;
    }
    summary.batches++;
    for (const record of records) count(recordKey(resource, record));
    return undefined;
  };
  const flush = async () => {
    if (batch.length === 0) return;
    if ((resource === 'deletedAnimeIds' || resource === 'deletedMangaIds') && sink.store) {
      const ids = batch.map((b) => b.record as number);
      await removeListed(writerOf(sink.store), sink.store, resource === 'deletedAnimeIds' ? 'anime' : 'manga', ids, now(), summary);
    }
    const refused = await write(batch.map((b) => b.record));
    // The target refused something the checks above let through: the batch rolled back, so write
    // its records one at a time and reject only those it refuses.
    if (refused !== undefined && batch.length === 1) reject(batch[0]!.position, `the store refused it: ${(refused as Error).message}`);
    else if (refused !== undefined) {
      for (const { position, record } of batch) {
        const error = await write([record]);
        if (error !== undefined) reject(position, `the store refused it: ${(error as Error).message}`);
      }
    }
    batch = [];
    batchBytes = 0;
    report();
  };
  const commit = async () => {
    if (uncommitted === 0) return;
    uncommitted = 0;
    try {
      await sink.commit?.();
    } catch (error) {
      throw new ImportInterruptedError(summary, error);
    }
  };
  /** Writes through the record writer: what it did, or why the record was rejected. */
  const viaWriter = async (key: string, run: (w: RecordWriter) => Promise<WriteOutcome | boolean>): Promise<string | undefined> => {
    await flush();
    if (!sink.store) return 'this target takes plain records only';
    let outcome: WriteOutcome | boolean;
    try {
      outcome = await run(writerOf(sink.store));
    } catch (error) {
      if (sink.refusesRecords?.(error)) return `the store refused it: ${(error as Error).message}`;
      throw new ImportInterruptedError(summary, error);
    }
    if (typeof outcome === 'object' && outcome.outcome === 'invalid') return outcome.reason;
    if (outcome === false || (typeof outcome === 'object' && outcome.outcome === 'unchanged')) summary.unchanged++;
    else summary.batches++;
    count(key);
    if (++uncommitted >= batchSize) await commit();
    report();
    return undefined;
  };
  /** Why a record cannot be imported, or `undefined` once it is written or batched. */
  const take = async (source: SourceRecord): Promise<string | undefined> => {
    const value = source.value;
    if (resource === REQUESTS) {
      const line = options.request ? { request: undefined, body: value } : value;
      if (!options.request && !isRequestLine(line)) return '(record): expected { "request": "/anime/{id}/{part}", "body": { "data": ... } }';
      const request = options.request ?? parseRequest((line as { request: string }).request);
      if (!request)
        return `request: "${String((line as { request: unknown }).request).slice(0, 80)}" names no part of an anime or manga (/anime/{id}/characters, /manga/{id}/full, …)`;
      const { kind, id, part } = request;
      return viaWriter(`${kind}/${id}/${part}`, (w) => w.part(kind, id, part, (line as { body: unknown }).body, now()));
    }
    const { schema } = RESOURCES[resource];
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const hint = hinted < HINTED_REJECTIONS ? (hinted++, mismatchHint(value, resource)) : undefined;
      return formatIssues(parsed.error.issues) + (hint ? ` (${hint})` : '');
    }
    const issues = storageIssues(resource, parsed.data);
    if (issues.length > 0) return issues.join('; ');
    if ((resource === 'anime' || resource === 'manga') && FULL_PARTS.some((f) => f in (value as object))) {
      const id = (parsed.data as { mal_id: number }).mal_id;
      return viaWriter(String(id), (w) => w.part(resource, id, 'full', { data: value }, now()));
    }
    batch.push({ position: source.position, record: parsed.data });
    batchBytes += source.bytes ?? 0;
    return undefined;
  };
  try {
    for await (const source of readRecords(file, {
      ...options,
      whole: resource === REQUESTS && options.request !== undefined,
    })) {
      summary.read++;
      fraction = source.progress;
      const reason = source.error ?? (await take(source));
      if (reason !== undefined) {
        reject(source.position, reason);
        report();
      }
      if (batch.length >= batchSize || batchBytes >= MAX_BATCH_BYTES) await flush();
    }
    await flush();
    await commit();
    try {
      await sink.finish?.();
    } catch (error) {
      throw new ImportInterruptedError(summary, error);
    }
    return summary;
  } finally {
    await sink.close();
  }
}

/**
 * A sink writing to a PostgreSQL store, one transaction per batch.
 * @param store - A migrated store.
 * @param options - Whether closing the sink closes the store. @default { closeStore: false }
 */
export function toStoreSink(store: PostgresStore, options: { closeStore?: boolean } = {}): ImportSink {
  return {
    async write(resource, records) {
      await store.upsert(resource, records);
    },
    // SQLSTATE classes 22 (data exception), 23 (integrity constraint violation) and 54 (program
    // limit exceeded, e.g. a title too long for its B-tree index): PostgreSQL read the batch and
    // refused a value in it (https://www.postgresql.org/docs/current/errcodes-appendix.html).
    refusesRecords: (error) => /^(22|23|54)/.test(String((error as { code?: unknown }).code ?? '')),
    finish: () => store.analyze(),
    store,
    async close() {
      if (options.closeStore) await store.close();
    },
  };
}

/**
 * JSON text with every non-ASCII UTF-16 unit written as a `\uXXXX` escape: the same value once
 * parsed, and V8 parses the one-byte string such text reads into ~20 % faster than the two-byte
 * string any non-ASCII character makes of it (190 ms of 860 for 30k anime).
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A sink writing a memory-store snapshot: one JSON file holding `CatalogueData` (`{ "anime": [...],
 * … }`), loadable with `createMemoryStore(JSON.parse(text))`. Records already in the file are kept
 * and replaced by identity; each batch rewrites the file atomically (write, then rename). The file
 * is ASCII: other characters are written as `\u` escapes, which parse faster.
 * @param out - The snapshot path.
 * @returns The sink.
 */
export async function createSnapshotSink(out: string): Promise<ImportSink> {
  const data: Record<string, unknown[]> = {};
  try {
    Object.assign(data, JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown[]>);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read snapshot ${out}: ${(error as Error).message}`);
  }
  const indexes = new Map<string, Map<string, number>>();
  const indexOf = (resource: ResourceName) => {
    let index = indexes.get(resource);
    if (!index) {
      index = new Map((data[resource] ?? []).map((r, i) => [recordKey(resource, r), i]));
      indexes.set(resource, index);
    }
    return index;
  };
  const put = (resource: ResourceName, records: readonly unknown[]) => {
    const list = (data[resource] ??= []);
    const index = indexOf(resource);
    for (const record of records) {
      const key = recordKey(resource, record);
      const at = index.get(key);
      if (at === undefined) {
        index.set(key, list.length);
        list.push(record);
      } else list[at] = record;
    }
  };
  const save = async () => {
    const tmp = `${out}.${process.pid}.tmp`;
    await writeFile(tmp, asciiJson(data));
    await rename(tmp, out);
  };
  return {
    async write(resource, records) {
      put(resource, records);
      await save();
    },
    store: snapshotStore(data, indexOf, put, (resource) => indexes.delete(resource)),
    commit: save,
    async close() {},
  };
}

/**
 * The catalogue-store view of a snapshot's records, for the record writer: reads by key and by
 * `owners`, upserts and deletes; what the writer does not ask (`pluck`, `tally`, search) it refuses.
 */
function snapshotStore(
  data: Record<string, unknown[]>,
  indexOf: (resource: ResourceName) => Map<string, number>,
  put: (resource: ResourceName, records: readonly unknown[]) => void,
  forget: (resource: ResourceName) => void,
): CatalogueStore {
  const at = (c: CollectionName, key: string | number) => {
    const i = indexOf(c).get(String(key));
    return i === undefined ? undefined : data[c]![i];
  };
  const unsupported = (what: string) => Promise.reject(new Error(`a snapshot import does not ${what}`));
  return {
    get: async <C extends CollectionName>(c: C, key: string | number) => at(c, key) as CollectionRecord<C> | undefined,
    getMany: async <C extends CollectionName>(c: C, keys: readonly (string | number)[]) => keys.map((k) => at(c, k) as CollectionRecord<C> | undefined),
    async query<C extends CollectionName>(c: C, q: Parameters<CatalogueStore['query']>[1]) {
      if (q.search !== undefined || q.orderBy) return unsupported('search or order records');
      const rows = (data[c] ?? []).filter((r) => holdsAll(fieldValues(c, r) as Fields, q.where));
      return {
        data: rows.slice(q.offset, q.offset + q.limit) as CollectionRecord<C>[],
        total: rows.length,
      };
    },
    pluck: () => unsupported('pluck fields'),
    tally: () => unsupported('tally fields'),
    async upsert(c, records) {
      put(c, records);
      return new Set(records.map((r) => recordKey(c, r))).size;
    },
    async delete(c, keys) {
      const gone = new Set(keys.map(String));
      const list = data[c] ?? [];
      const kept = list.filter((r) => !gone.has(recordKey(c, r)));
      if (kept.length === list.length) return 0;
      data[c] = kept;
      forget(c);
      return list.length - kept.length;
    },
  };
}
