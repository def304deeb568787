/**
 * Response caching: the in-memory cache store (lru-cache, bounded by the bytes it holds), strong ETags and
 * `If-None-Match` matching.
 * @module
 */
import { LRUCache } from 'lru-cache';
import { stringSize } from '../internal/string-size.js';
import { digestOf } from '../seam/record-json.js';
import type { CacheStore, CachedResponse } from './back-end.js';

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheOptions {
  /**
   * Upper bound of what the cache holds, in bytes: keys, header names and values, entity tags and
   * bodies as the engine stores them (see {@link toCacheEntrySize}), plus a fixed cost per entry.
   * @default 48 MiB
   */
  maxBytes?: number;
  /**
   * Longest key (path and query, in characters) that is cached. A request with a longer one is
   * answered by the routes every time and never kept: one-off long query strings would otherwise
   * push out many useful entries each.
   * @default 2048
   */
  maxKeyLength?: number;
}

/**
 * What an entry costs besides its strings: the entry and header objects, the string headers, the
 * LRU's map slot and lists, and the headers the gateway answers its hits with. Measured on Node 20
 * (~750 bytes, before hits kept their headers; those add ~150 more by V8's object layout) and
 * rounded up.
 */
const ENTRY_OVERHEAD = 1_024;

/**
 * The bytes an entry holds in memory under `key`: the key, header names and values, entity tag and
 * body as the engine stores them (one byte a character for Latin-1 text, else two), plus a fixed
 * cost per entry for the objects and the cache's bookkeeping.
 * @param key - The cache key (path and query).
 * @param entry - The cached response.
 * @returns The size in bytes.
 * @example
 * ```ts
 * toCacheEntrySize('/v1/anime/1', entry); // ≈ 1 KiB + body
 * ```
 */
export function toCacheEntrySize(key: string, entry: CachedResponse): number {
  let size = ENTRY_OVERHEAD + stringSize(key) + stringSize(entry.body) + entry.etag.length;
  for (const name in entry.headers) size += name.length + stringSize(entry.headers[name]!);
  if (entry.deps) for (const token of entry.deps) size += 16 + stringSize(token);
  return size;
}

/** The in-memory cache store, with what it holds by its own accounting. */
export interface MemoryCacheStore extends CacheStore {
  /** Bytes held, as {@link toCacheEntrySize} counts them; never above `maxBytes`. */
  readonly bytes: number;
  /** Entries held. */
  readonly entries: number;
}

/**
 * An in-memory response cache for one process: least recently used entries go first once
 * `maxBytes` is reached (counting keys, headers and bodies), keys longer than `maxKeyLength` are
 * never kept, and entries end at their `expiresAt` on the gateway's clock.
 * @param options - Size bounds.
 * @returns The cache store.
 * @example
 * ```ts
 * const publicCache = createMemoryCacheStore({ maxBytes: 32 * 1024 * 1024 });
 * ```
 */
export function createMemoryCacheStore(options: MemoryCacheOptions = {}): MemoryCacheStore {
  const maxKeyLength = options.maxKeyLength ?? 2_048;
  const lru = new LRUCache<string, CachedResponse>({
    maxSize: options.maxBytes ?? 48 * 1024 * 1024,
    sizeCalculation: (entry, key) => toCacheEntrySize(key, entry),
  });
  return {
    get bytes() {
      return lru.calculatedSize;
    },
    get entries() {
      return lru.size;
    },
    get(key, now) {
      if (key.length > maxKeyLength) return undefined;
      const entry = lru.get(key);
      if (entry === undefined) return undefined;
      // Expiry is checked against the injected clock rather than lru-cache's own timer, so tests control it.
      if (entry.expiresAt <= now) {
        lru.delete(key);
        return undefined;
      }
      return entry;
    },
    set(key, entry) {
      // lru-cache itself refuses an entry larger than the whole bound.
      if (key.length <= maxKeyLength) lru.set(key, entry);
    },
  };
}

const encoder = new TextEncoder();
// Scratch space for hashing: reused, since bodies are hashed one at a time (the function is synchronous).
let scratch = new Uint8Array(64 * 1024);

/**
 * A strong entity tag over the exact body bytes: their length and a 64-bit hash (two 32-bit
 * multiply-xor lanes over the UTF-8 bytes, a word at a time), quoted. A strong tag promises
 * byte-identical bodies (RFC 9110 §8.8.1); it need not be cryptographic, and Web Crypto's async
 * digest would cost 15–40 µs a response for the thread hop alone, against ~1.5 µs for 3 KB here.
 * @param body - The response body.
 * @returns The quoted tag, e.g. `"a98-3f2c…"`.
 */
export function toEtag(body: string | Uint8Array): string {
  let length: number;
  if (typeof body === 'string') {
    if (scratch.length < body.length * 3) scratch = new Uint8Array(body.length * 3);
    length = encoder.encodeInto(body, scratch).written;
  } else {
    if (scratch.length < body.length) scratch = new Uint8Array(body.length);
    scratch.set(body);
    length = body.length;
  }
  return `"${length.toString(16)}-${digestOf(scratch.subarray(0, length))}"`;
}

/**
 * Whether `If-None-Match` matches a tag, by the weak comparison RFC 9110 §13.1.2 requires
 * (`W/` prefixes ignored; `*` matches any current representation).
 * @param header - The `If-None-Match` value.
 * @param etag - The current strong tag, quoted.
 */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  for (const raw of header.split(',')) {
    let tag = raw.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === etag) return true;
  }
  return false;
}

/**
 * An HTTP date (IMF-fixdate, RFC 9110 §5.6.7).
 * @param ms - Milliseconds since the epoch.
 */
export function toHttpDate(ms: number): string {
  return new Date(ms).toUTCString();
}
