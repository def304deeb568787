import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  combineApps,
  createCatalogueApp,
  createChecker,
  createMemoryStatusStore,
  createStatusApp,
  type Checker,
  type ServiceConfig,
  type StatusApp,
  type StatusSnapshot,
  type StatusStore,
} from '@catalogue-api/core';
import { statusSnapshotSchema } from '@catalogue-api/core/schemas';
import { createManualTimers, createTestClock, MINUTE, startTarget, type Target, type TargetMode, type TestClock } from './helpers.js';

const NOON = Date.UTC(2026, 0, 10, 12, 0, 0);

let clock: TestClock;
let target: Target;
let store: StatusStore;
let services: ServiceConfig[];
let checker: Checker;
let app: StatusApp;

beforeEach(async () => {
  clock = createTestClock(NOON);
  target = await startTarget(clock);
  store = createMemoryStatusStore();
  services = [
    {
      id: 'api',
      name: 'Catalogue API',
      homepageUrl: 'https://api.example.org',
      logoUrl: 'https://api.example.org/logo.png',
      check: { url: target.url, timeoutMs: 30_000, degradedAfterMs: 2_000, degradedStatuses: [429] },
    },
  ];
  checker = createChecker({ services, store, now: clock.now });
  app = createStatusApp({ services, store, now: clock.now, page: { name: 'Example status', url: 'https://status.example.org' } });
});

afterEach(async () => {
  await checker.stop();
  await target.close();
});

/** One check a minute, `count` times, with the target in `mode`; the clock ends a minute after the last. */
async function checkEvery(count: number, mode: TargetMode): Promise<void> {
  target.mode = mode;
  for (let i = 0; i < count; i++) {
    await checker.runOnce();
    clock.advance(MINUTE);
  }
}

async function service(): Promise<StatusSnapshot['services'][number]> {
  const snapshot = statusSnapshotSchema.parse(await app.snapshot());
  return snapshot.services[0]!;
}

/** {@link checkEvery}, then the service as the snapshot shows it. */
async function serviceAfter(count: number, mode: TargetMode): Promise<StatusSnapshot['services'][number]> {
  await checkEvery(count, mode);
  return service();
}

/** {@link checkEvery}, then the status the snapshot shows for the service. */
async function statusAfter(count: number, mode: TargetMode): Promise<StatusSnapshot['services'][number]['status']> {
  return (await serviceAfter(count, mode)).status;
}

/**
 * A checker on manual timers whose first round waits on a target that hangs, returned once the
 * round's request is on the wire.
 */
async function hangingRound() {
  const timers = createManualTimers();
  const slowChecker = createChecker({ services, store, now: clock.now, timers });
  target.mode = 'hang';
  const round = slowChecker.runOnce();
  while (target.requests === 0) await new Promise((resolve) => setImmediate(resolve));
  return { timers, slowChecker, round };
}

describe('status API: outages from checks', () => {
  it('shows down after two failures, then operational, with 7 outage minutes on the right UTC day', async () => {
    expect(await statusAfter(5, 'up')).toBe('operational');

    // One failure is not an outage yet (flap control): the state before it holds.
    expect(await statusAfter(1, 'down')).toBe('operational');
    const down = await serviceAfter(1, 'down');
    expect(down.status).toBe('down');
    // Booked from the first failing check (12:05) to now (12:07).
    expect(down.outage_minutes_90d).toBe(2);

    await checkEvery(5, 'down');
    target.mode = 'up';
    await checker.runOnce(); // 12:12: answered again
    clock.advance(MINUTE);
    const after = await service();
    expect(after.status).toBe('operational');
    expect(after.outage_minutes_90d).toBe(7);
    expect(after.daily_outage_minutes_90d).toEqual({ '2026-01-10': 7 });
    expect(after.degraded_minutes_90d).toBe(0);
    expect(after.daily_degraded_minutes_90d).toEqual({});
    expect(after.last_check_at).toBe('2026-01-10T12:12:00.000Z');
  });

  it('counts a 3-minute outage in the total but leaves its day out of the daily map', async () => {
    await checkEvery(2, 'up');
    await checkEvery(3, 'down');
    const s = await serviceAfter(2, 'up');
    expect(s.outage_minutes_90d).toBe(3);
    expect(s.daily_outage_minutes_90d).toEqual({});
  });

  it('does not count a single failed check as outage', async () => {
    await checkEvery(2, 'up');
    await checkEvery(1, 'down');
    const s = await serviceAfter(2, 'up');
    expect(s.status).toBe('operational');
    expect(s.outage_minutes_90d).toBe(0);
  });

  it('splits an outage across midnight UTC into both days', async () => {
    clock.set(Date.UTC(2026, 0, 10, 23, 45));
    await checkEvery(5, 'up');
    await checkEvery(20, 'down'); // 23:50 → 00:10
    const s = await serviceAfter(1, 'up');
    expect(s.daily_outage_minutes_90d).toEqual({ '2026-01-10': 10, '2026-01-11': 10 });
    expect(s.outage_minutes_90d).toBe(20);
  });

  it('excludes maintenance time from outage minutes and shows the record while it is active', async () => {
    await app.maintenance.add({
      id: 'db-upgrade',
      serviceId: 'api',
      title: 'Database upgrade',
      startsAt: NOON + 10 * MINUTE,
      endsAt: NOON + 20 * MINUTE,
    });
    let snapshot = statusSnapshotSchema.parse(await app.snapshot());
    expect(snapshot.scheduled_maintenances).toMatchObject([{ id: 'db-upgrade', state: 'scheduled', status: 'Scheduled' }]);
    expect(snapshot.services[0]!.active_maintenance).toBeNull();

    await checkEvery(5, 'up');
    await checkEvery(10, 'down'); // 12:05 → 12:15, in maintenance from 12:10
    snapshot = statusSnapshotSchema.parse(await app.snapshot());
    expect(snapshot.services[0]!.status).toBe('maintenance');
    expect(snapshot.services[0]!.active_maintenance).toMatchObject({ id: 'db-upgrade', state: 'active', status: 'In progress' });
    expect(snapshot.scheduled_maintenances).toMatchObject([{ id: 'db-upgrade', state: 'active' }]);

    await checkEvery(10, 'down'); // 12:15 → 12:25
    await checkEvery(1, 'up');
    snapshot = statusSnapshotSchema.parse(await app.snapshot());
    const s = snapshot.services[0]!;
    // 12:05–12:10 and 12:20–12:25 count; the ten minutes in maintenance do not.
    expect(s.outage_minutes_90d).toBe(10);
    expect(s.daily_outage_minutes_90d).toEqual({ '2026-01-10': 10 });
    expect(s.status).toBe('operational');
    expect(s.active_maintenance).toBeNull();
    // Ended records drop out of the snapshot but still exclude their time.
    expect(snapshot.scheduled_maintenances).toEqual([]);
  });

  it('applies a maintenance record for "all" to every service', async () => {
    await app.maintenance.add({ serviceId: 'all', title: 'Move', startsAt: NOON - MINUTE, endsAt: NOON + 5 * MINUTE, status: 'Moving hosts' });
    const s = await serviceAfter(1, 'up');
    expect(s.status).toBe('maintenance');
    expect(s.active_maintenance).toMatchObject({ service_id: 'all', status: 'Moving hosts', state: 'active' });
  });
});

describe('status API: degraded and unknown', () => {
  it('marks slow answers and configured degraded statuses degraded, and keeps every degraded day in the map', async () => {
    await checkEvery(2, 'up');
    expect(await statusAfter(2, 'slow')).toBe('degraded');
    expect(await statusAfter(1, 'limited')).toBe('degraded');
    const s = await serviceAfter(1, 'up');
    expect(s.status).toBe('operational');
    expect(s.degraded_minutes_90d).toBe(3);
    // Degraded days are kept from one minute on: unlike outages, the spec says the map "includes recorded degraded minutes".
    expect(s.daily_degraded_minutes_90d).toEqual({ '2026-01-10': 3 });
    expect(s.outage_minutes_90d).toBe(0);
  });

  it('is unknown with an unhealthy checker before the first result', async () => {
    const snapshot = statusSnapshotSchema.parse(await app.snapshot());
    expect(snapshot.checker).toEqual({ healthy: false, last_check_at: null, stale_after_seconds: 120 });
    expect(snapshot.services[0]).toMatchObject({ status: 'unknown', last_check_at: null, outage_minutes_90d: 0 });
  });

  it('makes checker.healthy false and services unknown when the checker stalls, and counts the gap as nothing', async () => {
    await checkEvery(3, 'down'); // 12:00–12:02 failing: down from 12:00
    clock.set(NOON + 2 * MINUTE + 120_000); // exactly at the threshold: still fresh
    let snapshot = statusSnapshotSchema.parse(await app.snapshot());
    expect(snapshot.checker.healthy).toBe(true);
    expect(snapshot.services[0]!.status).toBe('down');

    clock.advance(1_000);
    snapshot = statusSnapshotSchema.parse(await app.snapshot());
    expect(snapshot.checker).toEqual({ healthy: false, last_check_at: '2026-01-10T12:02:00.000Z', stale_after_seconds: 120 });
    expect(snapshot.services[0]!.status).toBe('unknown');

    clock.set(NOON + 60 * MINUTE);
    snapshot = statusSnapshotSchema.parse(await app.snapshot());
    // 12:00 → 12:04 (last result + 120 s); the 56 minutes without results are unknown, not outage.
    expect(snapshot.services[0]!.outage_minutes_90d).toBe(4);
  });

  it('fails a check that does not answer within its timeout', async () => {
    const { timers, round } = await hangingRound();
    // The request is on the wire: let the 30 s timeout fire.
    expect(timers.pending()).toEqual([{ ms: 30_000 }]);
    timers.fire(30_000);
    expect((await round).results).toEqual({ api: 'fail' });
  });
});

describe('status API: checker', () => {
  it('never runs two checks of one service at once', async () => {
    const { timers, slowChecker, round } = await hangingRound();
    expect((await slowChecker.runOnce()).results).toEqual({});
    expect(target.requests).toBe(1);
    timers.fire();
    await round;
  });

  it('runs a round at start and then one per interval from injected timers', async () => {
    const timers = createManualTimers();
    const scheduled = createChecker({ services, store, now: clock.now, timers, intervalSeconds: 60 });
    scheduled.start();
    expect(timers.pending()).toContainEqual({ ms: 60_000 });
    while (target.requests < 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(MINUTE);
    timers.fire(60_000);
    while (target.requests < 2) await new Promise((resolve) => setImmediate(resolve));
    await scheduled.stop();
    expect(timers.pending().filter((t) => t.ms === 60_000)).toEqual([]);
    expect(target.requests).toBe(2);
  });

  it('prunes history older than 91 days, at most once an hour, without touching the 90-day view', async () => {
    const DAY = 24 * 60 * MINUTE;
    const pruned: number[] = [];
    const watched: StatusStore = { ...store, prune: (before) => (pruned.push(before), store.prune(before)) };
    const pruning = createChecker({ services, store: watched, now: clock.now });
    await app.maintenance.add({ id: 'old', serviceId: 'api', title: 'Long ago', startsAt: NOON - MINUTE, endsAt: NOON });
    await checkEvery(6, 'down'); // 12:00–12:05: a 6-minute outage on 2026-01-10
    await checker.stop(); // hands the lease over
    target.mode = 'up';
    await pruning.runOnce();
    expect(pruned).toEqual([NOON + 6 * MINUTE - 91 * DAY]);
    // Within the hour: no second prune however many rounds run.
    clock.advance(59 * MINUTE);
    await pruning.runOnce();
    expect(pruned).toHaveLength(1);

    // 91 days on, the outage is still in storage (its day has left the 90-day view, but it is not 91 days old)…
    clock.set(NOON + 91 * DAY - MINUTE);
    await pruning.runOnce();
    expect(pruned).toHaveLength(2);
    expect((await store.listSegments(0)).filter((s) => s.outcome === 'fail')).toHaveLength(1);
    // …and an hour past 91 days it is gone, with the maintenance record that ended with it.
    clock.set(NOON + 91 * DAY + 6 * MINUTE + 60 * MINUTE);
    await pruning.runOnce();
    expect(pruned).toHaveLength(3);
    expect((await store.listSegments(0)).filter((s) => s.outcome === 'fail')).toEqual([]);
    expect((await store.listMaintenances()).map((m) => m.id)).toEqual([]);
    await pruning.stop();
  });

  it('lets only the lease holder check, and another instance take over when the lease lapses', async () => {
    const other = createChecker({ services, store, now: clock.now, holder: 'other' });
    expect((await checker.runOnce()).leader).toBe(true);
    expect(await other.runOnce()).toEqual({ leader: false, results: {}, backlog: 0 });
    clock.advance(3 * MINUTE + 1);
    expect((await other.runOnce()).leader).toBe(true);
    expect((await checker.runOnce()).leader).toBe(false);
  });
});

describe('status API: HTTP', () => {
  it('answers GET /api/status with the snapshot and Cache-Control: public, max-age=30', async () => {
    await checkEvery(1, 'up');
    const res = await app.fetch(new Request('http://localhost/api/status'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = statusSnapshotSchema.parse(await res.json());
    expect(body).toMatchObject({
      api_version: 1,
      page: { name: 'Example status', url: 'https://status.example.org' },
      generated_at: new Date(clock.now()).toISOString(),
      services: [{ id: 'api', name: 'Catalogue API', homepage_url: 'https://api.example.org', logo_url: 'https://api.example.org/logo.png' }],
    });
  });

  it('generates one snapshot per 30 s however many clients ask at once', async () => {
    let reads = 0;
    const counting: StatusStore = { ...store, listSegments: (since) => (reads++, store.listSegments(since)) };
    const cachedApp = createStatusApp({ services, store: counting, now: clock.now });
    const bodies = await Promise.all(
      Array.from({ length: 20 }, () => cachedApp.fetch(new Request('http://localhost/api/status')).then((r) => r.json())),
    );
    expect(reads).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    clock.advance(29_999);
    await cachedApp.fetch(new Request('http://localhost/api/status'));
    expect(reads).toBe(1);
    clock.advance(1);
    const fresh = (await (await cachedApp.fetch(new Request('http://localhost/api/status'))).json()) as StatusSnapshot;
    expect(reads).toBe(2);
    expect(fresh.generated_at).toBe(new Date(clock.now()).toISOString());
  });

  it('shows a maintenance change at once, without waiting for the cache', async () => {
    await app.fetch(new Request('http://localhost/api/status'));
    await app.maintenance.add({ id: 'm1', serviceId: 'api', title: 'Soon', startsAt: NOON + MINUTE, endsAt: NOON + 2 * MINUTE });
    const body = (await (await app.fetch(new Request('http://localhost/api/status'))).json()) as StatusSnapshot;
    expect(body.scheduled_maintenances.map((m) => m.id)).toEqual(['m1']);
  });

  it('does not keep a snapshot that was being generated while a maintenance record changed', async () => {
    let release: () => void = () => undefined;
    let slow = true;
    const gated: StatusStore = {
      ...store,
      // The first read stalls until the test lets it go, so the change lands mid-generation.
      listMaintenances: async () => {
        const records = await store.listMaintenances();
        if (slow) await new Promise<void>((resolve) => (release = resolve));
        return records;
      },
    };
    const gatedApp = createStatusApp({ services, store: gated, now: clock.now });
    const inFlight = gatedApp.fetch(new Request('http://localhost/api/status'));
    await new Promise((resolve) => setImmediate(resolve));
    slow = false;
    await gatedApp.maintenance.add({ id: 'm2', serviceId: 'api', title: 'Now', startsAt: NOON + MINUTE, endsAt: NOON + 2 * MINUTE });
    release();
    await inFlight;
    const body = (await (await gatedApp.fetch(new Request('http://localhost/api/status'))).json()) as StatusSnapshot;
    expect(body.scheduled_maintenances.map((m) => m.id)).toEqual(['m2']);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with the 405 envelope and Allow', async (method) => {
    const res = await app.fetch(new Request('http://localhost/api/status', { method }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toEqual({
      status: 405,
      type: 'MethodNotAllowedException',
      message: `Method ${method} is not allowed`,
      error: 'Only GET, HEAD and OPTIONS are supported.',
      path: '/api/status',
    });
  });

  it('answers HEAD without a body and OPTIONS with 204', async () => {
    const head = await app.fetch(new Request('http://localhost/api/status', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await app.fetch(new Request('http://localhost/api/status', { method: 'OPTIONS' }));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers an unknown path with the 404 envelope and a failing store with the 503 envelope', async () => {
    const missing = await app.fetch(new Request('http://localhost/api/statuses'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, type: 'NotFoundException', path: '/api/statuses' });
    const broken = createStatusApp({
      services,
      store: { ...store, listSegments: () => Promise.reject(new Error('connection refused')) },
      logger: { error: () => {} },
    });
    const res = await broken.fetch(new Request('http://localhost/api/status'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = await res.json();
    expect(body).toMatchObject({ status: 503, type: 'ServiceUnavailableException', path: '/api/status' });
    expect(JSON.stringify(body)).not.toContain('connection refused');
  });

  it('mounts beside the catalogue with combineApps', async () => {
    const both = combineApps(app, createCatalogueApp({ gateway: false }));
    expect((await both.fetch(new Request('http://localhost/api/status'))).status).toBe(200);
    const other = await both.fetch(new Request('http://localhost/nowhere'));
    expect(other.status).toBe(404);
    expect(both.owns('/api/status')).toBe(true);
    expect(both.owns('/v1/anime')).toBe(true);
  });
});

describe('status API: a store that hangs', () => {
  /**
   * The shared memory store behind a switch: while `hanging`, every read waits until `resume()`;
   * `reads` counts the reads asked.
   */
  function hangable() {
    const resumes: Array<() => void> = [];
    const control = {
      hanging: false,
      reads: 0,
      resume() {
        control.hanging = false;
        for (const resume of resumes.splice(0)) resume();
      },
    };
    const held = <T>(read: () => Promise<T>) => {
      control.reads++;
      return control.hanging ? new Promise<void>((resolve) => resumes.push(resolve)).then(read) : read();
    };
    const wrapped: StatusStore = {
      ...store,
      listSegments: (since) => held(() => store.listSegments(since)),
      listMaintenances: () => held(() => store.listMaintenances()),
    };
    return { control, store: wrapped };
  }
  const get = (on: StatusApp) => on.fetch(new Request('http://localhost/api/status'));

  it('answers from the last snapshot at once while the store hangs, with one read in the background, then from the store again', async () => {
    const { control, store: slow } = hangable();
    // The store's own timeout is far away: only the app's short wait can answer these requests.
    const frozenApp = createStatusApp({ services, store: slow, now: clock.now, storeTimeoutMs: 3_600_000, refreshWaitMs: 20 });
    await checkEvery(1, 'up');
    expect((await get(frozenApp)).status).toBe(200);
    expect(control.reads).toBe(2);

    control.hanging = true;
    clock.advance(30_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(frozenApp)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=30');
      const body = statusSnapshotSchema.parse(await res.json());
      expect(body.services[0]!.status).toBe('operational');
      expect(body.generated_at).toBe(new Date(clock.now()).toISOString());
    }
    // One generation for all of them, still waiting on the store.
    expect(control.reads).toBe(4);

    // Later still, the last records read as what they are: too old to tell.
    clock.advance(120_000);
    const stale = statusSnapshotSchema.parse(await (await get(frozenApp)).json());
    expect(stale.checker.healthy).toBe(false);
    expect(stale.services[0]!.status).toBe('unknown');
    expect(control.reads).toBe(4);

    await checkEvery(1, 'up');
    control.resume();
    await new Promise((resolve) => setTimeout(resolve, 0));
    clock.advance(30_000);
    const fresh = statusSnapshotSchema.parse(await (await get(frozenApp)).json());
    expect(fresh.checker.healthy).toBe(true);
    expect(fresh.services[0]!.status).toBe('operational');
  });

  it('answers 503 with Retry-After: 1 after refreshWaitMs when the store hangs before any snapshot was made', async () => {
    const { control, store: slow } = hangable();
    control.hanging = true;
    const frozenApp = createStatusApp({ services, store: slow, now: clock.now, storeTimeoutMs: 3_600_000, refreshWaitMs: 20 });
    const res = await get(frozenApp);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException', path: '/api/status' });
    control.resume();
  });

  it('answers from the last snapshot when the store fails rather than hangs', async () => {
    let failing = false;
    const errors: string[] = [];
    const flaky: StatusStore = { ...store, listSegments: (since) => (failing ? Promise.reject(new Error('connection refused')) : store.listSegments(since)) };
    const flakyApp = createStatusApp({ services, store: flaky, now: clock.now, logger: { error: (message) => errors.push(message) } });
    await checkEvery(1, 'up');
    expect((await get(flakyApp)).status).toBe(200);
    failing = true;
    clock.advance(30_000);
    const res = await get(flakyApp);
    expect(res.status).toBe(200);
    expect(statusSnapshotSchema.parse(await res.json()).services[0]!.status).toBe('operational');
    expect(errors).toEqual(['Status snapshot could not be generated']);
  });
});

describe('status API: configuration and maintenance records', () => {
  it('rejects duplicate service ids, the reserved id "all" and unusable thresholds', () => {
    expect(() => createStatusApp({ services: [...services, ...services] })).toThrow(RangeError);
    expect(() => createStatusApp({ services: [{ ...services[0]!, id: 'all' }] })).toThrow(/reserved/);
    expect(() => createStatusApp({ services, failuresBeforeDown: 0 })).toThrow(/failuresBeforeDown/);
    expect(() => createStatusApp({ services, staleAfterSeconds: 1.5 })).toThrow(/staleAfterSeconds/);
    expect(() => createStatusApp({ services, refreshWaitMs: -1 })).toThrow(/refreshWaitMs/);
    expect(() => createStatusApp({ services, refreshWaitMs: Infinity })).toThrow(/refreshWaitMs/);
    // Checking less often than the stale threshold would leave every service unknown between checks.
    expect(() => createChecker({ services, store, intervalSeconds: 180 })).toThrow(/intervalSeconds/);
    expect(() => createChecker({ services, store, intervalSeconds: 0 })).toThrow(/intervalSeconds/);
  });

  it('validates, updates and removes maintenance records', async () => {
    await expect(app.maintenance.add({ serviceId: 'nope', title: 'x', startsAt: NOON, endsAt: NOON + MINUTE })).rejects.toThrow(RangeError);
    await expect(app.maintenance.add({ serviceId: 'api', title: 'x', startsAt: NOON, endsAt: NOON })).rejects.toThrow(/after/);
    await expect(app.maintenance.add({ serviceId: 'api', title: 'x', startsAt: 'soon', endsAt: NOON })).rejects.toThrow(/startsAt/);
    const fromJson = JSON.parse('{"serviceId":"api","title":7,"startsAt":0,"endsAt":1}');
    await expect(app.maintenance.add(fromJson)).rejects.toThrow(/title/);
    const added = await app.maintenance.add({ id: 'm', serviceId: 'api', title: 'x', startsAt: '2026-01-10T13:00:00Z', endsAt: NOON + 2 * 3_600_000 });
    expect(added).toMatchObject({ startsAt: NOON + 3_600_000, createdAt: NOON, updatedAt: NOON });
    clock.advance(MINUTE);
    // Re-adding the same record (from configuration at start-up) changes nothing.
    expect(await app.maintenance.add({ id: 'm', serviceId: 'api', title: 'x', startsAt: NOON + 3_600_000, endsAt: NOON + 2 * 3_600_000 })).toEqual(added);
    const updated = await app.maintenance.update('m', { title: 'y', status: 'Verifying' });
    expect(updated).toMatchObject({ title: 'y', status: 'Verifying', createdAt: NOON, updatedAt: NOON + MINUTE });
    await expect(app.maintenance.update('missing', { title: 'z' })).rejects.toThrow(RangeError);
    expect(await app.maintenance.remove('m')).toBe(true);
    expect(await app.maintenance.remove('m')).toBe(false);
    expect(await app.maintenance.list()).toEqual([]);
  });
});
