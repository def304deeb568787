/**
 * The status snapshot's shape in zod, field by field from the spec's tables ("Status snapshot"),
 * strict so that an extra or missing field fails. Clients and tests validate against it.
 * @module
 */
import { z } from 'zod';
import type { StatusSnapshot } from './types.js';

// ISO 8601 date-time as `Date#toISOString` writes it (UTC, with milliseconds).
const isoDateTime = z.iso.datetime();
const dayKey = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const minutes = z.number().int().nonnegative();

/** A maintenance object (spec, "Maintenance object"). */
export const maintenanceSchema = z.strictObject({
  id: z.string(),
  service_id: z.string(),
  title: z.string(),
  starts_at: isoDateTime,
  ends_at: isoDateTime,
  status: z.string(),
  state: z.enum(['scheduled', 'active']),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

/** A service object (spec, "Service object"). */
export const serviceSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(['operational', 'degraded', 'down', 'unknown', 'maintenance']),
  homepage_url: z.string(),
  logo_url: z.string(),
  last_check_at: isoDateTime.nullable(),
  outage_minutes_90d: minutes,
  degraded_minutes_90d: minutes,
  daily_outage_minutes_90d: z.record(dayKey, minutes.min(5)),
  daily_degraded_minutes_90d: z.record(dayKey, minutes),
  // "a record in active_maintenance is always active"
  active_maintenance: maintenanceSchema.extend({ state: z.literal('active') }).nullable(),
});

/**
 * The snapshot `GET /api/status` returns (spec, "Status snapshot").
 * @example
 * ```ts
 * const snapshot = statusSnapshotSchema.parse(await (await fetch(`${statusUrl}/api/status`)).json());
 * ```
 */
export const statusSnapshotSchema: z.ZodType<StatusSnapshot> = z.strictObject({
  api_version: z.literal(1),
  page: z.strictObject({ name: z.string(), url: z.string() }),
  checker: z.strictObject({
    healthy: z.boolean(),
    last_check_at: isoDateTime.nullable(),
    stale_after_seconds: z.number().int().positive(),
  }),
  generated_at: isoDateTime,
  services: z.array(serviceSchema),
  scheduled_maintenances: z.array(maintenanceSchema),
});
