import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import type { Task, TierName } from '@catalogue-api/core/upstream';
import { createPostgresRefreshState, type PostgresRefreshState } from './refresh-state.js';

const url = process.env.DATABASE_URL;
const T0 = Date.UTC(2026, 0, 10, 12, 0);
// Others share the database: every schema this file makes is unique to the run and dropped after.
const run = `d2_refresh_state_${process.pid}_${Date.now().toString(36)}`;
let counter = 0;

const task = (key: string, tier: TierName, dueAt: number, extra: Partial<Task> = {}): Task => ({ key, tier, dueAt, kind: 'anime', failures: 0, ...extra });

/**
 * Whether a list of instants ever has more than `limit` of them within `windowMs`: any window
 * holding more than `limit` starts at one of them, so each is tried as a window's first.
 */
function mostInAnyWindow(instants: readonly number[], windowMs: number): number {
  const sorted = [...instants].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[j]! <= sorted[i]! - windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

if (url) {
  describe('PostgreSQL refresh state', () => {
    const sql = postgres(url, { max: 4, onnotice: () => {} });
    const made: string[] = [];
    const opened: PostgresRefreshState[] = [];
    const schemaName = () => {
      const schema = `${run}_${++counter}`;
      made.push(schema);
      return schema;
    };
    /** Two states on one schema, each with a pool of its own: two instances of a server. */
    const twoInstances = async () => {
      const schema = schemaName();
      const states = await Promise.all([1, 2].map(() => createPostgresRefreshState({ url, schema })));
      opened.push(...states);
      return states as [PostgresRefreshState, PostgresRefreshState];
    };

    afterAll(async () => {
      await Promise.all(opened.map((state) => state.close()));
      for (const schema of made) await sql.unsafe(`drop schema if exists "${schema}" cascade`);
      await sql.end({ timeout: 5 });
    });

    it('creates its tables once when several instances start at the same time, and again is a no-op', async () => {
      const schema = schemaName();
      const states = await Promise.all([1, 2, 3].map(() => createPostgresRefreshState({ url, schema })));
      await Promise.all(states.map((state) => state.close()));
      const again = await createPostgresRefreshState({ sql, schema });
      const versions = await sql.unsafe(`select version from "${schema}".refresh_migrations`);
      expect(versions.map((row) => row.version)).toEqual([1]);
      expect(await again.size()).toBe(0);
    });

    it('gives the lease to one holder at a time, renews it, and lets another take over once it expires', async () => {
      const [a, b] = await twoInstances();
      expect(await a.acquireLease('a', T0, 30_000)).toBe(true);
      expect(await b.acquireLease('b', T0 + 1_000, 30_000)).toBe(false);
      expect(await a.acquireLease('a', T0 + 10_000, 30_000)).toBe(true);
      // The renewal moved the expiry to T0 + 40 s.
      expect(await b.acquireLease('b', T0 + 39_999, 30_000)).toBe(false);
      expect(await b.acquireLease('b', T0 + 40_000, 30_000)).toBe(true);
      expect(await a.acquireLease('a', T0 + 41_000, 30_000)).toBe(false);
      // Only the holder can give it up.
      await a.releaseLease('a');
      expect(await a.acquireLease('a', T0 + 42_000, 30_000)).toBe(false);
      await b.releaseLease('b');
      expect(await a.acquireLease('a', T0 + 42_000, 30_000)).toBe(true);
    });

    it('gives the lease to exactly one of many contenders at once', async () => {
      const [a, b] = await twoInstances();
      const won = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).acquireLease(`holder-${i}`, T0, 30_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('hands out due tasks by tier priority, then due time, at most `limit`', async () => {
      const [a, b] = await twoInstances();
      await a.put([
        task('anime:1:full', 'full', T0 - 5_000),
        task('anime:2:full', 'popular', T0 - 1_000),
        task('anime:3:full', 'hot', T0),
        task('anime:4:full', 'hot', T0 - 2_000),
        task('anime:sweep:1', 'stats', T0 - 9_000, { list: 'sweep', page: 1 }),
        task('anime:5:full', 'new', T0 + 1, { id: 5, part: 'full' }),
        task('anime:6:characters', 'new', T0 - 10, { id: 6, part: 'characters', failures: 2, notFoundAt: T0 - 86_400_000, validator: 'W/"abc"' }),
      ]);
      expect((await b.due(T0, 100)).map((t) => t.key)).toEqual(['anime:6:characters', 'anime:4:full', 'anime:3:full', 'anime:sweep:1', 'anime:2:full', 'anime:1:full']);
      expect((await b.due(T0, 2)).map((t) => t.key)).toEqual(['anime:6:characters', 'anime:4:full']);
      expect(await b.due(T0, 0)).toEqual([]);
      // Every field comes back as it was put, the optional ones only when set.
      const [first] = await b.due(T0, 1);
      expect(first).toStrictEqual({
        key: 'anime:6:characters',
        tier: 'new',
        dueAt: T0 - 10,
        kind: 'anime',
        id: 6,
        part: 'characters',
        failures: 2,
        notFoundAt: T0 - 86_400_000,
        validator: 'W/"abc"',
      });
      expect((await b.due(T0 + 1, 100))[0]!.key).toBe('anime:6:characters');
      expect((await b.due(T0 + 1, 100)).map((t) => t.key)).toContain('anime:5:full');

      const backlog = await b.backlog(T0);
      expect(backlog).toEqual({
        new: { due: 1, oldestDueAt: T0 - 10 },
        hot: { due: 2, oldestDueAt: T0 - 2_000 },
        stats: { due: 1, oldestDueAt: T0 - 9_000 },
        popular: { due: 1, oldestDueAt: T0 - 1_000 },
        full: { due: 1, oldestDueAt: T0 - 5_000 },
      });
      expect(await b.size()).toBe(7);

      // Replaced by key: a task moved to a later time and a lower tier; the last of two with one key wins.
      await b.put([task('anime:4:full', 'full', T0 + 60_000), task('anime:3:full', 'hot', T0 + 5), task('anime:3:full', 'stats', T0 - 1)]);
      expect((await a.due(T0, 100)).map((t) => t.key)).toEqual(['anime:6:characters', 'anime:sweep:1', 'anime:3:full', 'anime:2:full', 'anime:1:full']);
      await a.remove(['anime:6:characters', 'anime:1:full', 'no-such-key']);
      expect((await b.due(T0, 100)).map((t) => t.key)).toEqual(['anime:sweep:1', 'anime:3:full', 'anime:2:full']);
      expect(await b.size()).toBe(5);
      expect((await b.backlog(T0)).new).toEqual({ due: 0, oldestDueAt: null });
    });

    it('puts and removes thousands of tasks in batches', async () => {
      const [a] = await twoInstances();
      const many = Array.from({ length: 2_500 }, (_, i) => task(`manga:${i}:full`, i % 2 ? 'full' : 'popular', T0 + i, { kind: 'manga', id: i, part: 'full' }));
      await a.put(many);
      expect(await a.size()).toBe(2_500);
      expect((await a.due(T0 + 10_000, 3)).map((t) => t.key)).toEqual(['manga:0:full', 'manga:2:full', 'manga:4:full']);
      await a.remove(many.slice(0, 2_100).map((t) => t.key));
      expect(await a.size()).toBe(400);
    });

    it('keeps named cursors for every instance', async () => {
      const [a, b] = await twoInstances();
      expect(await a.getCursor('anime:changed-since')).toBeUndefined();
      await a.setCursor('anime:changed-since', '1767225600000');
      expect(await b.getCursor('anime:changed-since')).toBe('1767225600000');
      await b.setCursor('anime:changed-since', '1767229200000');
      expect(await a.getCursor('anime:changed-since')).toBe('1767229200000');
      expect(await a.getCursor('manga:changed-since')).toBeUndefined();
    });

    it('refuses a slot while a window is full and says how long to wait, whichever instance asks', async () => {
      const [a, b] = await twoInstances();
      const limits = { perSecond: 3, perMinute: 5 };
      expect(await a.tryTake(T0, limits)).toBe(0);
      expect(await b.tryTake(T0 + 100, limits)).toBe(0);
      expect(await a.tryTake(T0 + 200, limits)).toBe(0);
      // Three in the last second: the slot at T0 leaves it at T0 + 1 s.
      expect(await b.tryTake(T0 + 300, limits)).toBe(700);
      expect(await b.tryTake(T0 + 1_000, limits)).toBe(0);
      expect(await a.tryTake(T0 + 1_100, limits)).toBe(0);
      // Five in the last minute: the slot at T0 leaves it at T0 + 60 s.
      expect(await a.tryTake(T0 + 5_000, limits)).toBe(55_000);
      expect(await b.usage(T0 + 5_000)).toEqual({ second: 0, minute: 5, pausedUntil: 0 });
      // (T0 + 100, T0 + 1.1 s] holds the slots at T0 + 200, T0 + 1 s and T0 + 1.1 s.
      expect(await b.usage(T0 + 1_100)).toEqual({ second: 3, minute: 5, pausedUntil: 0 });
      expect(await b.tryTake(T0 + 60_000, limits)).toBe(0);
    });

    it('never exceeds either limit in any sliding window, with many callers on two instances at once', async () => {
      const [a, b] = await twoInstances();
      const limits = { perSecond: 3, perMinute: 20 };
      // A shared virtual clock that moves 50 ms a call: every caller asks as fast as it can for
      // two virtual minutes, so the windows are full nearly all the time.
      let clock = T0;
      const end = T0 + 120_000;
      const taken: number[] = [];
      let refused = 0;
      const caller = async (state: PostgresRefreshState) => {
        while (clock < end) {
          const now = (clock += 50);
          if ((await state.tryTake(now, limits)) === 0) taken.push(now);
          else refused++;
        }
      };
      await Promise.all([a, b, a, b, a, b].map(caller));
      expect(mostInAnyWindow(taken, 1_000)).toBeLessThanOrEqual(3);
      expect(mostInAnyWindow(taken, 60_000)).toBeLessThanOrEqual(20);
      // Work was waiting the whole time: the budget was used, not just respected.
      expect(taken.length).toBeGreaterThanOrEqual(30);
      expect(refused).toBeGreaterThan(0);
      // What is kept is bounded: slots older than two minutes are pruned as new ones are taken.
      const [kept] = await sql.unsafe(`select count(*)::integer as n from "${a.schema}".refresh_requests`);
      expect(kept!.n).toBeLessThanOrEqual(40);
    }, 60_000);

    it('shares a pause with every instance; a later pause wins, an earlier one changes nothing', async () => {
      const [a, b] = await twoInstances();
      const limits = { perSecond: 3, perMinute: 60 };
      await a.pause(T0 + 30_000);
      expect(await b.tryTake(T0, limits)).toBe(30_000);
      await b.pause(T0 + 10_000);
      expect(await a.tryTake(T0 + 1_000, limits)).toBe(29_000);
      await b.pause(T0 + 45_000);
      expect(await a.usage(T0)).toEqual({ second: 0, minute: 0, pausedUntil: T0 + 45_000 });
      expect(await a.tryTake(T0 + 44_999, limits)).toBe(1);
      expect(await b.tryTake(T0 + 45_000, limits)).toBe(0);
    });

    it('rejects limits that are not positive whole numbers', async () => {
      const [a] = await twoInstances();
      await expect(a.tryTake(T0, { perSecond: 0, perMinute: 60 })).rejects.toThrow(RangeError);
      await expect(a.tryTake(T0, { perSecond: 3, perMinute: 1.5 })).rejects.toThrow(RangeError);
    });
  });
} else {
  // A named skip, not a silent one: without a database there is no state to check.
  describe.skip('PostgreSQL refresh state (DATABASE_URL is not set)', () => {
    it('needs DATABASE_URL', () => {});
  });
}
