/**
 * Records serialized once: a stored record's JSON text (its `/s/` image paths resolved), as UTF-8
 * bytes with a digest of them, is made the first time the record is answered and kept beside it
 * until the record is written again; a store that reads records back as the JSON text it wrote
 * gives core that text with the record ({@link parseStoredRecord}), and it is answered as it is.
 * A page is then its records' bytes spliced into the envelope with its pagination object, and its
 * strong entity tag comes from the records' digests and the envelope's own text rather than from
 * hashing the whole body again.
 * @module
 */
import { stringSize, utf8Length } from '../internal/string-size.js';
import { DEFAULT_CDN_URL, resolveImagePaths } from './image-host.js';

/** A record's JSON as it is answered: UTF-8 bytes, and a digest of exactly those bytes. */
interface RecordJson {
  /** The image host it was resolved against; `undefined` when it holds no `/s/` path (the same for every host). */
  readonly host: string | undefined;
  readonly bytes: Uint8Array;
  /** 16 hex digits over `bytes` (see {@link digestOf}). */
  readonly digest: string;
  /** What stands for it in a body's key: NUL (never raw in JSON text), its length in hex, `:` and its digest. */
  readonly key: string;
}

/** A record's JSON as it is kept: a store's text has its digest and key made when first answered. */
type KeptJson = Pick<RecordJson, 'host' | 'bytes'> & { digest?: string; key?: string };

/** A record's JSON as it is answered, with its digest and key. */
function recordJsonOf(host: string | undefined, bytes: Uint8Array, digest = digestOf(bytes)): RecordJson {
  return { host, bytes, digest, key: `\u0000${bytes.length.toString(16)}:${digest}` };
}

/**
 * Objects a store holds and hands out as they are (the memory store's records): their JSON is
 * kept in `texts` once made. Other objects (made per request, or parsed per query) are written by
 * `JSON.stringify` each time.
 */
const stored = new WeakSet<object>();
/** Stored records a store keeps and hands out again (see {@link markStoredRecord}), not read back per request. */
const held = new WeakSet<object>();
const texts = new WeakMap<object, KeptJson>();
/**
 * An object made as `{ ...base, ...extra }` by {@link extendRecord}: written as `base`'s text with
 * `extra`'s members appended. The two pieces are kept once written (for one serializer's image host
 * and one text of `base`), so that the same extension answered again is neither copied nor written.
 */
interface Extension {
  readonly base: object;
  readonly extra: Record<string, unknown>;
  /** `base`'s text less its closing brace, made from `of`. */
  head?: RecordJson;
  /** `extra`'s members and the closing brace. */
  tail?: RecordJson;
  /** The text of `base` `head` was made from. */
  of?: RecordJson;
  /** The image host `tail` was written for. */
  host?: string;
}
const extensions = new WeakMap<object, Extension>();

/**
 * The extensions of stored records made last, by record, handed out again while their members are
 * the same: an entry's `/full` form is then made once, not per request (a copy of the record and a
 * `JSON.stringify` of ~4 KB of its relations, themes and links cost ~45 µs of an anime's `/full` on
 * Node 20). At most {@link EXTENSIONS_KEPT}, the least recently used out first.
 */
const lastExtensions = new Map<object, { extra: Record<string, unknown>; out: object }>();
const EXTENSIONS_KEPT = 1_024;

/** The views of held records kept by {@link createRecordViews}, one map each, forgotten with the record's JSON. */
const viewMaps: Array<WeakMap<object, unknown>> = [];

/**
 * Marks a record as held by a store and handed out as it is, never changed in place: its JSON is
 * made once and kept. A store calls this whenever it writes a record (also again for the same
 * object), which forgets the JSON and the views made before.
 * @param record - The record as the store keeps it.
 */
export function markStoredRecord(record: unknown): void {
  if (record === null || typeof record !== 'object') return;
  texts.delete(record);
  lastExtensions.delete(record);
  for (const views of viewMaps) views.delete(record);
  stored.add(record);
  held.add(record);
}

/**
 * A view of records (a relation's short form of an entry…) that is made once for each record a
 * store holds (see {@link markStoredRecord}) and handed out again until the record is written:
 * the same object each time, so that a `/full` form built from it again is known unchanged by
 * identity (`extendRecord`) rather than member by member. Views of other records are made per call.
 * A view, like a stored record, is never changed in place.
 * @param make - Makes a record's view.
 * @returns The view of a record.
 */
export function createRecordViews<R extends object, V>(make: (record: R) => V): (record: R) => V {
  const kept = new WeakMap<object, V>();
  viewMaps.push(kept as WeakMap<object, unknown>);
  return (record) => {
    if (!held.has(record)) return make(record);
    let view = kept.get(record);
    if (view === undefined) kept.set(record, (view = make(record)));
    return view;
  };
}

const decoder = new TextDecoder();

/** How a string that is an image path starts in JSON text (see image-host.ts): such text is written again for each host. */
const IMAGE_PATH = '"/s/';

/**
 * Whether a store's JSON text holds an image path (a string that begins with `/s/`), read from its
 * bytes without decoding them: text that does not is answered as it is, whatever the host.
 * @param json - UTF-8 JSON text.
 */
export function holdsImagePath(json: Uint8Array): boolean {
  // The marker's bytes: `"`, `/`, `s`, `/`; found from each `/`, which few texts hold.
  for (let i = json.indexOf(0x2f); i > 0; i = json.indexOf(0x2f, i + 1)) {
    if (json[i - 1] === 0x22 && json[i + 1] === 0x73 && json[i + 2] === 0x2f) return true;
  }
  return false;
}

/**
 * Parses a record (or a list of records) that a store read back as JSON text, and keeps those very
 * bytes as its answer: a store whose back end hands out the text it was given (the PostgreSQL
 * store's `json` columns) spares core writing the record again. Like any record a store hands
 * out, it is never changed in place afterwards.
 * @param json - The UTF-8 bytes of `JSON.stringify(record)`, exactly as the store wrote them.
 * @returns The record, parsed.
 * @example
 * ```ts
 * const record = parseStoredRecord(new TextEncoder().encode('{"mal_id":1}'));
 * ```
 */
export function parseStoredRecord(json: Uint8Array): unknown {
  const text = decoder.decode(json);
  const record: unknown = JSON.parse(text);
  if (record === null || typeof record !== 'object') return record;
  stored.add(record);
  // Text with an image path to resolve is written again for each host, the first time it is answered.
  if (!text.includes(IMAGE_PATH)) texts.set(record, { host: undefined, bytes: json });
  return record;
}

/**
 * `{ ...base, ...extra }`, remembered as such: when `base` is a stored record (see
 * {@link markStoredRecord}) and shares no key with `extra`, its JSON is `base`'s kept text with
 * `extra`'s members appended (a detail's `/full` form: the record and what hangs off it).
 * @param base - The record.
 * @param extra - The members added after its own.
 * @returns The new object.
 */
export function extendRecord<B extends object, E extends Record<string, unknown>>(base: B, extra: E): B & E {
  const last = lastExtensions.get(base);
  if (last !== undefined && sameJson(last.extra, extra)) {
    // Used again: now the most recently used.
    lastExtensions.delete(base);
    lastExtensions.set(base, last);
    return last.out as B & E;
  }
  const out = { ...base, ...extra };
  extensions.set(out, { base, extra });
  if (held.has(base)) {
    lastExtensions.delete(base);
    if (lastExtensions.size >= EXTENSIONS_KEPT) lastExtensions.delete(lastExtensions.keys().next().value!);
    lastExtensions.set(base, { extra, out });
  }
  return out;
}

/**
 * Whether two values are written as the same JSON: the same value, or arrays and plain objects with
 * the same members in the same order, each the same. Any other object is the same only as itself.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== others[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

const encoder = new TextEncoder();

/** Where {@link digestOf} copies bytes that do not start on a word (a view into a driver's message), grown as needed. */
let scratch = new Uint8Array(1024);

/** The bytes at the start of {@link scratch}, which is word-aligned; the copy lasts until the next call. */
function alignedCopy(bytes: Uint8Array): Uint8Array {
  if (scratch.length < bytes.length) scratch = new Uint8Array(Math.max(bytes.length, scratch.length * 2));
  scratch.set(bytes);
  return scratch.subarray(0, bytes.length);
}

/**
 * Two 32-bit multiply-xor lanes over the bytes, a word at a time, with a final avalanche: the hash
 * of the gateway's entity tags (`toEtag` in gateway/cache.ts), as 16 hex digits.
 * @param bytes - The bytes.
 * @returns The digest.
 */
export function digestOf(bytes: Uint8Array): string {
  const length = bytes.length;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : alignedCopy(bytes);
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, length >> 2);
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    h1 = Math.imul(h1 ^ word, 0x9e3779b1);
    h2 = Math.imul(h2 ^ word, 0x5bd1e995);
  }
  for (let i = length & ~3; i < length; i++) h1 = Math.imul(h1 ^ aligned[i]!, 0x9e3779b1);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** A serialized body: UTF-8 bytes and their strong entity tag, quoted. */
export interface SerializedBody {
  bytes: Uint8Array;
  etag: string;
}

/**
 * Makes the catalogue's serializer: a reply's body as the UTF-8 bytes of `JSON.stringify` with
 * every string that begins with `/s/` resolved against `{cdnUrl}/images` (as `resolveImagePaths`),
 * byte for byte, and a strong entity tag for them.
 *
 * The envelope (`{ data, pagination, … }`) is walked: a stored record found as a member of it, or
 * as an element of an array member whose first element is one, is spliced in as its kept bytes;
 * everything else is written by `JSON.stringify`. The tag is the body's length and a hash over the
 * envelope's own text with each record's digest in its place, so it changes whenever a byte of the
 * body would, without the body being hashed again.
 * @param cdnUrl - The image CDN, without a trailing slash.
 * @returns The serializer.
 */
export function createRecordSerializer(cdnUrl: string = DEFAULT_CDN_URL): (body: unknown) => SerializedBody {
  const host = `${cdnUrl.replace(/\/+$/, '')}/images`;
  const native = (value: unknown): string => {
    const json = JSON.stringify(value);
    if (json === undefined) return 'null';
    return json.includes(IMAGE_PATH) ? JSON.stringify(resolveImagePaths(value, cdnUrl)) : json;
  };
  const recordJson = (record: object): RecordJson => {
    const known = texts.get(record);
    if (known !== undefined && (known.host === undefined || known.host === host)) {
      if (known.digest === undefined) {
        const ready = recordJsonOf(known.host, known.bytes);
        texts.set(record, ready);
        return ready;
      }
      return known as RecordJson;
    }
    const bytes = encoder.encode(native(record));
    const made = recordJsonOf(host, bytes);
    texts.set(record, made);
    return made;
  };

  // The body in pieces: text, and records' kept JSON, in order.
  let pieces: Array<string | RecordJson> = [];
  let text = '';
  const splice = (json: RecordJson) => {
    if (text !== '') pieces.push(text);
    text = '';
    pieces.push(json);
  };

  /** Writes a value that may be a stored record or one extended; `false` when it is neither. */
  const writeRecord = (value: object): boolean => {
    if (stored.has(value)) {
      splice(recordJson(value));
      return true;
    }
    const extended = extensions.get(value);
    if (extended === undefined || !stored.has(extended.base)) return false;
    const { base, extra } = extended;
    const json = recordJson(base);
    if (extended.of !== json || extended.host !== host) {
      for (const key in extra) if (Object.hasOwn(base, key)) return false;
      // The record's text less its closing brace, then the extra members and the brace.
      const members = json.bytes.length > 2;
      extended.head = recordJsonOf(json.host, json.bytes.subarray(0, json.bytes.length - 1), json.digest);
      // The extra members in one JSON.stringify (it leaves out what writeMembers would), less its braces.
      const more = native(extra);
      extended.tail = recordJsonOf(json.host, encoder.encode(more.length > 2 ? (members ? ',' : '') + more.slice(1) : '}'));
      extended.of = json;
      extended.host = host;
    }
    splice(extended.head!);
    splice(extended.tail!);
    return true;
  };

  /**
   * Writes an object's own members as JSON.stringify does (leaving out `undefined`, functions and
   * symbols), each after a comma but the first when `first`.
   */
  const writeMembers = (object: Record<string, unknown>, first: boolean) => {
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      const v = object[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      writeMember(v);
    }
  };

  /** A member of the envelope: a record, an array of records, or anything else as JSON.stringify writes it. */
  const writeMember = (value: unknown) => {
    if (value !== null && typeof value === 'object') {
      if (writeRecord(value)) return;
      if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null && (stored.has(value[0]) || extensions.has(value[0]))) {
        text += '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) text += ',';
          const item: unknown = value[i];
          if (item === null || typeof item !== 'object' || !writeRecord(item)) text += native(item);
        }
        text += ']';
        return;
      }
    }
    text += native(value);
  };

  const assemble = createAssembler();
  return (body) => {
    pieces = [];
    text = '';
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && typeof (body as { toJSON?: unknown }).toJSON !== 'function' && !writeRecord(body)) {
      text = '{';
      writeMembers(body as Record<string, unknown>, true);
      text += '}';
    } else if (pieces.length === 0) {
      writeMember(body);
    }
    if (text !== '') pieces.push(text);
    return assemble(pieces);
  };
}

/** Most bytes of assembled bodies remembered by one serializer, their keys included; the oldest go first. */
const ASSEMBLED_BYTES = 8 * 1024 * 1024;
/** Longer text pieces stand in a body's key as their length and digest, shorter ones as they are. */
const LITERAL_CHARS = 64;

/**
 * Makes the function that joins a body's pieces into one and tags it. A body's key lists its
 * pieces: short text as it is, and each record (NUL) or longer text (U+0001; neither is ever raw in
 * JSON text) as its length and digest. The tag is the body's length and a hash of that key, so it
 * changes whenever a byte of the body would, without the body being hashed; and the key finds a body
 * assembled before from the very same pieces. A popular page is then one lookup rather than a new
 * buffer and a copy of every record (~90 KB for 25 anime), which also spares the collector, and
 * the kernel the pages it gave each new buffer.
 */
function createAssembler(): (pieces: ReadonlyArray<string | RecordJson>) => SerializedBody {
  const assembled = new Map<string, SerializedBody>();
  let total = 0;
  const remember = (key: string, body: SerializedBody) => {
    const size = body.bytes.byteLength + stringSize(key);
    if (size > ASSEMBLED_BYTES / 4) return;
    assembled.set(key, body);
    total += size;
    for (const [oldest, old] of assembled) {
      if (total <= ASSEMBLED_BYTES) break;
      assembled.delete(oldest);
      total -= old.bytes.byteLength + stringSize(oldest);
    }
  };
  // Long text pieces of the body being assembled, encoded (in order).
  const encoded: Uint8Array[] = [];
  return (pieces) => {
    if (pieces.length === 1 && typeof pieces[0] === 'string') {
      const bytes = encoder.encode(pieces[0]);
      return { bytes, etag: `"${bytes.length.toString(16)}-${digestOf(bytes)}"` };
    }
    encoded.length = 0;
    let key = '';
    let length = 0;
    for (const piece of pieces) {
      if (typeof piece !== 'string') {
        key += piece.key;
        length += piece.bytes.length;
      } else if (piece.length <= LITERAL_CHARS) {
        key += piece;
        length += utf8Length(piece);
      } else {
        const bytes = encoder.encode(piece);
        encoded.push(bytes);
        key += `\u0001${bytes.length.toString(16)}:${digestOf(bytes)}`;
        length += bytes.length;
      }
    }
    const known = assembled.get(key);
    if (known !== undefined) return known;
    const bytes = new Uint8Array(length);
    let at = 0;
    let long = 0;
    for (const piece of pieces) {
      const chunk = typeof piece !== 'string' ? piece.bytes : piece.length > LITERAL_CHARS ? encoded[long++]! : undefined;
      if (chunk !== undefined) {
        bytes.set(chunk, at);
        at += chunk.length;
      } else {
        at += encoder.encodeInto(piece as string, bytes.subarray(at)).written;
      }
    }
    const body = { bytes, etag: `"${length.toString(16)}-${digestOf(encoder.encode(key))}"` };
    remember(key, body);
    return body;
  };
}
