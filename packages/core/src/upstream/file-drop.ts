/**
 * A file drop as a source of records: files in the importer's format (NDJSON, one record a line;
 * or a JSON array, or Jikan's `{ "data": [...] }`) published at URLs, each applied once. What was
 * applied is remembered in a cursor the caller stores (a string, e.g. a `RefreshState` cursor):
 * each file's name with its version (its `ETag`, else `Last-Modified`, else a digest of its
 * bytes). A conditional GET makes an unchanged file cost one 304. The folder form, over the
 * file system, lives next to the importer (`@catalogue-api/store-postgres`).
 * @module
 */
import { DEFAULT_USER_AGENT } from './jikan-source.js';
import type { Budget } from './types.js';

/** One record read from a dropped file, as the importer reads records. */
export interface DroppedRecord {
  /** Where it was (`line 3`, `index 2`). */
  readonly position: string;
  /** The parsed record, when it parsed. */
  readonly value?: unknown;
  /** Why it did not parse. */
  readonly error?: string | undefined;
}

/** A file to apply. */
export interface DroppedFile {
  /** Its name (a URL, or a file name in a folder). */
  readonly name: string;
  /** Its version: what the cursor remembers once it is applied. */
  readonly version: string;
  /** Where it is on disk, for a folder drop (the importer reads it there). */
  readonly path?: string | undefined;
  /** Its records, in order. */
  records(): AsyncIterable<DroppedRecord>;
}

/** What one check of a file drop did. */
export interface FileDropResult {
  /** The cursor to store: every file applied, with its version. */
  readonly cursor: string;
  /** The files applied by this check. */
  readonly applied: readonly string[];
  /** The files already applied in the same version. */
  readonly unchanged: readonly string[];
  /** The files that could not be read or applied (tried again at the next check). */
  readonly failed: ReadonlyArray<{ readonly name: string; readonly reason: string }>;
}

/** A file drop: each check applies the files not yet applied in their current version. */
export interface FileDrop {
  /**
   * Applies every new or changed file, in name order, through the caller's `apply`.
   * @param cursor - The cursor of the last check, as stored (absent: nothing applied yet).
   * @param signal - Stops between files and aborts a download.
   */
  check(cursor?: string, signal?: AbortSignal): Promise<FileDropResult>;
}

/** Applies one file's records (e.g. through the importer or a `RecordWriter`); throws to leave it for the next check. */
export type ApplyDroppedFile = (file: DroppedFile, signal?: AbortSignal) => Promise<void>;

/**
 * Reads a cursor: each file's name and the version applied.
 * @param cursor - The stored cursor, or `undefined`.
 * @returns The versions by name; an unreadable cursor reads as empty (every file applied again, which a write that changes nothing makes harmless).
 */
export function parseDropCursor(cursor: string | undefined): Record<string, string> {
  if (!cursor) return {};
  try {
    const value: unknown = JSON.parse(cursor);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * Writes a cursor (names in order, so one state has one cursor).
 * @param versions - The versions applied, by name.
 */
export function formatDropCursor(versions: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(versions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/**
 * One check of a file drop (the URL form here, the folder form in `@catalogue-api/store-postgres`):
 * opens each name in order and applies every file whose version the cursor does not hold. A name
 * that cannot be opened or applied is left for the next check; the cursor remembers only the names
 * still there.
 * @param cursor - The cursor of the last check, as stored.
 * @param names - The names to look at, in order.
 * @param open - A name's file in its current version; `'unchanged'` when the source can tell without
 *   reading it, `'gone'` when it is no longer there. Throws when it cannot be read.
 * @param apply - The caller's apply step.
 * @param signal - Stops between files.
 * @returns What the check did, and the cursor to store.
 * @example
 * ```ts
 * const result = await checkDroppedFiles(cursor, ['a.ndjson'], async (name) => openFile(name), apply);
 * ```
 */
export async function checkDroppedFiles(
  cursor: string | undefined,
  names: readonly string[],
  open: (name: string, known: string | undefined, signal?: AbortSignal) => Promise<DroppedFile | 'unchanged' | 'gone'>,
  apply: ApplyDroppedFile,
  signal?: AbortSignal,
): Promise<FileDropResult> {
  const versions = parseDropCursor(cursor);
  const applied: string[] = [];
  const unchanged: string[] = [];
  const failed: Array<{ name: string; reason: string }> = [];
  const present = new Set<string>();
  const fail = (name: string, error: unknown) => {
    if (signal?.aborted) throw signal.reason;
    failed.push({ name, reason: error instanceof Error ? error.message : String(error) });
  };
  for (const name of names) {
    signal?.throwIfAborted();
    let file: DroppedFile | 'unchanged' | 'gone';
    try {
      file = await open(name, versions[name], signal);
    } catch (error) {
      present.add(name);
      fail(name, error);
      continue;
    }
    if (file === 'gone') continue;
    present.add(name);
    if (file === 'unchanged' || file.version === versions[name]) {
      unchanged.push(name);
      continue;
    }
    try {
      await apply(file, signal);
    } catch (error) {
      fail(name, error);
      continue;
    }
    versions[name] = file.version;
    applied.push(name);
  }
  // Names no longer there are forgotten: the cursor is as small as the drop.
  const kept = Object.fromEntries(Object.entries(versions).filter(([name]) => present.has(name)));
  return { cursor: formatDropCursor(kept), applied, unchanged, failed };
}

/**
 * The records of a file's text in the importer's format: a JSON array, `{ "data": [...] }`, the
 * response of one record (`{ "data": {...} }`), or else NDJSON (a blank line skipped, a line that
 * does not parse an error at its position).
 * @param text - The file's text.
 */
export function* parseDroppedText(text: string): Generator<DroppedRecord> {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  if (first === '[' || first === '{') {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      doc = undefined;
    }
    if (doc !== undefined) {
      const list = Array.isArray(doc) ? doc : (doc as { data?: unknown }).data;
      if (Array.isArray(list)) {
        for (let i = 0; i < list.length; i++) yield { position: `index ${i}`, value: list[i] };
        return;
      }
      yield { position: 'line 1', value: list !== null && typeof list === 'object' ? list : doc };
      return;
    }
  }
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      yield { position: `line ${i + 1}`, value: JSON.parse(line) };
    } catch (error) {
      yield { position: `line ${i + 1}`, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

/** Options of {@link createUrlFileDrop}. */
export interface UrlFileDropOptions {
  /** The files' URLs (http or https), applied in this order. */
  urls: readonly string[];
  /** Applies one file. */
  apply: ApplyDroppedFile;
  /** A budget each download takes a slot of (when the files are served by a rate-limited host). */
  budget?: Budget;
  /** The largest file read, in bytes. @default 268435456 (256 MiB) */
  maxBytes?: number;
  /** A download not done after this long is abandoned (real time). @default 300000 */
  timeoutMs?: number;
  /** The `User-Agent` header. @default the library's, as the Jikan source sends it */
  userAgent?: string;
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Hex SHA-256 of some bytes (Web Crypto). */
async function digest(bytes: ArrayBuffer): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return 'sha256:' + Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The validator a version holds for a conditional GET: an entity tag or a date.
 * @param version - The version remembered.
 */
function conditionalHeaders(version: string | undefined): Record<string, string> {
  if (version === undefined || version.startsWith('sha256:')) return {};
  return /^(W\/)?"/.test(version) ? { 'if-none-match': version } : { 'if-modified-since': version };
}

/**
 * A file drop at URLs: each check sends a conditional GET for every URL (`If-None-Match` or
 * `If-Modified-Since` from the version applied), and applies a file whose version is new.
 * @param options - The URLs, the apply step and the limits of a download.
 * @returns The file drop.
 * @throws RangeError when a URL is not http(s).
 * @example
 * ```ts
 * const drop = createUrlFileDrop({
 *   urls: ['https://data.example/anime.ndjson'],
 *   apply: async (file) => { for await (const r of file.records()) await write(r); },
 * });
 * const result = await drop.check(await state.getCursor('file-drop'));
 * await state.setCursor('file-drop', result.cursor);
 * ```
 */
export function createUrlFileDrop(options: UrlFileDropOptions): FileDrop {
  for (const url of options.urls) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new RangeError(`a file drop URL must be http(s), not ${JSON.stringify(url)}`);
  }
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  /** Downloads one URL: `undefined` when unchanged (304), else its version and text. */
  const download = async (url: string, known: string | undefined, signal: AbortSignal | undefined): Promise<{ version: string; text: string } | undefined> => {
    await options.budget?.take(signal);
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await doFetch(url, {
      headers: { accept: 'application/x-ndjson, application/json;q=0.9, */*;q=0.1', 'user-agent': userAgent, ...conditionalHeaders(known) },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (response.status === 304) return undefined;
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`${response.status} ${response.statusText}`.trim());
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`${length} bytes, over the limit of ${maxBytes}`);
    }
    const bytes = await readBounded(response, maxBytes);
    const version = response.headers.get('etag') ?? response.headers.get('last-modified') ?? (await digest(bytes));
    return { version, text: new TextDecoder().decode(bytes) };
  };

  return {
    check: (cursor, signal) =>
      checkDroppedFiles(
        cursor,
        options.urls,
        async (url, known, signal) => {
          const file = await download(url, known, signal);
          if (file === undefined) return 'unchanged';
          const { text, version } = file;
          return { name: url, version, records: async function* () { yield* parseDroppedText(text); } };
        },
        options.apply,
        signal,
      ),
  };
}

/** Reads a response's body up to `maxBytes`, failing beyond. */
async function readBounded(response: Response, maxBytes: number): Promise<ArrayBuffer> {
  if (!response.body) return new ArrayBuffer(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out.buffer;
}
