/**
 * The `StatusStore` contract: one vitest suite that every status store must pass (the memory
 * store in core, PostgreSQL in `@catalogue-api/store-postgres`, and any third-party store).
 * @module
 */
import { describe, expect, it } from 'vitest';
import { createStatusApp, type CheckOutcome, type MaintenanceRecord, type ServiceConfig, type StatusStore } from '@catalogue-api/core';
import { statusSnapshotSchema } from '@catalogue-api/core/schemas';
import { eachFresh } from './internal/fresh.js';

/** How the contract gets stores. */
export interface StatusStoreHarness {
  /** Returns a new, empty store (for PostgreSQL: a fresh schema). */
  create(): Promise<StatusStore>;
  /** Releases a store made by `create` (close connections, drop the schema). */
  destroy?(store: StatusStore): Promise<void>;
}

const M = 60_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0);
const STALE = 2 * M;

const services: ServiceConfig[] = [
  { id: 'api', name: 'Catalogue API', homepageUrl: 'https://api.example.org', logoUrl: 'https://api.example.org/logo.png', check: { url: 'http://127.0.0.1:1/' } },
  { id: 'upstream', name: 'Upstream', check: { url: 'http://127.0.0.1:1/' } },
];

function maintenance(overrides: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  return {
    id: 'm1',
    serviceId: 'api',
    title: 'Database upgrade',
    startsAt: T0 + 10 * M,
    endsAt: T0 + 20 * M,
    status: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/**
 * Defines the `StatusStore` contract suite for one store implementation.
 * @param name - Shown in the suite's name, e.g. `memory` or `postgres`.
 * @param harness - Makes and releases stores; every test gets a fresh one.
 * @example
 * ```ts
 * import { createMemoryStatusStore } from '@catalogue-api/core';
 * import { defineStatusStoreContract } from '@catalogue-api/testkit';
 *
 * defineStatusStoreContract('memory', { create: async () => createMemoryStatusStore() });
 * ```
 */
export function defineStatusStoreContract(name: string, harness: StatusStoreHarness): void {
  describe(`StatusStore contract: ${name}`, () => {
    let store: StatusStore;
    eachFresh(harness, (made) => (store = made));

    async function record(serviceId: string, outcome: CheckOutcome, minute: number): Promise<void> {
      await store.recordCheck({ serviceId, outcome, at: T0 + minute * M }, STALE);
    }

    it('joins checks with the same outcome into one segment and starts another on a change', async () => {
      await record('api', 'up', 0);
      await record('api', 'up', 1);
      await record('api', 'up', 2);
      await record('api', 'fail', 3);
      await record('api', 'up', 4);
      expect(await store.listSegments(0)).toEqual([
        { serviceId: 'api', outcome: 'up', startedAt: T0, lastAt: T0 + 2 * M, checks: 3 },
        { serviceId: 'api', outcome: 'fail', startedAt: T0 + 3 * M, lastAt: T0 + 3 * M, checks: 1 },
        { serviceId: 'api', outcome: 'up', startedAt: T0 + 4 * M, lastAt: T0 + 4 * M, checks: 1 },
      ]);
    });

    it('starts a new segment after a gap longer than joinWithinMs, and joins at exactly joinWithinMs', async () => {
      await record('api', 'up', 0);
      await record('api', 'up', 2); // exactly the threshold: joined
      await record('api', 'up', 5); // 3 minutes later: a new segment
      expect((await store.listSegments(0)).map((s) => [s.startedAt, s.lastAt, s.checks])).toEqual([
        [T0, T0 + 2 * M, 2],
        [T0 + 5 * M, T0 + 5 * M, 1],
      ]);
    });

    it('keeps services apart and lists by service, then start time, from `since` on', async () => {
      await record('upstream', 'degraded', 0);
      await record('api', 'up', 0);
      await record('api', 'fail', 1);
      await record('upstream', 'up', 1);
      const all = await store.listSegments(0);
      expect(all.map((s) => [s.serviceId, s.outcome])).toEqual([
        ['api', 'up'],
        ['api', 'fail'],
        ['upstream', 'degraded'],
        ['upstream', 'up'],
      ]);
      // `since` compares with lastAt: a segment still running at `since` is included.
      expect((await store.listSegments(T0 + M)).map((s) => [s.serviceId, s.outcome])).toEqual([
        ['api', 'fail'],
        ['upstream', 'up'],
      ]);
      expect(await store.listSegments(T0 + 2 * M)).toEqual([]);
    });

    it('stores, replaces, lists and deletes maintenance records', async () => {
      expect(await store.listMaintenances()).toEqual([]);
      await store.putMaintenance(maintenance());
      await store.putMaintenance(maintenance({ id: 'm2', serviceId: 'all', status: 'Scheduled by ops' }));
      await store.putMaintenance(maintenance({ title: 'Bigger upgrade', updatedAt: T0 + M }));
      const listed = (await store.listMaintenances()).sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(listed).toEqual([
        maintenance({ title: 'Bigger upgrade', updatedAt: T0 + M }),
        maintenance({ id: 'm2', serviceId: 'all', status: 'Scheduled by ops' }),
      ]);
      expect(await store.deleteMaintenance('m1')).toBe(true);
      expect(await store.deleteMaintenance('m1')).toBe(false);
      expect((await store.listMaintenances()).map((m) => m.id)).toEqual(['m2']);
    });

    it('prunes segments and maintenance records that ended before the cut-off', async () => {
      await record('api', 'up', 0);
      await record('api', 'fail', 10);
      await record('api', 'up', 20);
      await store.putMaintenance(maintenance({ id: 'old', endsAt: T0 + 5 * M }));
      await store.putMaintenance(maintenance({ id: 'current', endsAt: T0 + 30 * M }));
      expect(await store.prune(T0 + 10 * M)).toBe(2);
      expect((await store.listSegments(0)).map((s) => s.outcome)).toEqual(['fail', 'up']);
      expect((await store.listMaintenances()).map((m) => m.id)).toEqual(['current']);
    });

    it('gives the lease to one holder at a time until it lapses or is released', async () => {
      expect(await store.acquireLease('a', T0, 3 * M)).toBe(true);
      expect(await store.acquireLease('b', T0 + M, 3 * M)).toBe(false);
      expect(await store.acquireLease('a', T0 + 2 * M, 3 * M)).toBe(true); // renewed to T0 + 5 min
      expect(await store.acquireLease('b', T0 + 4 * M, 3 * M)).toBe(false);
      expect(await store.acquireLease('b', T0 + 5 * M, 3 * M)).toBe(true); // lapsed
      expect(await store.acquireLease('a', T0 + 6 * M, 3 * M)).toBe(false);
      await store.releaseLease('a'); // not the holder: no effect
      expect(await store.acquireLease('a', T0 + 6 * M, 3 * M)).toBe(false);
      await store.releaseLease('b');
      expect(await store.acquireLease('a', T0 + 6 * M, 3 * M)).toBe(true);
    });

    it('lets exactly one of several concurrent contenders take the lease', async () => {
      const won = await Promise.all(['a', 'b', 'c', 'd'].map((holder) => store.acquireLease(holder, T0, M)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('yields a snapshot that validates against the spec schema, with the right minutes', async () => {
      // api: 7 minutes down from 12:05, maintenance 12:20–12:30 while failing again; upstream: 3 degraded minutes.
      for (let minute = 0; minute < 40; minute++) {
        const failing = (minute >= 5 && minute < 12) || (minute >= 20 && minute < 30);
        await record('api', failing ? 'fail' : 'up', minute);
        await record('upstream', minute >= 30 && minute < 33 ? 'degraded' : 'up', minute);
      }
      await store.putMaintenance(maintenance({ startsAt: T0 + 20 * M, endsAt: T0 + 30 * M }));
      await store.putMaintenance(maintenance({ id: 'later', serviceId: 'all', startsAt: T0 + 120 * M, endsAt: T0 + 180 * M }));
      const app = createStatusApp({ services, store, now: () => T0 + 40 * M, page: { name: 'Status', url: 'https://status.example.org' } });
      const res = await app.fetch(new Request('http://localhost/api/status'));
      expect(res.status).toBe(200);
      const snapshot = statusSnapshotSchema.parse(await res.json());
      expect(snapshot.checker).toEqual({ healthy: true, last_check_at: '2026-01-10T12:39:00.000Z', stale_after_seconds: 120 });
      expect(snapshot.services.map((s) => [s.id, s.status, s.outage_minutes_90d, s.degraded_minutes_90d])).toEqual([
        ['api', 'operational', 7, 0],
        ['upstream', 'operational', 0, 3],
      ]);
      expect(snapshot.services[0]!.daily_outage_minutes_90d).toEqual({ '2026-01-10': 7 });
      expect(snapshot.services[1]!.daily_degraded_minutes_90d).toEqual({ '2026-01-10': 3 });
      expect(snapshot.scheduled_maintenances).toMatchObject([{ id: 'later', service_id: 'all', state: 'scheduled' }]);
    });
  });
}
