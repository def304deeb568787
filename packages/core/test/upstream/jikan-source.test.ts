import { afterEach, describe, expect, it } from 'vitest';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { demoAnime, demoData } from '@catalogue-api/demo-data';
import { checkRequestLog, createFakeUpstream, type FakeRecord, type FakeUpstream } from '@catalogue-api/testkit';
import packageJson from '../../package.json' with { type: 'json' };
import { createBudget, createMemoryLedger } from '../../src/upstream/budget.js';
import { createJikanSource, DEFAULT_USER_AGENT, LIBRARY_VERSION, type JikanSourceOptions } from '../../src/upstream/jikan-source.js';
import type { UpstreamLimits } from '../../src/upstream/types.js';

/**
 * A virtual clock shared by the source, its budget and the fake, whose sleeps move time forward
 * only once no request is in flight: a request then arrives at the fake at the virtual instant
 * its slot was taken, and whatever its answer sets (a pause) is set before time moves on.
 */
function harness(start = Date.UTC(2026, 0, 15, 12)) {
  let now = start;
  let inFlight = 0;
  const sleeps: number[] = [];
  const settle = async () => {
    do await nextTurn();
    while (inFlight > 0);
    await nextTurn();
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    inFlight++;
    try {
      const response = await globalThis.fetch(input, init);
      // Buffer the body so the request is done when the count drops.
      const body = response.status === 304 ? null : await response.arrayBuffer();
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      inFlight--;
    }
  };
  return {
    clock: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
    fetch,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      const wake = now + ms;
      await settle();
      signal?.throwIfAborted();
      now = Math.max(now, wake);
    },
  };
}

type Harness = ReturnType<typeof harness>;

const manga = demoData.manga as unknown as FakeRecord[];
const anime = demoAnime as unknown as FakeRecord[];
let fake: FakeUpstream | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setUp(options: { limits?: UpstreamLimits; thisLibrary?: boolean; enforce?: boolean; source?: Partial<JikanSourceOptions> } = {}) {
  const time: Harness = harness();
  const limits = options.limits ?? { perSecond: 3, perMinute: 60 };
  fake = await createFakeUpstream({ anime, manga, clock: time.clock, thisLibrary: options.thisLibrary, season: { year: 2026, season: 'winter' }, limits: options.enforce ? limits : undefined, slackMs: 0 });
  const source = createJikanSource({
    baseUrl: fake.url,
    budget: createBudget(createMemoryLedger(), limits, time),
    limits,
    fetch: time.fetch,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    ...options.source,
  });
  return { time, source, fake, limits };
}

describe('createJikanSource against the fake upstream', () => {
  it('names the library and its version in the User-Agent, and keeps the version in step with package.json', async () => {
    const { source, fake } = await setUp();
    expect(LIBRARY_VERSION).toBe(packageJson.version);
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'ok' });
    expect(fake.log[0]!.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(DEFAULT_USER_AGENT).toBe(`catalogue-api/${packageJson.version} (+https://github.com/catalogue-api/catalogue-api)`);
    expect(source.name).toBe(new URL(fake.url).host);
    expect(source.limits).toEqual({ perSecond: 3, perMinute: 60 });
  });

  it('fetches an entry and its parts, and answers unchanged to a conditional request until the record changes', async () => {
    const { source, fake } = await setUp();
    const first = await source.entry('anime', 1, 'full');
    if (first.outcome !== 'ok') throw new Error(first.outcome);
    expect((first.body as { data: { mal_id: number; relations: unknown[] } }).data).toMatchObject({ mal_id: 1, relations: [] });
    expect(first.validator).toMatch(/^"/);
    expect(await source.entry('anime', 1, 'full', first.validator)).toEqual({ outcome: 'unchanged' });
    expect(fake.log.at(-1)).toMatchObject({ status: 304, headers: { 'if-none-match': first.validator } });
    fake.set('anime', { ...fake.get('anime', 1)!, title: 'Cowboy Bebop (changed)' });
    const changed = await source.entry('anime', 1, 'full', first.validator);
    expect(changed).toMatchObject({ outcome: 'ok', body: { data: { title: 'Cowboy Bebop (changed)' } } });
    expect(await source.entry('anime', 1, 'characters')).toMatchObject({ outcome: 'ok', body: { data: [] } });
    // A validator that is not an entity tag is a date: sent as If-Modified-Since.
    await source.entry('anime', 1, 'statistics', 'Wed, 14 Jan 2026 12:00:00 GMT');
    expect(fake.log.at(-1)!.headers['if-modified-since']).toBe('Wed, 14 Jan 2026 12:00:00 GMT');
  });

  it('answers not-found to a 404, and ok once the 404 heals', async () => {
    const { source, fake } = await setUp();
    fake.fail({ type: 'status', status: 404 }, { path: '/anime/1/full', times: 1 });
    expect(await source.entry('anime', 1, 'full')).toEqual({ outcome: 'not-found' });
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'ok' });
    expect(await source.entry('anime', 999_999_999, 'full')).toEqual({ outcome: 'not-found' });
    expect(source.health().circuit).toBe('closed');
  });

  it.each([
    ['an error body served as 200', { type: 'error-body' } as const, /error body served as 200 \(status 500/],
    ['a body with only an error', { type: 'error-body', body: { error: 'upstream down' } } as const, /error body served as 200 \(upstream down\)/],
    ['a body without data', { type: 'error-body', body: { pagination: {} } } as const, /no data/],
    ['a 200 that is not JSON', { type: 'not-json' } as const, /not JSON/],
  ])('answers failed, never ok, to %s', async (_, failure, reason) => {
    const { source, fake } = await setUp();
    fake.fail(failure, { path: '/anime/1/full' });
    const fetched = await source.entry('anime', 1, 'full');
    expect(fetched.outcome).toBe('failed');
    expect(fetched.outcome === 'failed' && fetched.reason).toMatch(reason);
  });

  it('passes an invalid record on as the upstream sent it (the writer rejects it)', async () => {
    const { source, fake } = await setUp();
    fake.fail({ type: 'invalid' }, { path: '/anime/1/full', times: 1 });
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'ok', body: { data: { mal_id: 1, score: 11 } } });
  });

  it('backs off with bounded jitter on 5xx, each retry taking a budget slot, then succeeds', async () => {
    const { source, fake, time } = await setUp({ source: { backoffMs: 1_000, retries: 3, random: () => 0.999 } });
    fake.fail({ type: 'status', status: 502 }, { path: '/anime/1/full', times: 2 });
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'ok' });
    expect(fake.log.map((r) => r.status)).toEqual([502, 502, 200]);
    // Equal jitter: the n-th backoff lies in [½, 1] × 1 s × 2ⁿ.
    const backoffs = time.sleeps.filter((ms) => ms >= 500);
    expect(backoffs).toHaveLength(2);
    expect(backoffs[0]).toBeGreaterThanOrEqual(500);
    expect(backoffs[0]).toBeLessThanOrEqual(1_000);
    expect(backoffs[1]).toBeGreaterThanOrEqual(1_000);
    expect(backoffs[1]).toBeLessThanOrEqual(2_000);
    const gaps = fake.log.slice(1).map((r, i) => r.time - fake.log[i]!.time);
    expect(gaps[0]).toBeGreaterThanOrEqual(500);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_000);
  });

  it('gives up after its retries and reports failed', async () => {
    const { source, fake } = await setUp({ source: { retries: 2, random: () => 0 } });
    fake.fail({ type: 'status', status: 500 });
    const fetched = await source.entry('anime', 1, 'full');
    expect(fetched).toMatchObject({ outcome: 'failed' });
    expect(fake.log).toHaveLength(3);
  });

  it('abandons a request that hangs after timeoutMs and retries it', async () => {
    const { source, fake } = await setUp({ source: { timeoutMs: 150, retries: 1 } });
    fake.fail({ type: 'hang' }, { path: '/anime/1/full' });
    const fetched = await source.entry('anime', 1, 'full');
    expect(fetched).toMatchObject({ outcome: 'failed' });
    expect(fetched.outcome === 'failed' && fetched.reason).toMatch(/timed out after 150 ms/);
    expect(fake.log).toHaveLength(2);
  });

  it('pauses the whole source on a 429 with Retry-After, requests waiting at once included', async () => {
    const { source, fake } = await setUp({ limits: { perSecond: 1, perMinute: 60 } });
    fake.fail({ type: 'status', status: 429, retryAfter: 30 }, { path: '/anime/1/full', times: 1 });
    const ids = anime.slice(0, 4).map((a) => a.mal_id);
    expect(ids[0]).toBe(1);
    const results = await Promise.all(ids.map((id) => source.entry('anime', id, 'full')));
    expect(results.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const limited = fake.log.find((r) => r.status === 429)!;
    const after = fake.log.filter((r) => r.time > limited.time);
    expect(after).toHaveLength(4);
    for (const record of after) expect(record.time).toBeGreaterThanOrEqual(limited.time + 30_000);
  });

  it('honours Retry-After on a 503 too, and fails at once when the pause is too long to wait', async () => {
    const { source, fake } = await setUp({ source: { maxRetryWaitMs: 10_000 } });
    fake.fail({ type: 'status', status: 503, retryAfter: 3_600 }, { path: '/anime/1/full', times: 1 });
    const fetched = await source.entry('anime', 1, 'full');
    expect(fetched).toMatchObject({ outcome: 'failed' });
    expect(fake.log).toHaveLength(1);
    expect(source.health().until).toBe(fake.log[0]!.time + 3_600_000);
    // The pause holds: the next request waits for it.
    expect(await source.entry('anime', 5, 'full')).toMatchObject({ outcome: 'ok' });
    expect(fake.log[1]!.time - fake.log[0]!.time).toBeGreaterThanOrEqual(3_600_000);
  });

  it('opens its circuit after consecutive failures, sends nothing while open, and heals through one probe', async () => {
    const { source, fake, time } = await setUp({ source: { retries: 0, breakerFailures: 3, breakerCoolDownMs: 30_000 } });
    const broken = fake.fail({ type: 'status', status: 500 });
    for (let i = 0; i < 3; i++) expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'failed' });
    expect(source.health()).toMatchObject({ circuit: 'open', lastError: expect.stringMatching(/500/) });
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/circuit open/) });
    expect(fake.log).toHaveLength(3);
    // The cool-down passes; the probe fails: open again at once.
    time.advance(30_000);
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'failed' });
    expect(source.health().circuit).toBe('open');
    expect(fake.log).toHaveLength(4);
    time.advance(30_000);
    broken();
    expect(await source.entry('anime', 1, 'full')).toMatchObject({ outcome: 'ok' });
    expect(source.health().circuit).toBe('closed');
  });

  it('never sends more than the declared limits in any sliding second or minute', async () => {
    const { source, fake, limits } = await setUp({ enforce: true });
    const ids = anime.slice(0, 130).map((a) => a.mal_id);
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = worker; i < ids.length; i += 6) await source.entry('anime', ids[i]!, 'full');
      }),
    );
    expect(fake.log).toHaveLength(130);
    const check = checkRequestLog(fake.log, limits);
    expect(check).toEqual({ ok: true, maxPerSecond: 3, maxPerMinute: 60 });
    // The fake enforces the same windows to the millisecond and saw no request over them.
    expect(fake.violations).toBe(0);
    expect(fake.log.every((r) => r.status === 200)).toBe(true);
  });

  it('pages through every listing with Jikan’s pagination', async () => {
    const { source, fake } = await setUp({ limits: { perSecond: 50, perMinute: 1_000 } });
    const newest = await source.list('anime', 'newest', 1);
    if (newest.outcome !== 'ok') throw new Error(newest.outcome);
    const approved = anime.filter((a) => a.approved !== false);
    expect(newest.body.items).toHaveLength(25);
    expect((newest.body.items[0] as FakeRecord).mal_id).toBe(Math.max(...approved.map((a) => a.mal_id)));
    expect(newest.body).toMatchObject({ hasNextPage: true, lastPage: Math.ceil(approved.length / 25) });
    const sweepLast = await source.list('anime', 'sweep', Math.ceil(approved.length / 25));
    expect(sweepLast).toMatchObject({ outcome: 'ok', body: { hasNextPage: false } });
    const top = await source.list('manga', 'top', 1);
    const ranks = top.outcome === 'ok' ? top.body.items.map((m) => (m as FakeRecord).rank as number) : [];
    expect(ranks[0]).toBe(Math.min(...manga.filter((m) => typeof m.rank === 'number').map((m) => m.rank as number)));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const current = await source.list('anime', 'current', 1);
    expect(current.outcome === 'ok' && current.body.items.every((a) => (a as FakeRecord).status === 'Currently Airing')).toBe(true);
    for (const list of ['upcoming', 'seasonNow', 'seasonUpcoming', 'schedules'] as const) {
      expect(await source.list('anime', list, 1)).toMatchObject({ outcome: 'ok' });
      expect(await source.list('manga', list, 1)).toMatchObject({ outcome: 'failed' });
    }
    expect(fake.log.map((r) => r.path)).toEqual([
      '/anime?order_by=mal_id&sort=desc&page=1',
      `/anime?order_by=mal_id&sort=asc&page=${Math.ceil(approved.length / 25)}`,
      '/top/manga?page=1',
      '/anime?status=airing&page=1',
      '/top/anime?filter=upcoming&page=1',
      '/seasons/now?page=1',
      '/seasons/upcoming?page=1',
      '/schedules?page=1',
    ]);
  });

  it('reads changed and deleted ids when the upstream is this library', async () => {
    const { source, fake, time } = await setUp({ thisLibrary: true });
    expect(fake.url).toMatch(/\/v1$/);
    const since = time.clock() + 1_000;
    time.advance(5_000);
    fake.set('anime', { ...fake.get('anime', 20)!, title: 'Naruto (changed)' });
    fake.set('anime', { ...anime[0]!, mal_id: 99_999_001, title: 'A new entry' });
    fake.remove('anime', 1);
    expect(await source.changedIds!('anime', since)).toEqual({ outcome: 'ok', body: [20, 99_999_001], validator: expect.any(String) });
    expect(await source.deletedIds!('anime')).toMatchObject({ outcome: 'ok', body: [1] });
    expect(await source.changedIds!('manga', since)).toMatchObject({ outcome: 'ok', body: [] });
    expect(fake.log[0]!.path).toBe(`/anime/ids?updated_at=${encodeURIComponent(new Date(since).toISOString())}`);
  });

  it('offers no changed or deleted ids on a plain Jikan upstream', async () => {
    const { source } = await setUp();
    expect(source.changedIds).toBeUndefined();
    expect(source.deletedIds).toBeUndefined();
  });

  it('rejects with the caller’s reason when aborted, without counting a failure', async () => {
    const { source, fake } = await setUp();
    fake.fail({ type: 'hang' });
    const stop = new AbortController();
    const pending = source.entry('anime', 1, 'full', undefined, stop.signal);
    while (fake.log.length === 0) await nextTurn();
    stop.abort(new Error('stopping'));
    await expect(pending).rejects.toThrow('stopping');
    expect(source.health()).toEqual({ circuit: 'closed', lastError: undefined });
  });
});
