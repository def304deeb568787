import { describe, expect, it } from 'vitest';
import { createMemoryRefreshState } from './memory-state.js';
import type { Task, TierName } from './types.js';

const task = (key: string, tier: TierName, dueAt: number, extra: Partial<Task> = {}): Task => ({ key, tier, dueAt, kind: 'anime', failures: 0, ...extra });

describe('createMemoryRefreshState', () => {
  it('answers due tasks by tier priority, then due time, at most limit', async () => {
    const state = createMemoryRefreshState();
    await state.put([task('f1', 'full', 1), task('h2', 'hot', 20), task('h1', 'hot', 10), task('n1', 'new', 30), task('later', 'new', 500)]);
    expect((await state.due(100, 10)).map((t) => t.key)).toEqual(['n1', 'h1', 'h2', 'f1']);
    expect((await state.due(100, 2)).map((t) => t.key)).toEqual(['n1', 'h1']);
    // Asking does not take: the same answer again.
    expect((await state.due(100, 2)).map((t) => t.key)).toEqual(['n1', 'h1']);
  });

  it('replaces a task by key (tier and due time included) and removes by key', async () => {
    const state = createMemoryRefreshState();
    await state.put([task('a', 'full', 1), task('b', 'full', 2)]);
    await state.put([task('a', 'hot', 50, { failures: 2 })]);
    await state.remove(['b']);
    expect(await state.due(10, 10)).toEqual([]);
    expect(await state.due(50, 10)).toEqual([task('a', 'hot', 50, { failures: 2 })]);
    expect(await state.size()).toBe(1);
    expect(await state.nextDueAt()).toBe(50);
  });

  it('counts the backlog of each tier and its oldest due time', async () => {
    const state = createMemoryRefreshState();
    await state.put([task('a', 'full', 5), task('b', 'full', 3), task('c', 'hot', 8), task('d', 'stats', 99)]);
    const b = await state.backlog(10);
    expect(b.full).toEqual({ due: 2, oldestDueAt: 3 });
    expect(b.hot).toEqual({ due: 1, oldestDueAt: 8 });
    expect(b.stats).toEqual({ due: 0, oldestDueAt: null });
  });

  it('keeps one lease holder until it lapses or is given up', async () => {
    const state = createMemoryRefreshState();
    expect(await state.acquireLease('a', 0, 1000)).toBe(true);
    expect(await state.acquireLease('b', 500, 1000)).toBe(false);
    expect(await state.acquireLease('a', 900, 1000)).toBe(true);
    expect(await state.acquireLease('b', 1800, 1000)).toBe(false);
    expect(await state.acquireLease('b', 1900, 1000)).toBe(true);
    await state.releaseLease('a');
    expect(await state.acquireLease('a', 1901, 1000)).toBe(false);
    await state.releaseLease('b');
    expect(await state.acquireLease('a', 1902, 1000)).toBe(true);
  });

  it('takes slots within every sliding window and says how long to wait', async () => {
    const state = createMemoryRefreshState();
    const limits = { perSecond: 3, perMinute: 5 };
    expect(await state.tryTake(0, limits)).toBe(0);
    expect(await state.tryTake(100, limits)).toBe(0);
    expect(await state.tryTake(200, limits)).toBe(0);
    // The slot at 0 leaves the second at 1000.
    expect(await state.tryTake(300, limits)).toBe(700);
    expect(await state.tryTake(1000, limits)).toBe(0);
    expect(await state.tryTake(1100, limits)).toBe(0);
    // Five in the minute: the slot at 0 leaves it at 60000.
    expect(await state.tryTake(2000, limits)).toBe(58_000);
    expect(await state.usage(2000)).toEqual({
      second: 1,
      minute: 5,
      pausedUntil: 0,
    });
    expect(await state.tryTake(60_000, limits)).toBe(0);
  });

  it('pauses the whole source until a Retry-After, the later pause winning', async () => {
    const state = createMemoryRefreshState();
    await state.pause(5000);
    await state.pause(3000);
    expect(await state.tryTake(1000, { perSecond: 3, perMinute: 60 })).toBe(4000);
    expect(await state.tryTake(5000, { perSecond: 3, perMinute: 60 })).toBe(0);
  });

  it('resumes from its JSON snapshot: tasks, cursors, lease and spending', async () => {
    const state = createMemoryRefreshState();
    await state.put([
      task('a', 'hot', 7, {
        id: 1,
        part: 'full',
        validator: '"x"',
        notFoundAt: 3,
      }),
    ]);
    await state.setCursor('known:anime', '1,2');
    await state.acquireLease('a', 0, 30_000);
    await state.tryTake(10, { perSecond: 3, perMinute: 60 });
    const copy = createMemoryRefreshState(JSON.parse(JSON.stringify(state.snapshot())));
    expect(await copy.due(10, 5)).toEqual([
      task('a', 'hot', 7, {
        id: 1,
        part: 'full',
        validator: '"x"',
        notFoundAt: 3,
      }),
    ]);
    expect(await copy.getCursor('known:anime')).toBe('1,2');
    expect(await copy.acquireLease('b', 100, 30_000)).toBe(false);
    expect((await copy.usage(20)).minute).toBe(1);
  });

  it('refuses a snapshot it did not write', () => {
    expect(() => createMemoryRefreshState({ version: 2 })).toThrow(TypeError);
    expect(() =>
      createMemoryRefreshState({
        version: 1,
        tasks: [{ key: 1 }],
        cursors: {},
        ledger: { taken: [], pausedUntil: 0 },
      })
    ).toThrow(/malformed/);
  });
});
