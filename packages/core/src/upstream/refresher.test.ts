import { describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import { createMemoryStore } from '../seam/memory-store.js';
import type { Anime, Manga } from '../entry-schemas.js';
import { makeAnime } from '../../test/fixtures.js';
import { createMapSource, createVirtualClock, makeManga, seasonAnime, type VirtualClock } from '../../test/upstream-fakes.js';
import { createMemoryRefreshState, type MemoryRefreshState } from './memory-state.js';
import { createRefresher, type RefresherOptions, type RefreshEvent } from './refresher.js';
import { createSchedule, DAY, scheduleDemand, TIERS } from './schedule.js';
import { createRecordWriter } from './writer.js';
import type { RefreshState, TierName, UpstreamLimits } from './types.js';

// Mid-autumn 2026: the current season is 2026-fall, the next 2027-winter.
const T0 = Date.UTC(2026, 9, 15, 0, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const GENEROUS: UpstreamLimits = { perSecond: 1000, perMinute: 60_000 };

/**
 * How many times the fake upstream was asked for a part.
 * @param fake - The fake upstream.
 * @param what - The part, as its log names it (`anime:1:full`).
 * @param from - The earliest time counted.
 * @param to - The time from which on nothing is counted.
 */
function timesAsked(fake: { log: ReadonlyArray<{ what: string; at: number }> }, what: string, from = -Infinity, to = Infinity): number {
  return fake.log.filter((r) => r.what === what && r.at >= from && r.at < to).length;
}

const finished = (mal_id: number, popularity = 5000 + mal_id): Anime => makeAnime({ mal_id, title: `Anime ${mal_id}`, popularity });

interface SetupOptions {
  anime?: Anime[];
  manga?: Manga[];
  limits?: UpstreamLimits;
  changes?: boolean;
  state?: MemoryRefreshState;
  clock?: VirtualClock;
  refresher?: Partial<RefresherOptions>;
}

function setup(o: SetupOptions = {}) {
  const vc = o.clock ?? createVirtualClock(T0);
  const anime = o.anime ?? [];
  const manga = o.manga ?? [];
  const store = createMemoryStore({ anime, manga });
  const state = o.state ?? createMemoryRefreshState();
  const fake = createMapSource({
    clock: vc.clock,
    sleep: vc.sleep,
    ledger: state,
    limits: o.limits ?? GENEROUS,
    changes: o.changes,
  });
  for (const a of anime) fake.set('anime', a);
  for (const m of manga) fake.set('manga', m);
  // The shipped writer: mapping, validation and change detection as the servers run them.
  const writer = createRecordWriter(store);
  const events: RefreshEvent[] = [];
  const warnings: string[] = [];
  const make = (extra: Partial<RefresherOptions> = {}, sink: RefreshEvent[] = events) =>
    createRefresher({
      store,
      source: fake.source,
      state,
      writer,
      clock: vc.clock,
      sleep: vc.sleep,
      holder: 'a',
      onEvent: (e) => sink.push(e),
      logger: {
        info: () => undefined,
        warn: (m) => warnings.push(m),
        error: (m) => warnings.push(m),
      },
      ...o.refresher,
      ...extra,
    });
  const refresher = make();
  /** Drives the virtual clock until a promise settles. */
  async function drive<T>(promise: Promise<T>): Promise<T> {
    let done = false;
    const p = promise.finally(() => {
      done = true;
    });
    for (let i = 0; !done; i++) {
      await vc.runUntil(Number.MAX_SAFE_INTEGER, () => done);
      if (i > 1000) throw new Error('stuck');
    }
    return p;
  }
  const fetchedKeys = () => fake.log.map((r) => r.what);
  return {
    vc,
    store,
    state,
    fake,
    writer,
    events,
    warnings,
    refresher,
    make,
    drive,
    fetchedKeys,
  };
}

async function idsUpdatedSince(store: ReturnType<typeof createMemoryStore>, since: number, now: number): Promise<number[]> {
  const app = createCatalogueApp({
    store,
    now: () => now,
    logger: { error: () => undefined },
  });
  const response = await app.fetch(new Request(`http://test.invalid/v1/anime/ids?updated_at=${encodeURIComponent(new Date(since).toISOString())}`));
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: number[] }).data;
}

describe('createRefresher', () => {
  it('fetches a new id within minutes of it appearing upstream, and /v1/anime/ids?updated_at lists it', async () => {
    const { vc, store, fake, refresher } = setup({
      anime: Array.from({ length: 30 }, (_, i) => finished(i + 1)),
    });
    refresher.start();
    await vc.runUntil(T0 + HOUR);
    expect(refresher.leader).toBe(true);
    const addedAt = vc.clock();
    fake.set(
      'anime',
      makeAnime({
        mal_id: 60_000,
        title: 'Brand New',
        status: 'Not yet aired',
        airing: false,
        season: 'winter',
        year: 2027,
        popularity: null,
      })
    );
    await vc.runUntil(addedAt + 10 * MINUTE);
    const full = fake.log.find((r) => r.what === 'anime:60000:full');
    expect(full).toBeDefined();
    expect(full!.at - addedAt).toBeLessThanOrEqual(6 * MINUTE);
    expect((await store.get('anime', 60_000))?.title).toBe('Brand New');
    expect(await idsUpdatedSince(store, addedAt, vc.clock())).toEqual([60_000]);
    // Every part of it, not only the record.
    expect(fake.log.filter((r) => r.what.startsWith('anime:60000:')).length).toBe(11);
    await refresher.stop();
    expect(refresher.leader).toBe(false);
  }, 30_000);

  it('fetches each tier as often as the schedule says over 30 virtual days', async () => {
    const [now, next] = ['2026-fall', '2027-winter'];
    const anime = [
      ...Array.from({ length: 10 }, (_, i) => seasonAnime(100 + i, now, true)),
      ...Array.from({ length: 5 }, (_, i) => seasonAnime(200 + i, next, false)),
      ...Array.from({ length: 30 }, (_, i) => finished(300 + i, i < 10 ? i + 1 : 5000 + i)),
    ];
    const manga = Array.from({ length: 60 }, (_, i) =>
      makeManga({
        mal_id: 1 + i,
        title: `Manga ${i}`,
        popularity: i < 10 ? i + 1 : 5000 + i,
        publishing: i >= 55,
        status: i >= 55 ? 'Publishing' : 'Finished',
      })
    );
    const intervals = { discovery: HOUR };
    const { vc, fake, refresher } = setup({
      anime,
      manga,
      refresher: { intervals, popularTop: 10, leaseMs: 30 * MINUTE },
    });
    refresher.start();
    const end = T0 + 30 * DAY;
    await vc.runUntil(end - 1);
    await refresher.stop();
    const demand = scheduleDemand(
      {
        anime: {
          entries: 45,
          hot: 15,
          popular: 10,
          lists: {
            current: 10,
            seasonNow: 10,
            seasonUpcoming: 5,
            schedules: 10,
          },
        },
        manga: { entries: 60, hot: 5, popular: 10, lists: { current: 5 } },
      },
      createSchedule({ intervals, popularTop: 10 })
    );
    const counts: Record<TierName, number> = {
      new: 0,
      hot: 0,
      stats: 0,
      popular: 0,
      full: 0,
    };
    const tierOf = (what: string): TierName => {
      const [kind, id, part] = what.split(':') as [string, string, string];
      if (['newest', 'upcoming', 'seasonNow', 'seasonUpcoming', 'schedules'].includes(id) && part === '1') return 'new';
      if (id === 'current') return 'hot';
      if (id === 'sweep') return 'stats';
      const n = Number(id);
      if (kind === 'anime' && n < 300 && (part === 'full' || part === 'episodes')) return 'hot';
      const popular = kind === 'anime' ? n >= 300 && n < 310 : n <= 10;
      return popular ? 'popular' : 'full';
    };
    for (const r of fake.log) if (r.at < end) counts[tierOf(r.what)]++;
    for (const tier of TIERS) {
      const expected = demand[tier] * 30;
      // Exactly the schedule: no retries, no duplicates (the demand model is in whole requests but for rounding).
      expect(counts[tier], `${tier}: ${counts[tier]} fetched, ${expected} scheduled`).toBe(Math.round(expected));
    }
    // Every hot part twice a day, every popular part every three days, every other part once.
    expect(timesAsked(fake, 'anime:100:full', -Infinity, end)).toBe(60);
    expect(timesAsked(fake, 'anime:300:characters', -Infinity, end)).toBe(10);
    expect(timesAsked(fake, 'anime:320:characters', -Infinity, end)).toBe(1);
    expect(timesAsked(fake, 'manga:sweep:2', -Infinity, end)).toBe(30);
  }, 60_000);

  it('deletes nothing on one 404, nor on a 404 that heals; two 404s a day apart delete', async () => {
    const { vc, store, fake, refresher, drive, events } = setup({
      anime: [finished(1), finished(2)],
      refresher: { parts: { anime: ['full'] }, kinds: ['anime'] },
    });
    await drive(refresher.runOnce());
    fake.notFound.add('anime:1');
    fake.notFound.add('anime:2');
    vc.set(T0 + 31 * DAY);
    await drive(refresher.runOnce());
    expect(events.filter((e) => e.type === 'not-found').length).toBe(2);
    expect(await store.get('anime', 1)).toBeDefined();
    // Half a day later nothing is asked again, and nothing goes.
    vc.set(T0 + 31.5 * DAY);
    await drive(refresher.runOnce());
    expect(timesAsked(fake, 'anime:1:full')).toBe(1);
    // Anime 1 heals; anime 2 answers 404 again a day after the first.
    fake.notFound.delete('anime:1');
    vc.set(T0 + 32 * DAY);
    await drive(refresher.runOnce());
    expect(await store.get('anime', 1)).toBeDefined();
    expect(await store.get('anime', 2)).toBeUndefined();
    expect(events.filter((e) => e.type === 'deleted')).toEqual([{ type: 'deleted', kind: 'anime', id: 2 }]);
    expect(await store.query('deletedAnimeIds', { offset: 0, limit: 10 })).toMatchObject({ data: [2] });
    // The ok cleared anime 1's 404: a new single 404 later deletes nothing.
    fake.notFound.add('anime:1');
    vc.set(T0 + 63 * DAY);
    await drive(refresher.runOnce());
    expect(await store.get('anime', 1)).toBeDefined();
  }, 30_000);

  it('never deletes an entry the upstream leaves out of its listings but serves by id', async () => {
    const { vc, store, fake, refresher } = setup({
      anime: [finished(1), finished(2)],
      refresher: {
        kinds: ['anime'],
        leaseMs: 30 * MINUTE,
        intervals: { discovery: HOUR },
      },
    });
    fake.unlisted.add('anime:2');
    refresher.start();
    await vc.runUntil(T0 + 62 * DAY);
    await refresher.stop();
    expect(await store.get('anime', 2)).toBeDefined();
    expect(fake.log.filter((r) => r.what === 'anime:2:full').map((r) => r.outcome)).toEqual(['ok', 'unchanged']);
  }, 30_000);

  it('changes nothing for an unchanged body, and asks conditionally the next time', async () => {
    const { vc, store, fake, refresher, drive, events } = setup({
      anime: [finished(1)],
      refresher: { parts: { anime: ['full'] }, kinds: ['anime'] },
    });
    await drive(refresher.runOnce());
    vc.set(T0 + 31 * DAY);
    await drive(refresher.runOnce());
    expect(fake.log.filter((r) => r.what === 'anime:1:full').map((r) => r.outcome)).toEqual(['ok']);
    expect(events.filter((e) => e.type === 'written')).toEqual([]);
    expect(await store.get('updates', 'anime:1')).toBeUndefined();
    expect(await idsUpdatedSince(store, T0, vc.clock())).toEqual([]);
    vc.set(T0 + 62 * DAY);
    await drive(refresher.runOnce());
    expect(fake.log.filter((r) => r.what === 'anime:1:full').map((r) => r.outcome)).toEqual(['ok', 'unchanged']);
    // A change upstream is written, and listed.
    fake.set('anime', finished(1, 42));
    vc.set(T0 + 93 * DAY);
    await drive(refresher.runOnce());
    expect((await store.get('anime', 1))?.popularity).toBe(42);
    expect(await idsUpdatedSince(store, T0 + 93 * DAY, vc.clock())).toEqual([1]);
  }, 30_000);

  it('rejects an invalid body, keeps the good data and backs the task off exponentially', async () => {
    const { vc, store, fake, refresher, drive, events, state } = setup({
      anime: [finished(1)],
      refresher: { parts: { anime: ['full'] }, kinds: ['anime'] },
    });
    await drive(refresher.runOnce());
    fake.invalid.add('anime:1');
    const tries: number[] = [];
    let at = T0 + 31 * DAY;
    for (let i = 0; i < 4; i++) {
      vc.set(at);
      await drive(refresher.runOnce());
      const task = state.snapshot().tasks.find((t) => t.key === 'anime:1:full')!;
      tries.push(task.dueAt - vc.clock());
      at = task.dueAt;
    }
    expect(tries).toEqual([MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE]);
    expect(events.filter((e) => e.type === 'invalid').length).toBe(4);
    expect((await store.get('anime', 1))?.score).toBe(7);
    expect(refresher.status().lastError?.message).toMatch(/anime:1:full/);
    fake.invalid.delete('anime:1');
    vc.set(at);
    await drive(refresher.runOnce());
    const task = state.snapshot().tasks.find((t) => t.key === 'anime:1:full')!;
    expect(task.failures).toBe(0);
    expect(task.dueAt - vc.clock()).toBe(30 * DAY);
  }, 30_000);

  it('resumes a killed refresher from its snapshot with nothing lost and nothing done twice', async () => {
    const anime = Array.from({ length: 40 }, (_, i) => finished(i + 1));
    const limits = { perSecond: 3, perMinute: 60 };
    const first = setup({
      anime,
      limits,
      refresher: { kinds: ['anime'], intervals: { discovery: 30 * DAY } },
    });
    await first.drive(first.refresher.runOnce());
    // Everything comes due; 440 parts at 60 a minute is a pass of more than seven minutes.
    first.vc.set(T0 + 31 * DAY);
    const before = first.fake.log.length;
    first.refresher.start();
    await first.vc.runUntil(T0 + 32 * DAY, () => first.fake.log.length - before >= 150);
    const saved = JSON.parse(JSON.stringify(first.state.snapshot())) as unknown;
    await first.refresher.stop();
    const doneByFirst = first.fake.log.slice(before).map((r) => r.what);
    // A new process: the same store and upstream, a state from the file, another holder.
    const state = createMemoryRefreshState(saved);
    const second = createRefresher({
      store: first.store,
      source: first.fake.source,
      state,
      writer: first.writer,
      clock: first.vc.clock,
      sleep: first.vc.sleep,
      holder: 'b',
      kinds: ['anime'],
      intervals: { discovery: 30 * DAY },
    });
    const resumedAt = first.vc.clock();
    second.start();
    await first.vc.runUntil(resumedAt + HOUR);
    await second.stop();
    const all = first.fake.log
      .slice(before)
      .map((r) => r.what)
      .filter((w) => /^anime:\d+:/.test(w));
    const parts = new Set(all);
    expect(parts.size).toBe(440);
    // Each part once, but for the requests in flight when the first was killed (at most its concurrency).
    expect(all.length - parts.size).toBeLessThanOrEqual(2);
    expect(doneByFirst.length).toBeGreaterThanOrEqual(150);
    // The second waited for the first's lease to lapse (it was killed, not stopped gracefully: the snapshot holds it).
    const firstBySecond = first.fake.log.slice(before + doneByFirst.length)[0]!;
    expect(firstBySecond.at - resumedAt).toBeGreaterThan(0);
    expect(firstBySecond.at - resumedAt).toBeLessThanOrEqual(60_000);
    // The budget held across the change of leader: the second knew what the first spent.
    expectWithin(
      first.fake.log.slice(before).map((r) => r.at),
      limits
    );
  }, 30_000);

  it('lets one of two refreshers on one state fetch, and the other take over within a minute when it dies', async () => {
    const anime = Array.from({ length: 20 }, (_, i) => finished(i + 1));
    const ctx = setup({ anime, refresher: { kinds: ['anime'] } });
    let dead = false;
    // A process that dies answers nothing more: every call on its state hangs.
    const frozen = new Proxy(ctx.state, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (dead ? new Promise(() => undefined) : (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    }) as RefreshState;
    const aEvents: RefreshEvent[] = [];
    const bEvents: RefreshEvent[] = [];
    const a = ctx.make({ holder: 'a', state: frozen }, aEvents);
    const b = ctx.make({ holder: 'b' }, bEvents);
    a.start();
    b.start();
    await ctx.vc.runUntil(T0 + 10 * MINUTE);
    expect(a.leader).toBe(true);
    expect(b.leader).toBe(false);
    const fetched = (events: RefreshEvent[]) => events.filter((e) => e.type === 'fetched').length;
    expect(fetched(aEvents)).toBeGreaterThan(0);
    expect(fetched(bEvents)).toBe(0);
    dead = true;
    const diedAt = ctx.vc.clock();
    await ctx.vc.runUntil(diedAt + 2 * MINUTE, () => b.leader);
    expect(b.leader).toBe(true);
    expect(ctx.vc.clock() - diedAt).toBeLessThanOrEqual(60_000);
    await ctx.vc.runUntil(ctx.vc.clock() + 10 * MINUTE);
    expect(fetched(bEvents)).toBeGreaterThan(0);
    await b.stop();
  }, 30_000);

  it('hands over at once when the leader stops', async () => {
    const ctx = setup({
      anime: [finished(1)],
      refresher: { kinds: ['anime'] },
    });
    const a = ctx.make({ holder: 'a' });
    const b = ctx.make({ holder: 'b' });
    a.start();
    await ctx.vc.runUntil(T0 + MINUTE);
    b.start();
    await ctx.vc.runUntil(T0 + 2 * MINUTE);
    expect([a.leader, b.leader]).toEqual([true, false]);
    await a.stop();
    const stoppedAt = ctx.vc.clock();
    await ctx.vc.runUntil(stoppedAt + MINUTE, () => b.leader);
    expect(ctx.vc.clock() - stoppedAt).toBeLessThanOrEqual(10_000);
    await b.stop();
  }, 30_000);

  it('never exceeds the budget, and a short budget stretches the lowest tier first and reports the shortfall', async () => {
    const anime = [
      ...Array.from({ length: 10 }, (_, i) => seasonAnime(100 + i, '2026-fall', true)),
      ...Array.from({ length: 30 }, (_, i) => finished(300 + i)),
    ];
    // 6 a minute (8,640 a day) against a full tier of 30 × 11 parts every hour (about 7,900 a day) on top of the rest.
    const limits = { perSecond: 1, perMinute: 6 };
    const { vc, fake, refresher, events, warnings } = setup({
      anime,
      limits,
      refresher: { kinds: ['anime'], intervals: { full: HOUR }, popularTop: 0 },
    });
    refresher.start();
    await vc.runUntil(T0 + 2 * DAY);
    await refresher.stop();
    expectWithin(
      fake.log.map((r) => r.at),
      limits
    );
    const shortTiers = new Set(events.flatMap((e) => (e.type === 'shortfall' ? [e.tier] : [])));
    expect([...shortTiers]).toEqual(['full']);
    expect(warnings.some((w) => /behind its schedule/.test(w))).toBe(true);
    expect(refresher.status().shortfall).toEqual(['full']);
    // The higher tiers kept their schedule: every hot part twice a day, discovery every five minutes.
    expect(timesAsked(fake, 'anime:100:full', T0 + DAY)).toBe(2);
    expect(timesAsked(fake, 'anime:newest:1', T0 + DAY)).toBeGreaterThanOrEqual(287);
    // The full tier got what was left: less than its schedule.
    expect(timesAsked(fake, 'anime:300:characters', T0 + DAY)).toBeLessThan(24);
    expect(timesAsked(fake, 'anime:300:characters', T0 + DAY)).toBeGreaterThan(0);
  }, 60_000);

  it('adopts entries first seen on the sweep into their tier, spread over it, and only those on a discovery page as new', async () => {
    const { vc, store, fake, refresher, drive, events, state } = setup({
      anime: [finished(1000)],
      refresher: { kinds: ['anime'] },
    });
    for (let id = 1; id <= 60; id++) fake.set('anime', finished(id));
    const summary = await drive(refresher.runOnce());
    // Page 1 of newest: 1000 (known) and 60…37, so no page 2 is followed.
    const discovered = events.flatMap((e) => (e.type === 'discovered' ? e.ids : []));
    expect([...discovered].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => 37 + i));
    expect(summary.discovered).toBe(24);
    expect(fake.log.some((r) => r.what === 'anime:newest:2')).toBe(false);
    // Records are served from the listing pages read: page 1 of the sweep now, its other pages spread over the day.
    expect((await store.pluck('anime', 'mal_id', { offset: 0, limit: 100 })).length).toBe(50);
    vc.set(T0 + DAY);
    await drive(refresher.runOnce());
    expect((await store.pluck('anime', 'mal_id', { offset: 0, limit: 100 })).length).toBe(61);
    const tasks = new Map(state.snapshot().tasks.map((t) => [t.key, t]));
    expect(tasks.get('anime:1:full')).toMatchObject({ tier: 'full' });
    expect(tasks.get('anime:1:full')!.dueAt).toBeGreaterThan(T0 + DAY);
    expect(fake.log.some((r) => r.what === 'anime:1:full')).toBe(false);
    expect(timesAsked(fake, 'anime:60:full')).toBe(1);
    expect(tasks.get('anime:60:full')).toMatchObject({ tier: 'full' });
  }, 30_000);

  it('treats a source that throws as a failure of the task, backed off', async () => {
    const { vc, fake, refresher, drive, state, events } = setup({
      anime: [finished(1)],
      refresher: { kinds: ['anime'], parts: { anime: ['full'] } },
    });
    await drive(refresher.runOnce());
    fake.source.entry = async () => {
      throw new Error('socket hang up');
    };
    vc.set(T0 + 31 * DAY);
    const summary = await drive(refresher.runOnce());
    expect(summary.stopped).toBeUndefined();
    const task = state.snapshot().tasks.find((t) => t.key === 'anime:1:full')!;
    expect(task.failures).toBe(1);
    expect(task.dueAt - vc.clock()).toBe(MINUTE);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'failed',
        task: 'anime:1:full',
        reason: 'threw: socket hang up',
      })
    );
  }, 30_000);

  it('follows changedIds when the upstream is this library', async () => {
    const { vc, store, fake, refresher } = setup({
      anime: [finished(1)],
      changes: true,
      refresher: { kinds: ['anime'], intervals: { discovery: 5 * MINUTE } },
    });
    refresher.start();
    await vc.runUntil(T0 + HOUR);
    const changedAt = vc.clock();
    fake.set('anime', finished(1, 7));
    fake.unlisted.add('anime:2');
    fake.set('anime', finished(2));
    await vc.runUntil(changedAt + 6 * MINUTE);
    await refresher.stop();
    expect((await store.get('anime', 1))?.popularity).toBe(7);
    expect(await store.get('anime', 2)).toBeDefined();
  }, 30_000);

  it('divides every refresh interval by the time scale, discovery no more often than every 5 s', async () => {
    const { vc, fake, refresher } = setup({
      anime: [seasonAnime(1, '2026-fall', true)],
      refresher: { kinds: ['anime'], timeScale: 3600 },
    });
    refresher.start();
    await vc.runUntil(T0 + 120_000);
    await refresher.stop();
    const at = (what: string) => fake.log.filter((r) => r.what === what).map((r) => r.at - T0);
    // Twelve hours are twelve seconds.
    const hot = at('anime:1:full');
    expect(hot.slice(1).map((t, i) => t - hot[i]!)).toEqual(Array(hot.length - 1).fill(12_000));
    expect(hot.length).toBeGreaterThanOrEqual(9);
    // Five minutes would be 83 ms: the floor holds it at 5 s.
    const newest = at('anime:newest:1');
    expect(newest.slice(1).every((t, i) => t - newest[i]! === 5_000)).toBe(true);
    expect(newest.length).toBe(25);
  }, 30_000);

  it('reports its state for the status API', async () => {
    const { refresher, drive } = setup({
      anime: [finished(1)],
      refresher: { kinds: ['anime'] },
    });
    expect(refresher.status()).toMatchObject({
      leader: false,
      holder: 'a',
      backlog: null,
      source: { name: 'fake.test', health: { circuit: 'closed' } },
    });
    const summary = await drive(refresher.runOnce());
    expect(summary.leader).toBe(true);
    expect(summary.fetched.new).toBeGreaterThan(0);
    const status = refresher.status();
    expect(status.leader).toBe(true);
    expect(status.backlog?.new.due).toBe(0);
    expect(status.fetched.new).toBe(summary.fetched.new);
    expect(status.lastPass).toEqual(summary);
  }, 30_000);
});

/** No more than the limits in any sliding second or minute. */
function expectWithin(instants: number[], limits: UpstreamLimits) {
  const sorted = [...instants].sort((a, b) => a - b);
  let s = 0;
  let m = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[s]! <= sorted[i]! - 1000) s++;
    while (sorted[m]! <= sorted[i]! - 60_000) m++;
    expect(i - s + 1).toBeLessThanOrEqual(limits.perSecond);
    expect(i - m + 1).toBeLessThanOrEqual(limits.perMinute);
  }
}
