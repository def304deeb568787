/**
 * The status API's data: monitored services and their checks, check history, maintenance records
 * and the public snapshot (spec, "Status snapshot").
 * @module
 */

/** A monitored service's status (spec, "States and transitions"). */
export type ServiceStatus = 'operational' | 'degraded' | 'down' | 'unknown' | 'maintenance';

/** What one check found: a good answer, a slow or degraded one, or a failure. */
export type CheckOutcome = 'up' | 'degraded' | 'fail';

/** How a service is checked: one HTTP request, judged by status code and latency. */
export interface ServiceCheck {
  /** The URL to request (GET). */
  url: string;
  /**
   * Status codes that count as up. Redirects are followed first.
   * @default any 2xx
   */
  expectStatus?: number | readonly number[];
  /** Status codes that count as degraded rather than failed (e.g. `[429]`). @default [] */
  degradedStatuses?: readonly number[];
  /** Milliseconds before the check is aborted and counts as failed. @default 10_000 */
  timeoutMs?: number;
  /** An expected answer slower than this many milliseconds counts as degraded. @default 2_000 */
  degradedAfterMs?: number;
  /** Extra request headers, e.g. a user agent. */
  headers?: Readonly<Record<string, string>>;
}

/** A monitored service as configured. */
export interface ServiceConfig {
  /** Service identifier (the snapshot's `id`; maintenance records target it). Must not be `all`. */
  id: string;
  /** Display name. */
  name: string;
  /** The service's home page. @default '' */
  homepageUrl?: string;
  /** The service's logo. @default '' */
  logoUrl?: string;
  /** How to check it. */
  check: ServiceCheck;
}

/**
 * A run of consecutive checks of one service with the same outcome, with no gap longer than the
 * stale threshold between them. Stores keep history as these runs rather than one row per check.
 */
export interface CheckSegment {
  serviceId: string;
  outcome: CheckOutcome;
  /** When the first check of the run started, in milliseconds since the epoch. */
  startedAt: number;
  /** When the latest check of the run started, in milliseconds since the epoch. */
  lastAt: number;
  /** How many checks the run holds. */
  checks: number;
}

/** A maintenance record as stored. Its `state` is not stored: it follows from the clock. */
export interface MaintenanceRecord {
  id: string;
  /** A service id, or `all`. */
  serviceId: string;
  title: string;
  /** Milliseconds since the epoch. */
  startsAt: number;
  /** Milliseconds since the epoch; the window is `[startsAt, endsAt)`. */
  endsAt: number;
  /** Status text; `null` to show one derived from the state (`Scheduled` or `In progress`). */
  status: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A maintenance record in the snapshot (spec, "Maintenance object"). */
export interface MaintenanceView {
  id: string;
  service_id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  status: string;
  state: 'scheduled' | 'active';
  created_at: string;
  updated_at: string;
}

/** A service in the snapshot (spec, "Service object"). */
export interface ServiceView {
  id: string;
  name: string;
  status: ServiceStatus;
  homepage_url: string;
  logo_url: string;
  last_check_at: string | null;
  outage_minutes_90d: number;
  degraded_minutes_90d: number;
  /** Outage minutes per UTC day; days under five minutes are left out (still in the total). */
  daily_outage_minutes_90d: Record<string, number>;
  /** Degraded minutes per UTC day; every day with at least one degraded minute is present. */
  daily_degraded_minutes_90d: Record<string, number>;
  active_maintenance: MaintenanceView | null;
}

/** The status snapshot: the body of `GET /api/status` (spec, "Status snapshot"). */
export interface StatusSnapshot {
  api_version: 1;
  page: { name: string; url: string };
  checker: { healthy: boolean; last_check_at: string | null; stale_after_seconds: number };
  generated_at: string;
  services: ServiceView[];
  /** Scheduled and active records, by start time; ended ones are gone. */
  scheduled_maintenances: MaintenanceView[];
}
