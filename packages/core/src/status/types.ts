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
  /** The service checked. */
  serviceId: string;
  /** The outcome every check of the run had. */
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
  /** The record's id. */
  id: string;
  /** A service id, or `all`. */
  serviceId: string;
  /** What the maintenance is, as shown to users. */
  title: string;
  /** Milliseconds since the epoch. */
  startsAt: number;
  /** Milliseconds since the epoch; the window is `[startsAt, endsAt)`. */
  endsAt: number;
  /** Status text; `null` to show one derived from the state (`Scheduled` or `In progress`). */
  status: string | null;
  /** When the record was created, in milliseconds since the epoch. */
  createdAt: number;
  /** When the record last changed, in milliseconds since the epoch. */
  updatedAt: number;
}

/** A maintenance record in the snapshot (spec, "Maintenance object"). */
export interface MaintenanceView {
  /** The record's id. */
  id: string;
  /** A service identifier, or `all`. */
  service_id: string;
  /** What the maintenance is. */
  title: string;
  /** Start, ISO 8601. */
  starts_at: string;
  /** End, ISO 8601 (exclusive). */
  ends_at: string;
  /** Status text: the record's own, else `Scheduled` or `In progress`. */
  status: string;
  /** `scheduled`, or `active` between `starts_at` and `ends_at`. */
  state: 'scheduled' | 'active';
  /** When the record was created, ISO 8601. */
  created_at: string;
  /** When the record last changed, ISO 8601. */
  updated_at: string;
}

/** A service in the snapshot (spec, "Service object"). */
export interface ServiceView {
  /** Service identifier. */
  id: string;
  /** Display name. */
  name: string;
  /** The service's status now. */
  status: ServiceStatus;
  /** The service's home page, or `''`. */
  homepage_url: string;
  /** The service's logo, or `''`. */
  logo_url: string;
  /** When the latest check started, ISO 8601; `null` before the first. */
  last_check_at: string | null;
  /** Total outage minutes in the 90-day view. */
  outage_minutes_90d: number;
  /** Total degraded minutes in the 90-day view. */
  degraded_minutes_90d: number;
  /** Outage minutes per UTC day; days under five minutes are left out (still in the total). */
  daily_outage_minutes_90d: Record<string, number>;
  /** Degraded minutes per UTC day; every day with at least one degraded minute is present. */
  daily_degraded_minutes_90d: Record<string, number>;
  /** The active maintenance record for this service, if any. */
  active_maintenance: MaintenanceView | null;
}

/** The status snapshot: the body of `GET /api/status` (spec, "Status snapshot"). */
export interface StatusSnapshot {
  /** Contract version: always 1 (changes are additive only). */
  api_version: 1;
  /** The status page's name and address. */
  page: { name: string; url: string };
  /** The checker's health: `healthy` when its latest completed check is within `stale_after_seconds`. */
  checker: { healthy: boolean; last_check_at: string | null; stale_after_seconds: number };
  /** When the snapshot was generated, ISO 8601. */
  generated_at: string;
  /** Every monitored service, in configured order. */
  services: ServiceView[];
  /** Scheduled and active records, by start time; ended ones are gone. */
  scheduled_maintenances: MaintenanceView[];
}
