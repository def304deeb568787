/**
 * The gateway's back-end stores over Redis: counters, blocks, Server Keys and the response caches.
 * Each takes a {@link SendCommand}, so any Redis client of any runtime can carry them.
 * @module
 */
import {
  fingerprintKey,
  type BlockStore,
  type CacheStore,
  type CachedResponse,
  type CounterStore,
  type KeyStore,
} from '@catalogue-api/core';
import { CACHE_SET_SCRIPT, createScript, HIT_SCRIPT, REJECT_SCRIPT, type SendCommand } from './scripts.js';

// Counters outlive their window by this much, so that a slightly fast Redis clock never drops a live one.
const COUNTER_SLACK_MS = 1_000;

/**
 * Counters shared by every instance: one Lua script per request covers all windows of a tier.
 * @param send - How commands reach Redis.
 * @param prefix - Key prefix.
 */
export function createRedisCounterStore(send: SendCommand, prefix: string): CounterStore {
  const hit = createScript(send, HIT_SCRIPT);
  return {
    async hit(windows, now) {
      const args: string[] = [];
      for (const w of windows) args.push(String(w.limit), String(Math.max(1, w.resetAt - now) + COUNTER_SLACK_MS));
      const reply = (await hit(windows.map((w) => prefix + w.key), args)) as number[];
      return { allowed: reply[0] === 1, counts: reply.slice(1).map(Number) };
    },
  };
}

/**
 * Blocks shared by every instance. Keys of one client share a `{block:id}` hash tag (one Cluster slot).
 * @param send - How commands reach Redis.
 * @param prefix - Key prefix.
 */
export function createRedisBlockStore(send: SendCommand, prefix: string): BlockStore {
  const reject = createScript(send, REJECT_SCRIPT);
  let sequence = 0;
  const instance = Math.random().toString(36).slice(2, 10);
  return {
    async blockedUntil(id, now) {
      const until = Number(await send(['HGET', `${prefix}block:{${id}}`, 'until']));
      return until > now ? until : null;
    },
    async recordRejection(id, now, policy) {
      const keys = [`${prefix}block:{${id}}:rejections`, `${prefix}block:{${id}}`];
      const args = [now, policy.windowMs, policy.threshold, policy.durationMs, policy.maxDurationMs, policy.repeatWithinMs].map(String);
      // Members must differ even for rejections in the same millisecond.
      args.push(`${now}:${instance}:${sequence++}`);
      const until = Number(await reject(keys, args));
      return until > 0 ? until : null;
    },
  };
}

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheOptions {
  /**
   * Upper bound of the cache in Redis, in bytes: each entry counts its request key twice (hash
   * field and index member), its JSON (headers, tag and body) and {@link CACHE_ENTRY_OVERHEAD}.
   * @default 48 MiB
   */
  maxBytes?: number;
  /** Longest request key (path and query, in characters) that is cached; longer ones are answered but never kept. @default 2048 */
  maxKeyLength?: number;
}

/**
 * What an entry costs in Redis besides its key (twice) and value: the hash and sorted-set nodes and
 * the allocator rounding each string up to its size class. Measured with `INFO memory` on Redis 7
 * at ~530 bytes an entry for 1.5 KB keys and 400-byte values, and rounded up.
 */
export const CACHE_ENTRY_OVERHEAD = 640;

/**
 * A response cache shared by every instance, bounded in bytes: a hash of entries, a sorted set of
 * their expiries and a byte total, under one hash tag (one Redis Cluster slot). Every write runs one
 * Lua script that drops expired entries and then the oldest until the new one fits, so the bound
 * holds whatever Redis's `maxmemory-policy` is, and the cache never needs Redis to evict for it.
 * @param send - How commands reach Redis.
 * @param name - Key of the entries; the index and total are `name:index` and `name:bytes`. Give
 *   the public and the Server Key cache different names, with a hash tag (`prefix{cache:public}`).
 * @param options - Size bounds.
 * @returns The cache store.
 * @example
 * ```ts
 * const publicCache = createRedisCacheStore(send, 'catalogue:{cache:public}', { maxBytes: 32 * 1024 * 1024 });
 * ```
 */
export function createRedisCacheStore(send: SendCommand, name: string, options: RedisCacheOptions = {}): CacheStore {
  const maxBytes = options.maxBytes ?? 48 * 1024 * 1024;
  const maxKeyLength = options.maxKeyLength ?? 2_048;
  const store = createScript(send, CACHE_SET_SCRIPT);
  const keys = [name, `${name}:index`, `${name}:bytes`];
  return {
    async get(key, now) {
      if (key.length > maxKeyLength) return undefined;
      const text = await send(['HGET', name, key]);
      if (typeof text !== 'string') return undefined;
      const entry = JSON.parse(text) as CachedResponse;
      return entry.expiresAt > now ? entry : undefined;
    },
    async set(key, entry) {
      if (key.length > maxKeyLength) return;
      const ttl = Math.max(1, entry.expiresAt - entry.storedAt);
      await store(keys, [key, JSON.stringify(entry), String(entry.expiresAt), String(entry.storedAt), String(maxBytes), String(CACHE_ENTRY_OVERHEAD), String(ttl)]);
    },
  };
}

/**
 * Server Keys in a Redis set, stored as fingerprints (SHA-256), never in clear. The set lookup is
 * by fingerprint, so its timing tells nothing about the key.
 * @param send - How commands reach Redis.
 * @param setKey - The set's key.
 */
export function createRedisKeyStore(send: SendCommand, setKey: string): KeyStore & {
  /**
   * Adds Server Keys (stored as fingerprints).
   * @param keys - The keys, in clear; empty strings are ignored.
   */
  add(keys: readonly string[]): Promise<void>;
  /**
   * Removes Server Keys.
   * @param keys - The keys, in clear.
   */
  remove(keys: readonly string[]): Promise<void>;
} {
  const fingerprints = (keys: readonly string[]) => Promise.all(keys.filter((key) => key.length > 0).map(fingerprintKey));
  return {
    async verify(key) {
      if (key.length === 0) return null;
      const id = await fingerprintKey(key);
      return Number(await send(['SISMEMBER', setKey, id])) === 1 ? id : null;
    },
    async add(keys) {
      const ids = await fingerprints(keys);
      if (ids.length > 0) await send(['SADD', setKey, ...ids]);
    },
    async remove(keys) {
      const ids = await fingerprints(keys);
      if (ids.length > 0) await send(['SREM', setKey, ...ids]);
    },
  };
}
