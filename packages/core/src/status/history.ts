/**
 * From check history to state intervals and minutes per UTC day: pure functions, no clock of
 * their own (results become intervals; minutes are interval ∩ UTC-day overlap; docs/status-api.md).
 * @module
 */
import type { CheckSegment } from './types.js';

/** A span of time in one state, `[start, end)` in milliseconds since the epoch. */
export interface StateInterval {
  state: 'operational' | 'degraded' | 'down';
  start: number;
  end: number;
}

/** The rules that turn checks into states. */
export interface HistoryRules {
  /** The snapshot's clock. */
  now: number;
  /** A result holds until the next one, but never longer than this; the rest is unknown. */
  staleAfterMs: number;
  /** Consecutive failed checks before a service counts as down. */
  failuresBeforeDown: number;
}

/** One service's history as intervals, and its state now (ignoring maintenance). */
export interface ServiceHistory {
  intervals: StateInterval[];
  /** `unknown` before the first result and when the latest result is older than the threshold. */
  current: StateInterval['state'] | 'unknown';
  /** The start of the latest check, if any. */
  lastCheckAt: number | null;
}

const DAY_MS = 86_400_000;

/**
 * Turns one service's segments into state intervals.
 *
 * - A result's state holds until the next result, never longer than `staleAfterMs`: past that the
 *   time is unknown and counts as nothing, never as outage.
 * - Failures are `down` only once `failuresBeforeDown` consecutive checks failed, and then from
 *   the first failing check on (flap control, booked retroactively). Consecutive means no other
 *   outcome in between; a stale gap does not reset the count. A shorter failure run keeps the
 *   state before it (unknown if there was none), so a single blip is neither outage nor a flip.
 *
 * @param segments - One service's segments, oldest first.
 * @param rules - Clock, stale threshold and failure count.
 * @returns The intervals, oldest first, with adjacent equal states merged; and the state now.
 */
export function toServiceHistory(segments: readonly CheckSegment[], rules: HistoryRules): ServiceHistory {
  const { now, staleAfterMs, failuresBeforeDown } = rules;
  // Total checks of each run of equal outcomes, so a run that reached N is down from its start.
  const runChecks = new Array<number>(segments.length);
  for (let i = 0; i < segments.length; ) {
    let j = i;
    let total = 0;
    while (j < segments.length && segments[j]!.outcome === segments[i]!.outcome) total += segments[j++]!.checks;
    for (let k = i; k < j; k++) runChecks[k] = total;
    i = j;
  }

  const intervals: StateInterval[] = [];
  let previous: StateInterval['state'] | 'unknown' = 'unknown';
  let previousLastAt = -Infinity;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.startedAt > now) break;
    const contiguous = segment.startedAt - previousLastAt <= staleAfterMs;
    let state: StateInterval['state'] | 'unknown';
    if (segment.outcome === 'up') state = 'operational';
    else if (segment.outcome === 'degraded') state = 'degraded';
    else if (runChecks[i]! >= failuresBeforeDown) state = 'down';
    else state = contiguous ? previous : 'unknown';
    const next = segments[i + 1];
    const end = Math.min(next ? next.startedAt : Infinity, segment.lastAt + staleAfterMs, now);
    if (state !== 'unknown' && end > segment.startedAt) {
      const last = intervals[intervals.length - 1];
      if (last && last.state === state && last.end === segment.startedAt) last.end = end;
      else intervals.push({ state, start: segment.startedAt, end });
    }
    previous = state;
    previousLastAt = segment.lastAt;
  }

  const latest = segments.length ? segments[segments.length - 1]! : undefined;
  const fresh = latest !== undefined && latest.lastAt <= now && now - latest.lastAt <= staleAfterMs;
  return { intervals, current: fresh ? previous : 'unknown', lastCheckAt: latest ? latest.lastAt : null };
}

/**
 * Cuts windows (maintenance) out of intervals: time in them counts as neither outage nor degraded.
 * @param intervals - Intervals, in any order.
 * @param windows - `[start, end)` windows, in any order, possibly overlapping.
 * @returns The parts of the intervals outside every window.
 */
export function subtractWindows(
  intervals: readonly StateInterval[],
  windows: readonly { start: number; end: number }[],
): StateInterval[] {
  const sorted = [...windows].filter((w) => w.end > w.start).sort((a, b) => a.start - b.start);
  const out: StateInterval[] = [];
  for (const interval of intervals) {
    let cursor = interval.start;
    for (const w of sorted) {
      if (w.end <= cursor) continue;
      if (w.start >= interval.end) break;
      if (w.start > cursor) out.push({ state: interval.state, start: cursor, end: w.start });
      cursor = Math.max(cursor, w.end);
      if (cursor >= interval.end) break;
    }
    if (cursor < interval.end) out.push({ state: interval.state, start: cursor, end: interval.end });
  }
  return out;
}

/**
 * The UTC date of an instant.
 * @param ms - Milliseconds since the epoch.
 * @returns `YYYY-MM-DD`.
 */
export function toDayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Where the 90-day view starts: 00:00 UTC of the day 89 days before today. The view is 90 calendar
 * UTC days, today included (as Statuspage's 90 bars), so every key of a daily map is one of those
 * 90 dates and the oldest day is whole.
 * @param now - Milliseconds since the epoch.
 * @returns Milliseconds since the epoch.
 */
export function toWindowStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - 89 * DAY_MS;
}

/**
 * Time in one state per UTC day, counted by the overlap of each interval with each day.
 * @param intervals - Intervals of any states.
 * @param state - The state to count.
 * @param from - Start of the view (earlier time is not counted).
 * @param to - End of the view.
 * @returns Milliseconds per `YYYY-MM-DD`, oldest day first, only for days with time in the state.
 */
export function toDailyTime(
  intervals: readonly StateInterval[],
  state: StateInterval['state'],
  from: number,
  to: number,
): Map<string, number> {
  // Keyed by day number while summing: formatting a date per interval dominated flapping histories.
  const ms = new Map<number, number>();
  for (const interval of intervals) {
    if (interval.state !== state) continue;
    let start = Math.max(interval.start, from);
    const end = Math.min(interval.end, to);
    while (start < end) {
      const day = Math.floor(start / DAY_MS);
      const dayEnd = Math.min((day + 1) * DAY_MS, end);
      ms.set(day, (ms.get(day) ?? 0) + dayEnd - start);
      start = dayEnd;
    }
  }
  const days = new Map<string, number>();
  for (const [day, value] of [...ms].sort(([a], [b]) => a - b)) days.set(toDayKey(day * DAY_MS), value);
  return days;
}
