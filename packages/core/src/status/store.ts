/**
 * `StatusStore`: where check history, maintenance records and the checker lease live.
 * @module
 */
import type { CheckOutcome, CheckSegment, MaintenanceRecord } from './types.js';

/** One check result to record. */
export interface CheckRecord {
  /** The service checked. */
  serviceId: string;
  /** What the check found. */
  outcome: CheckOutcome;
  /** When the check started, in milliseconds since the epoch. */
  at: number;
}

/**
 * Storage for the status API. The memory store is the default; `@catalogue-api/store-postgres`
 * keeps history across restarts and shares it between instances. Stores return plain data;
 * every rule (flap control, staleness, maintenance, minutes per day) lives in core.
 * Check `@catalogue-api/testkit`'s `defineStatusStoreContract` against a new implementation.
 */
export interface StatusStore {
  /**
   * Records a check: extends the service's latest segment when it has the same outcome and its
   * `lastAt` is at most `joinWithinMs` before `check.at`; otherwise starts a new segment.
   * @param check - The result.
   * @param joinWithinMs - The largest gap a segment may span (the stale threshold).
   */
  recordCheck(check: CheckRecord, joinWithinMs: number): Promise<void>;
  /**
   * @param since - Milliseconds since the epoch.
   * @returns Every segment whose `lastAt` is at or after `since`, by service, then `startedAt`.
   */
  listSegments(since: number): Promise<CheckSegment[]>;
  /**
   * Deletes segments whose `lastAt`, and maintenance records whose `endsAt`, is before `before`.
   * @returns How many rows went.
   */
  prune(before: number): Promise<number>;

  /** @returns Every stored maintenance record, ended ones included (their time is still excluded). */
  listMaintenances(): Promise<MaintenanceRecord[]>;
  /** Inserts or replaces a maintenance record by id. */
  putMaintenance(record: MaintenanceRecord): Promise<void>;
  /** @returns Whether a record with that id existed. */
  deleteMaintenance(id: string): Promise<boolean>;

  /**
   * Takes or renews the checker lease, so that only one of several checker instances writes.
   * @param holder - This instance's id.
   * @param now - Milliseconds since the epoch.
   * @param ttlMs - How long the lease lasts unless renewed.
   * @returns Whether `holder` holds the lease now.
   */
  acquireLease(holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` holds it. */
  releaseLease(holder: string): Promise<void>;
}
