/**
 * The gateway's back-end stores over Redis: counters, blocks, Server Keys and the response caches.
 * Each takes a {@link SendCommand}, so any Redis client of any runtime can carry them.
 * @module
 */
import { createKeyFingerprinter, type FingerprintSecret } from '@catalogue-api/core';
import { type BlockStore, type CacheStore, type CachedResponse, type CounterStore, type KeyStore } from '@catalogue-api/core/store';
import { CACHE_SET_SCRIPT, createScript, HIT_SCRIPT, KEY_SET_SCRIPT, REJECT_SCRIPT, type SendCommand } from './scripts.js';

// Counters outlive their window by this much, so that a slightly fast Redis clock never drops a live one.
const COUNTER_SLACK_MS = 1_000;

/** Options of {@link createRedisCounterStore}. */
export interface RedisCounterOptions {
  /**
   * Most clients (of both tiers) that get a counter in one minute, and in one day. Past it, a
   * client with no counter yet in that window gets none: it is held to its per-second limit (and
   * its minute one, when that is tracked) and may exceed the minute or day quota, never fall short
   * of it. Clients already counted stay exact. A counter costs ~150 bytes of Redis memory.
   * @default 1_000_000
   */
  maxClients?: number;
}

/**
 * Counters shared by every instance: one Lua script per request covers all windows of a tier.
 * Every window but the shortest is bounded in the clients it tracks (see `maxClients`), so that a
 * flood of distinct addresses cannot fill Redis with day counters that live until midnight UTC.
 * @param send - How commands reach Redis.
 * @param prefix - Key prefix.
 * @param options - The bound of tracked clients.
 * @returns The counter store.
 * @example
 * ```ts
 * const counters = createRedisCounterStore(send, 'catalogue:', { maxClients: 200_000 });
 * ```
 */
export function createRedisCounterStore(send: SendCommand, prefix: string, options: RedisCounterOptions = {}): CounterStore {
  const hit = createScript(send, HIT_SCRIPT);
  const maxClients = String(options.maxClients ?? 1_000_000);
  return {
    async hit(windows, now) {
      const keys = windows.map((w) => prefix + w.key);
      const args: string[] = [];
      for (let i = 0; i < windows.length; i++) {
        const w = windows[i]!;
        const ttl = String(Math.max(1, w.resetAt - now) + COUNTER_SLACK_MS);
        // The shortest window is always tracked (its counters last a second or two), so that every
        // client has a limit; a longer one of known span has a tally of its clients, one key per
        // window start shared by all clients, so that the script can tell when the bound is reached.
        // Being shared, a tally is outside the client's `{tier:id}` hash tag: on a Redis Cluster this
        // script's keys would span two slots (the back end connects to one Redis node).
        let tally = 0;
        if (i > 0 && w.spanMs !== undefined) tally = keys.push(`${prefix}rl:clients:${w.spanMs}:${w.resetAt}`);
        args.push(String(w.limit), ttl, String(tally));
      }
      args.push(maxClients);
      const reply = (await hit(keys, args)) as number[];
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
 *
 * Each entry carries what the gateway checks on every hit when the store feeds its changes: the
 * feed's id and position it was made at and what it read. An entry another instance stored, or
 * this deployment's earlier process, is served only if no change since touched it; one the
 * instance cannot check (older than the changes it knows, or made over another database) is
 * reloaded. The check is in process: a hit costs the one `HGET` it always did.
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
 * What {@link RedisKeyStore.keep} found: the set was `written` (the first time) or `restored` (it
 * had gone missing), this configuration's set is `current`, another configuration's set has
 * `superseded` it (an instance started later with other keys), or it is `missing` and this
 * instance, superseded, leaves restoring it to the instances of the newer configuration.
 */
export type KeySetState = 'written' | 'restored' | 'current' | 'superseded' | 'missing';

/** Options of {@link createRedisKeyStore}. */
export interface RedisKeyStoreOptions {
  /** The deployment's secret for the fingerprints; the same on every instance. @default a random secret of this process */
  fingerprintSecret?: FingerprintSecret | undefined;
  /**
   * The whole set of Server Keys, when this instance manages it: written at the first
   * {@link RedisKeyStore.keep}, replacing the set atomically, and restored when it goes missing.
   * While a managed set is missing, `verify` throws (the gateway answers 503 with `Retry-After: 1`)
   * rather than calling a valid key invalid. Without it the set is what `add` and `remove` make it.
   */
  keys?: readonly string[] | undefined;
  /** Told when {@link RedisKeyStore.keep} finds a new state (`current` only after another). */
  onChange?: ((state: KeySetState) => void) | undefined;
}

/** A Server Key store in Redis, with what manages its set. */
export interface RedisKeyStore extends KeyStore {
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
  /**
   * With managed `keys`: writes the set the first time, then checks it, restoring it when it is
   * missing, unless another configuration superseded this one. One call at a time runs; others
   * share it. Without managed keys: `current`.
   * @returns What it found.
   */
  keep(): Promise<KeySetState>;
}

/** The lifetime of a managed set, renewed while an instance of its configuration checks it. */
const KEY_SET_TTL_MS = 86_400_000;

/**
 * Server Keys in a Redis set, stored as keyed fingerprints (HMAC-SHA-256 under the deployment's
 * secret), never in clear. The set is named after the secret too, `<name>:<id>`, so that instances
 * with different secrets (a random one each, when none is configured) never overwrite each other's
 * set. The set lookup is by fingerprint, so its timing tells nothing about the key. Redis 6.2 or
 * later (`SMISMEMBER`).
 * @param send - How commands reach Redis.
 * @param name - The set's key, before the secret's id.
 * @param options - Secret, managed keys, and who is told of the set's state.
 * @returns The key store.
 * @example
 * ```ts
 * const keys = createRedisKeyStore(send, 'catalogue:keys', { keys: ['s3cret'], fingerprintSecret: process.env.FINGERPRINT_SECRET });
 * await keys.keep(); // written
 * ```
 */
export function createRedisKeyStore(send: SendCommand, name: string, options: RedisKeyStoreOptions = {}): RedisKeyStore {
  const fingerprint = createKeyFingerprinter(options.fingerprintSecret);
  const fingerprints = (keys: readonly string[]) => Promise.all(keys.filter((key) => key.length > 0).map(fingerprint));
  // The empty string is never a key (`verify('')` is null), so its fingerprint names the secret.
  const setKey = fingerprint('').then((id) => `${name}:${id.slice(0, 12)}`);
  const script = createScript(send, KEY_SET_SCRIPT);
  const managed = options.keys;
  // The configuration's id: the fingerprints, sorted, fingerprinted in turn.
  const wanted = managed
    ? fingerprints(managed).then(async (ids) => {
        const unique = [...new Set(ids)].sort();
        return { config: `@config:${(await fingerprint(unique.join(','))).slice(0, 16)}`, ids: unique };
      })
    : undefined;
  let written = false;
  let superseded = false;
  let last: KeySetState | undefined;
  let running: Promise<KeySetState> | undefined;
  const report = (state: KeySetState) => {
    const quiet = state === last || (state === 'current' && (last === 'written' || last === 'restored'));
    last = state;
    if (!quiet) options.onChange?.(state);
    return state;
  };
  const run = async (): Promise<KeySetState> => {
    if (!wanted) return 'current';
    const { config, ids } = await wanted;
    // A superseded instance never writes: the newer configuration's instances restore their own set.
    const mode = !written ? 'replace' : superseded ? 'check' : 'restore';
    const reply = Number(await script([await setKey], [mode, config, String(KEY_SET_TTL_MS), ...ids]));
    if (reply === 2) {
      const first = !written;
      written = true;
      superseded = false;
      return report(first ? 'written' : 'restored');
    }
    if (reply === 1) superseded = false;
    if (reply === 0) superseded = true;
    return report(reply === 1 ? 'current' : reply === 0 ? 'superseded' : 'missing');
  };
  const keep = () => (running ??= run().finally(() => (running = undefined)));
  // The fingerprints of recognized keys, so that a client's every request does not pay for an HMAC
  // (Web Crypto's takes about twice a plain SHA-256 digest on Node 20). Only the computation is
  // remembered: Redis is asked on every request, so a revoked key is refused at once.
  const recognized = new Map<string, string>();
  const remember = (key: string, id: string) => {
    if (recognized.size >= 1_024) recognized.clear();
    recognized.set(key, id);
    return id;
  };
  return {
    async verify(key) {
      if (key.length === 0) return null;
      const id = recognized.get(key) ?? (await fingerprint(key));
      if (!wanted) return Number(await send(['SISMEMBER', await setKey, id])) === 1 ? remember(key, id) : null;
      // One round trip still: whether the key is in the set, and whether the set is there at all.
      const [member, present] = ((await send(['SMISMEMBER', await setKey, id, '@managed'])) as unknown[]).map(Number);
      if (present !== 1) {
        keep().catch(() => undefined);
        throw new Error('The Server Key set is missing from Redis (emptied or restarted); it is being restored');
      }
      return member === 1 ? remember(key, id) : null;
    },
    async add(keys) {
      const ids = await fingerprints(keys);
      if (ids.length > 0) await send(['SADD', await setKey, ...ids]);
    },
    async remove(keys) {
      const ids = await fingerprints(keys);
      if (ids.length > 0) await send(['SREM', await setKey, ...ids]);
    },
    keep,
  };
}
