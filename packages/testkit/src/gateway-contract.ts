/**
 * The gateway back-end contract: one vitest suite that every `GatewayBackend` must pass (the memory
 * back end in core, Redis in `@catalogue-api/redis`, and any third-party back end).
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { BlockPolicy, CachedResponse, CounterWindow, GatewayBackend } from '@catalogue-api/core/store';
import { eachFresh } from './internal/fresh.js';

/** How the contract gets back ends. */
export interface GatewayBackendHarness {
  /** Returns a new, empty back end (for Redis: a fresh key prefix). */
  create(): Promise<GatewayBackend>;
  /** Releases a back end made by `create`. */
  destroy?(backend: GatewayBackend): Promise<void>;
  /** A Server Key that `create`'s back ends know, when they come with a key store. */
  knownKey?: string;
  /**
   * Returns a new, empty back end whose caches have these bounds; without it the cache-bound tests
   * are skipped. Every back end should have one: an unbounded cache lets unique URLs fill memory.
   */
  createBounded?(bounds: CacheBounds): Promise<GatewayBackend>;
}

/** The cache bounds the contract asks {@link GatewayBackendHarness.createBounded} for. */
export interface CacheBounds {
  /** Bytes the public cache may hold, keys and bodies included. */
  publicMaxBytes: number;
  /** Bytes the Server Key cache may hold. */
  serverMaxBytes: number;
  /** Longest key, in characters, that may be cached. */
  maxKeyLength: number;
}

const T0 = Date.UTC(2026, 5, 1, 8, 30, 15, 400);
const POLICY: BlockPolicy = { threshold: 3, windowMs: 60_000, durationMs: 600_000, maxDurationMs: 1_800_000, repeatWithinMs: 86_400_000 };

function window(key: string, limit: number, resetAt = T0 + 1_000): CounterWindow {
  return { key, limit, resetAt };
}

function entry(body: string, storedAt = T0, ttl = 60_000): CachedResponse {
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body, etag: '"abc"', storedAt, expiresAt: storedAt + ttl };
}

/**
 * Defines the `GatewayBackend` contract suite for one back end.
 * @param name - Shown in the suite's name, e.g. `memory` or `redis`.
 * @param harness - Makes and releases back ends; every test gets a fresh one.
 * @example
 * ```ts
 * import { createMemoryGatewayBackend } from '@catalogue-api/core';
 * import { defineGatewayBackendContract } from '@catalogue-api/testkit';
 *
 * defineGatewayBackendContract('memory', { create: async () => createMemoryGatewayBackend() });
 * ```
 */
export function defineGatewayBackendContract(name: string, harness: GatewayBackendHarness): void {
  describe(`GatewayBackend contract: ${name}`, () => {
    let backend: GatewayBackend;
    eachFresh(harness, (made) => (backend = made));

    describe('counters', () => {
      it('allows up to the limit, then refuses without counting', async () => {
        const windows = [window('rl:{public:a}:s:1', 2)];
        expect(await backend.counters.hit(windows, T0)).toEqual({ allowed: true, counts: [1] });
        expect(await backend.counters.hit(windows, T0)).toEqual({ allowed: true, counts: [2] });
        expect(await backend.counters.hit(windows, T0)).toEqual({ allowed: false, counts: [2] });
        expect(await backend.counters.hit(windows, T0)).toEqual({ allowed: false, counts: [2] });
      });

      it('increments every window or none', async () => {
        const second = window('rl:{public:b}:s:1', 1);
        const minute = window('rl:{public:b}:m:1', 10, T0 + 60_000);
        expect((await backend.counters.hit([second, minute], T0)).allowed).toBe(true);
        expect(await backend.counters.hit([second, minute], T0)).toEqual({ allowed: false, counts: [1, 1] });
        // The refused request did not consume the minute window.
        expect(await backend.counters.hit([minute], T0)).toEqual({ allowed: true, counts: [2] });
      });

      it('keeps counters of different keys apart', async () => {
        expect((await backend.counters.hit([window('rl:{public:c}:s:1', 1)], T0)).allowed).toBe(true);
        expect((await backend.counters.hit([window('rl:{public:d}:s:1', 1)], T0)).allowed).toBe(true);
        expect((await backend.counters.hit([window('rl:{server:c}:s:1', 1)], T0)).allowed).toBe(true);
      });

      it('is atomic under concurrent hits', async () => {
        const windows = [window('rl:{public:f}:s:1', 5), window('rl:{public:f}:m:1', 7, T0 + 60_000)];
        const results = await Promise.all(Array.from({ length: 20 }, () => backend.counters.hit(windows, T0)));
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
        expect(await backend.counters.hit([windows[1]!], T0)).toEqual({ allowed: true, counts: [6] });
      });
    });

    describe('blocks', () => {
      it('knows no block for a new client', async () => {
        expect(await backend.blocks.blockedUntil('192.0.2.1', T0)).toBeNull();
      });

      it('starts a block at the threshold and ends it on time', async () => {
        expect(await backend.blocks.recordRejection('192.0.2.2', T0, POLICY)).toBeNull();
        expect(await backend.blocks.recordRejection('192.0.2.2', T0 + 10, POLICY)).toBeNull();
        expect(await backend.blocks.recordRejection('192.0.2.2', T0 + 20, POLICY)).toBe(T0 + 20 + 600_000);
        expect(await backend.blocks.blockedUntil('192.0.2.2', T0 + 599_000)).toBe(T0 + 20 + 600_000);
        expect(await backend.blocks.blockedUntil('192.0.2.2', T0 + 20 + 600_000)).toBeNull();
        expect(await backend.blocks.blockedUntil('192.0.2.3', T0 + 30)).toBeNull();
      });

      it('counts only rejections within the window', async () => {
        await backend.blocks.recordRejection('192.0.2.4', T0, POLICY);
        await backend.blocks.recordRejection('192.0.2.4', T0 + 1, POLICY);
        expect(await backend.blocks.recordRejection('192.0.2.4', T0 + 60_001, POLICY)).toBeNull();
        expect(await backend.blocks.recordRejection('192.0.2.4', T0 + 60_002, POLICY)).toBeNull();
        expect(await backend.blocks.recordRejection('192.0.2.4', T0 + 60_003, POLICY)).toBe(T0 + 60_003 + 600_000);
      });

      it('doubles a repeat within the repeat period, up to the longest block', async () => {
        let now = T0;
        const offend = async () => {
          let until: number | null = null;
          for (let i = 0; i < POLICY.threshold; i++) until = await backend.blocks.recordRejection('2001:db8::/64', now, POLICY);
          return until! - now;
        };
        expect(await offend()).toBe(600_000);
        now += 600_000;
        expect(await offend()).toBe(1_200_000);
        now += 1_200_000;
        expect(await offend()).toBe(1_800_000);
        now += 1_800_000 + 86_400_000;
        expect(await offend()).toBe(600_000);
      });

      it('starts exactly one block under concurrent rejections', async () => {
        const results = await Promise.all(Array.from({ length: 6 }, () => backend.blocks.recordRejection('192.0.2.5', T0, POLICY)));
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });
    });

    describe('caches', () => {
      it('misses, stores, hits and expires on the given clock', async () => {
        expect(await backend.publicCache.get('/v1/anime/1', T0)).toBeUndefined();
        await backend.publicCache.set('/v1/anime/1', entry('{"data":1}'));
        expect(await backend.publicCache.get('/v1/anime/1', T0 + 59_999)).toEqual(entry('{"data":1}'));
        expect(await backend.publicCache.get('/v1/anime/1', T0 + 60_000)).toBeUndefined();
      });

      it('keeps the public and Server Key caches apart', async () => {
        await backend.publicCache.set('/v1/anime/2?sfw', entry('"public"'));
        expect(await backend.serverCache.get('/v1/anime/2?sfw', T0)).toBeUndefined();
        await backend.serverCache.set('/v1/anime/2?sfw', entry('"server"'));
        expect((await backend.publicCache.get('/v1/anime/2?sfw', T0))?.body).toBe('"public"');
        expect((await backend.serverCache.get('/v1/anime/2?sfw', T0))?.body).toBe('"server"');
      });

      it('keeps non-ASCII bodies intact', async () => {
        await backend.publicCache.set('/v1/anime/3', entry('{"title":"進撃の巨人 ✓"}'));
        expect((await backend.publicCache.get('/v1/anime/3', T0))?.body).toBe('{"title":"進撃の巨人 ✓"}');
      });
    });

    describe.skipIf(harness.createBounded === undefined)('cache bounds', () => {
      const bounds: CacheBounds = { publicMaxBytes: 128 * 1024, serverMaxBytes: 64 * 1024, maxKeyLength: 2_048 };
      let bounded: GatewayBackend;
      eachFresh({ create: () => harness.createBounded!(bounds), destroy: (made) => harness.destroy?.(made) }, (made) => (bounded = made));

      it.each(['publicCache', 'serverCache'] as const)('holds no more than its byte bound in the %s under unique long keys, keeping the newest', async (cache) => {
        const maxBytes = cache === 'publicCache' ? bounds.publicMaxBytes : bounds.serverMaxBytes;
        const keyOf = (i: number) => `/v1/anime?x=${i}-${'k'.repeat(1_500)}`;
        const count = Math.ceil((4 * maxBytes) / 1_500);
        for (let i = 0; i < count; i++) await bounded[cache].set(keyOf(i), entry(`{"n":${i}}`));
        let held = 0;
        for (let i = 0; i < count; i++) {
          const kept = await bounded[cache].get(keyOf(i), T0);
          // Keys and bodies alone: less than what an entry really takes.
          if (kept) held += keyOf(i).length + kept.body.length;
        }
        expect(held).toBeLessThanOrEqual(maxBytes);
        expect((await bounded[cache].get(keyOf(count - 1), T0))?.body).toBe(`{"n":${count - 1}}`);
      });

      it('never keeps an entry whose key is longer than its key bound', async () => {
        const long = `/v1/anime?x=${'k'.repeat(bounds.maxKeyLength)}`;
        await bounded.publicCache.set(long, entry('"long"'));
        expect(await bounded.publicCache.get(long, T0)).toBeUndefined();
        const short = long.slice(0, bounds.maxKeyLength);
        await bounded.publicCache.set(short, entry('"short"'));
        expect((await bounded.publicCache.get(short, T0))?.body).toBe('"short"');
      });
    });

    // A back end without a key store of its own (keys then come from the gateway's `keys` option)
    // has nothing to test here: it says so by giving no `knownKey`, and the tests show as skipped.
    describe.skipIf(harness.knownKey === undefined)('keys', () => {
      it('recognizes its key with a stable fingerprint that is not the key, and refuses others', async () => {
        const id = await backend.keys!.verify(harness.knownKey!);
        expect(id).toEqual(expect.any(String));
        expect(id).not.toContain(harness.knownKey!);
        // The id names the key's counters, so every instance must derive the same one.
        expect(await backend.keys!.verify(harness.knownKey!)).toBe(id);
        expect(await backend.keys!.verify(`${harness.knownKey!}x`)).toBeNull();
        expect(await backend.keys!.verify('')).toBeNull();
      });
    });
  });
}
