import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../operations/metrics.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { EnvError, readServerEnv } from '../operations/server-env.js';
import { createMemoryRefreshState } from './memory-state.js';
import { createRefresherMetrics } from './refresh-metrics.js';
import { createRefresherFromEnv, readUpstreamSettings, UPSTREAM_CHECK_URL, UPSTREAM_ENV, type SnapshotFile } from './start.js';

const T0 = Date.UTC(2026, 0, 10, 12, 0);
const quiet = { info() {}, warn() {}, error() {} };
const envOf = (vars: Record<string, string>) => readServerEnv(vars, { only: UPSTREAM_ENV });
const emptyStore = () => createMemoryStore({ anime: [], manga: [] } as never);
/** A fetch that must never be called: nothing here is started, so nothing may go upstream. */
const noFetch = (() => Promise.reject(new Error('no request may go upstream in these tests'))) as typeof fetch;

function memoryFile(text?: string): SnapshotFile & { text: string | undefined; writes: number } {
  const file = {
    text,
    writes: 0,
    read: async () => file.text,
    write: async (value: string) => {
      file.text = value;
      file.writes++;
    },
  };
  return file;
}

describe('the upstream variables', () => {
  it('read the budget, the time scale and the intervals, in ms, leaving the unset ones to the schedule', () => {
    expect(readUpstreamSettings(envOf({}))).toBeUndefined();
    expect(readUpstreamSettings(envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4' }))).toEqual({
      baseUrl: 'https://api.jikan.moe/v4',
      limits: { perSecond: 3, perMinute: 60 },
      timeScale: 1,
      intervals: {},
    });
    const settings = readUpstreamSettings(
      envOf({
        UPSTREAM_URL: 'http://127.0.0.1:8080/v1',
        UPSTREAM_MAX_PER_SECOND: '20',
        UPSTREAM_MAX_PER_MINUTE: '1200',
        UPSTREAM_TIME_SCALE: '3600',
        REFRESH_DISCOVERY_MINUTES: '2',
        REFRESH_NEW_MINUTES: '0.5',
        REFRESH_HOT_HOURS: '6',
        REFRESH_STATS_HOURS: '24',
        REFRESH_POPULAR_DAYS: '2',
        REFRESH_FULL_DAYS: '14',
      }),
    );
    expect(settings).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      limits: { perSecond: 20, perMinute: 1200 },
      timeScale: 3600,
      intervals: { discovery: 120_000, new: 30_000, hot: 21_600_000, stats: 86_400_000, popular: 172_800_000, full: 1_209_600_000 },
    });
  });

  it.each([
    ['UPSTREAM_URL', 'ftp://example.org/v4'],
    ['UPSTREAM_URL', 'api.jikan.moe/v4'],
    ['UPSTREAM_MAX_PER_SECOND', '0'],
    ['UPSTREAM_MAX_PER_MINUTE', '1.5'],
    ['UPSTREAM_TIME_SCALE', '0.5'],
    ['REFRESH_HOT_HOURS', '0'],
    ['REFRESH_FULL_DAYS', 'a month'],
  ])('refuse %s=%s at start, naming the variable', (name, value) => {
    expect(() => envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4', [name]: value })).toThrow(EnvError);
    expect(() => envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4', [name]: value })).toThrow(new RegExp(`^${name} must be`));
  });
});

describe('createRefresherFromEnv', () => {
  it('builds nothing without UPSTREAM_URL', async () => {
    expect(await createRefresherFromEnv({ env: envOf({}), store: emptyStore(), logger: quiet })).toBeUndefined();
  });

  it('declares the upstream as a status service checked in-process, under its host', async () => {
    const upstream = (await createRefresherFromEnv({ env: envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4' }), store: emptyStore(), fetch: noFetch, logger: quiet }))!;
    expect(upstream.service).toMatchObject({ id: 'upstream', name: 'Upstream (api.jikan.moe)', homepageUrl: 'https://api.jikan.moe', check: { url: UPSTREAM_CHECK_URL, degradedStatuses: [429] } });
    // A check that reached the network instead of the probe would fail rather than spend the upstream's budget.
    await expect(fetch(UPSTREAM_CHECK_URL)).rejects.toThrow();
    const answer = await upstream.probe();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ source: 'api.jikan.moe', circuit: 'closed', paused_until: null });
  });

  it("answers the check 429 (degraded) while a Retry-After pauses the source, on every instance sharing the state", async () => {
    const clock = () => T0;
    const state = createMemoryRefreshState();
    const upstream = (await createRefresherFromEnv({ env: envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4' }), store: emptyStore(), state, fetch: noFetch, logger: quiet, clock }))!;
    await state.pause(T0 + 30_000);
    const answer = await upstream.probe();
    expect(answer.status).toBe(429);
    expect(await answer.json()).toMatchObject({ paused_until: new Date(T0 + 30_000).toISOString() });
  });

  it("answers the check 503 (down) while the leader's circuit is open, as the leader last published it", async () => {
    let now = T0;
    const state = createMemoryRefreshState();
    const upstream = (await createRefresherFromEnv({ env: envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4' }), store: emptyStore(), state, fetch: noFetch, logger: quiet, clock: () => now }))!;
    // Another instance leads: only its source sends requests, so only its circuit knows.
    await state.setCursor('upstream:health', JSON.stringify({ circuit: 'open', lastError: '5 failures in a row', until: T0 + 60_000, at: T0 - 5_000 }));
    const down = await upstream.probe();
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ circuit: 'open', last_error: '5 failures in a row' });
    // A word from a leader gone quiet for minutes is not taken: this instance's own view is.
    now = T0 + 10 * 60_000;
    expect((await upstream.probe()).status).toBe(200);
  });

  it('saves a state in memory to its file at stop, and reads it back at the next start', async () => {
    const file = memoryFile();
    const env = envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4', UPSTREAM_STATE_FILE: 'state.json' });
    const first = (await createRefresherFromEnv({ env, store: emptyStore(), snapshots: file, fetch: noFetch, logger: quiet }))!;
    await first.state.setCursor('anime:changed-since', '1767225600000');
    await first.state.pause(T0 + 60_000);
    await first.stop();
    expect(file.writes).toBe(1);
    const second = (await createRefresherFromEnv({ env, store: emptyStore(), snapshots: file, fetch: noFetch, logger: quiet }))!;
    expect(await second.state.getCursor('anime:changed-since')).toBe('1767225600000');
    expect((await second.state.usage(T0)).pausedUntil).toBe(T0 + 60_000);
  });

  it('starts afresh, with a warning, from a state file it cannot read', async () => {
    const warnings: string[] = [];
    const upstream = (await createRefresherFromEnv({
      env: envOf({ UPSTREAM_URL: 'https://api.jikan.moe/v4' }),
      store: emptyStore(),
      snapshots: memoryFile('{"half a'),
      fetch: noFetch,
      logger: { ...quiet, warn: (message: string) => void warnings.push(message) },
    }))!;
    expect(await upstream.state.size()).toBe(0);
    expect(warnings).toHaveLength(1);
  });

});

describe('createRefresherMetrics', () => {
  it('reports the budget used against its limits, the work due per tier, the circuit, the shortfall and the events', async () => {
    const registry = createMetricsRegistry();
    const state = createMemoryRefreshState();
    const limits = { perSecond: 3, perMinute: 60 };
    await state.tryTake(T0 - 500, limits);
    await state.tryTake(T0 - 30_000, limits);
    await state.put([{ key: 'anime:1:full', tier: 'full', dueAt: T0 - 60_000, kind: 'anime', id: 1, part: 'full', failures: 0 }]);
    const status = { shortfall: ['full'], lastPass: { endedAt: T0 - 2_000 } };
    const metrics = createRefresherMetrics({
      registry,
      refresher: { leader: true, status: () => status as never },
      state,
      source: { health: () => ({ circuit: 'open' }) },
      limits,
      clock: () => T0,
    });
    await metrics.poll();
    metrics.onEvent({ type: 'fetched', tier: 'full', task: 'anime:1:full', outcome: 'ok' });
    metrics.onEvent({ type: 'written', tier: 'full', task: 'anime:1:full', records: 1 });
    metrics.onEvent({ type: 'discovered', kind: 'anime', ids: [5, 6] });
    const text = registry.render();
    for (const line of [
      'catalogue_upstream_budget_used{window="second"} 1',
      'catalogue_upstream_budget_used{window="minute"} 2',
      'catalogue_upstream_budget_limit{window="minute"} 60',
      'catalogue_refresh_tasks_due{tier="full"} 1',
      'catalogue_refresh_tasks_due{tier="new"} 0',
      'catalogue_refresh_oldest_due_seconds{tier="full"} 60',
      'catalogue_refresh_tasks 1',
      'catalogue_upstream_circuit{state="open"} 1',
      'catalogue_upstream_circuit{state="closed"} 0',
      'catalogue_refresh_shortfall{tier="full"} 1',
      'catalogue_refresh_shortfall{tier="hot"} 0',
      'catalogue_refresh_leader 1',
      `catalogue_refresh_last_pass_timestamp_seconds ${(T0 - 2_000) / 1000}`,
      'catalogue_upstream_requests_total{tier="full",outcome="ok"} 1',
      'catalogue_refresh_writes_total{result="written"} 1',
      'catalogue_refresh_writes_total{result="invalid"} 0',
      'catalogue_refresh_discovered_total{kind="anime"} 2',
    ]) {
      expect(text).toContain(`${line}\n`);
    }
  });
});
