/**
 * Builds the status snapshot from configuration, history and maintenance records.
 * @module
 */
import { subtractWindows, toDailyTime, toServiceHistory, toWindowStart } from './history.js';
import type { CheckSegment, MaintenanceRecord, MaintenanceView, ServiceConfig, ServiceView, StatusSnapshot } from './types.js';

/** Days with fewer outage minutes than this are left out of `daily_outage_minutes_90d` (spec, "Limits"). */
export const MIN_DAILY_OUTAGE_MINUTES = 5;

const MINUTE_MS = 60_000;

/** Everything a snapshot is made of. */
export interface SnapshotInput {
  services: readonly ServiceConfig[];
  /** Segments of the 90-day view, any services, oldest first per service. */
  segments: readonly CheckSegment[];
  maintenances: readonly MaintenanceRecord[];
  page: { name: string; url: string };
  now: number;
  staleAfterSeconds: number;
  failuresBeforeDown: number;
}

/**
 * A maintenance record's state at a time.
 * @param record - The record.
 * @param now - Milliseconds since the epoch.
 * @returns `scheduled` before it starts, `active` in `[startsAt, endsAt)`, `ended` after.
 */
export function toMaintenanceState(record: MaintenanceRecord, now: number): 'scheduled' | 'active' | 'ended' {
  return now < record.startsAt ? 'scheduled' : now < record.endsAt ? 'active' : 'ended';
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toMaintenanceView(record: MaintenanceRecord, state: 'scheduled' | 'active'): MaintenanceView {
  return {
    id: record.id,
    service_id: record.serviceId,
    title: record.title,
    starts_at: iso(record.startsAt),
    ends_at: iso(record.endsAt),
    status: record.status ?? (state === 'active' ? 'In progress' : 'Scheduled'),
    state,
    created_at: iso(record.createdAt),
    updated_at: iso(record.updatedAt),
  };
}

function targets(record: MaintenanceRecord, serviceId: string): boolean {
  return record.serviceId === serviceId || record.serviceId === 'all';
}

/**
 * Builds the snapshot (spec, "Status snapshot"). The 90-day view is 90 calendar UTC days, today
 * included. Each day's time is rounded to whole minutes; the totals are the sums of those. A day
 * appears in the outage map only with at least five minutes of outage, in the degraded map with at
 * least one (rounded) minute.
 * @param input - Configuration, history, maintenance records and the clock.
 * @returns The snapshot.
 */
export function toSnapshot(input: SnapshotInput): StatusSnapshot {
  const { now, staleAfterSeconds, failuresBeforeDown } = input;
  const staleAfterMs = staleAfterSeconds * 1000;
  const from = toWindowStart(now);

  const byService = new Map<string, CheckSegment[]>();
  for (const segment of input.segments) {
    let list = byService.get(segment.serviceId);
    if (!list) byService.set(segment.serviceId, (list = []));
    list.push(segment);
  }

  const live = input.maintenances
    .map((record) => ({ record, state: toMaintenanceState(record, now) }))
    .filter((m): m is { record: MaintenanceRecord; state: 'scheduled' | 'active' } => m.state !== 'ended')
    .sort((a, b) => a.record.startsAt - b.record.startsAt || (a.record.id < b.record.id ? -1 : 1));

  let lastCheckAt: number | null = null;
  const services = input.services.map((service): ServiceView => {
    const segments = (byService.get(service.id) ?? []).slice().sort((a, b) => a.startedAt - b.startedAt);
    const history = toServiceHistory(segments, { now, staleAfterMs, failuresBeforeDown });
    if (history.lastCheckAt !== null && (lastCheckAt === null || history.lastCheckAt > lastCheckAt)) lastCheckAt = history.lastCheckAt;

    const windows = input.maintenances
      .filter((record) => targets(record, service.id))
      .map((record) => ({ start: record.startsAt, end: record.endsAt }));
    const intervals = subtractWindows(history.intervals, windows);
    const outage = toDailyTime(intervals, 'down', from, now);
    const degraded = toDailyTime(intervals, 'degraded', from, now);
    const active = live.find((m) => m.state === 'active' && targets(m.record, service.id));

    let outageTotal = 0;
    const dailyOutage: Record<string, number> = {};
    for (const [day, ms] of outage) {
      const minutes = Math.round(ms / MINUTE_MS);
      outageTotal += minutes;
      // "Fewer than five" is judged on the exact time, so 4 min 30 s is left out though it rounds to 5.
      if (ms >= MIN_DAILY_OUTAGE_MINUTES * MINUTE_MS) dailyOutage[day] = minutes;
    }
    let degradedTotal = 0;
    const dailyDegraded: Record<string, number> = {};
    for (const [day, ms] of degraded) {
      const minutes = Math.round(ms / MINUTE_MS);
      degradedTotal += minutes;
      if (minutes > 0) dailyDegraded[day] = minutes;
    }

    return {
      id: service.id,
      name: service.name,
      status: active ? 'maintenance' : history.current,
      homepage_url: service.homepageUrl ?? '',
      logo_url: service.logoUrl ?? '',
      last_check_at: history.lastCheckAt === null ? null : iso(history.lastCheckAt),
      outage_minutes_90d: outageTotal,
      degraded_minutes_90d: degradedTotal,
      daily_outage_minutes_90d: dailyOutage,
      daily_degraded_minutes_90d: dailyDegraded,
      active_maintenance: active ? toMaintenanceView(active.record, 'active') : null,
    };
  });

  const last: number | null = lastCheckAt;
  return {
    api_version: 1,
    page: { name: input.page.name, url: input.page.url },
    checker: {
      // Computed now, at generation (spec, "Status snapshot"): the latest completed check is within the threshold.
      healthy: last !== null && now - last <= staleAfterMs,
      last_check_at: last === null ? null : iso(last),
      stale_after_seconds: staleAfterSeconds,
    },
    generated_at: iso(now),
    services,
    scheduled_maintenances: live.map((m) => toMaintenanceView(m.record, m.state)),
  };
}
