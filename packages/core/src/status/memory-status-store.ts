/**
 * The in-memory `StatusStore`: the default, for one process; history is lost on restart.
 * @module
 */
import { createMemoryLease } from '../internal/memory-lease.js';
import type { CheckRecord, StatusStore } from './store.js';
import type { CheckSegment, MaintenanceRecord } from './types.js';

/**
 * Creates an in-memory status store.
 * @returns The store.
 * @example
 * ```ts
 * const app = createStatusApp({ services, store: createMemoryStatusStore() });
 * ```
 */
export function createMemoryStatusStore(): StatusStore {
  // Segments per service, oldest first: recording only ever touches the last one.
  const segments = new Map<string, CheckSegment[]>();
  const maintenances = new Map<string, MaintenanceRecord>();
  const lease = createMemoryLease();

  return {
    async recordCheck(check: CheckRecord, joinWithinMs: number) {
      let list = segments.get(check.serviceId);
      if (!list) segments.set(check.serviceId, (list = []));
      const last = list[list.length - 1];
      if (last && last.outcome === check.outcome && check.at >= last.lastAt && check.at - last.lastAt <= joinWithinMs) {
        last.lastAt = check.at;
        last.checks += 1;
      } else {
        list.push({ serviceId: check.serviceId, outcome: check.outcome, startedAt: check.at, lastAt: check.at, checks: 1 });
      }
    },
    async listSegments(since) {
      const out: CheckSegment[] = [];
      for (const id of [...segments.keys()].sort()) {
        for (const segment of segments.get(id)!) if (segment.lastAt >= since) out.push({ ...segment });
      }
      return out;
    },
    async prune(before) {
      let removed = 0;
      for (const [id, list] of segments) {
        const kept = list.filter((segment) => segment.lastAt >= before);
        removed += list.length - kept.length;
        if (kept.length) segments.set(id, kept);
        else segments.delete(id);
      }
      for (const [id, record] of maintenances) {
        if (record.endsAt < before) {
          maintenances.delete(id);
          removed += 1;
        }
      }
      return removed;
    },
    async listMaintenances() {
      return [...maintenances.values()].map((record) => ({ ...record }));
    },
    async putMaintenance(record) {
      maintenances.set(record.id, { ...record });
    },
    async deleteMaintenance(id) {
      return maintenances.delete(id);
    },
    acquireLease: lease.acquireLease,
    releaseLease: lease.releaseLease,
  };
}
