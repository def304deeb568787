/**
 * Response caching: the in-memory cache store (lru-cache, bounded by bytes), strong ETags and
 * `If-None-Match` matching.
 * @module
 */
import { LRUCache } from 'lru-cache';
import type { CacheStore, CachedResponse } from './back-end.js';

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheOptions {
  /** Upper bound of the cached bodies, in bytes (UTF-16 code units, close enough for JSON). @default 64 MiB */
  maxBytes?: number;
}

// What an entry costs besides its body: headers, tag and the LRU bookkeeping.
const ENTRY_OVERHEAD = 256;

/**
 * An in-memory response cache for one process: least recently used entries go first once
 * `maxBytes` is reached, and entries end at their `expiresAt` on the gateway's clock.
 * @param options - Size bound.
 * @returns The cache store.
 * @example
 * ```ts
 * const publicCache = createMemoryCacheStore({ maxBytes: 32 * 1024 * 1024 });
 * ```
 */
export function createMemoryCacheStore(options: MemoryCacheOptions = {}): CacheStore {
  const lru = new LRUCache<string, CachedResponse>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length + ENTRY_OVERHEAD,
  });
  return {
    get(key, now) {
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
      lru.set(key, entry);
    },
  };
}

const encoder = new TextEncoder();

/**
 * A strong entity tag over the exact body bytes: SHA-256, first 128 bits, base64url, quoted.
 * @param body - The response body.
 * @returns The quoted tag, e.g. `"q1Jm…"`.
 */
export async function toEtag(body: string | Uint8Array): Promise<string> {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>), 0, 16);
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
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
