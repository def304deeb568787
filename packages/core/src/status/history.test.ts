import { describe, expect, it } from 'vitest';
import { subtractWindows, toDailyTime, toDayKey, toServiceHistory, toWindowStart, type StateInterval } from './history.js';
import { toSnapshot } from './snapshot.js';
import type { CheckSegment } from './types.js';

const M = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1, 0, 0);
const rules = { now: T0 + 60 * M, staleAfterMs: 2 * M, failuresBeforeDown: 2 };

function seg(outcome: CheckSegment['outcome'], startMin: number, lastMin: number, checks = lastMin - startMin + 1): CheckSegment {
  return { serviceId: 's', outcome, startedAt: T0 + startMin * M, lastAt: T0 + lastMin * M, checks };
}

describe('toServiceHistory', () => {
  it.each<[string, CheckSegment[], Array<[StateInterval['state'], number, number]>, string]>([
    ['holds each result until the next one', [seg('up', 0, 9), seg('degraded', 10, 11)], [['operational', 0, 10], ['degraded', 10, 13]], 'unknown'],
    ['books an outage from the first failing check', [seg('up', 0, 4), seg('fail', 5, 6), seg('up', 7, 58)], [['operational', 0, 5], ['down', 5, 7], ['operational', 7, 60]], 'operational'],
    ['keeps the earlier state through a single failure', [seg('degraded', 0, 4), seg('fail', 5, 5), seg('degraded', 6, 59)], [['degraded', 0, 60]], 'degraded'],
    ['treats a lone failure with nothing before it as unknown', [seg('fail', 58, 58)], [], 'unknown'],
    ['stops a result at the stale threshold', [seg('fail', 0, 1), seg('fail', 30, 30)], [['down', 0, 3], ['down', 30, 32]], 'unknown'],
    ['counts failures across a stale gap as consecutive', [seg('fail', 0, 0), seg('fail', 30, 30)], [['down', 0, 2], ['down', 30, 32]], 'unknown'],
    ['shows a still-pending failure as the state before it', [seg('up', 0, 58), seg('fail', 59, 59)], [['operational', 0, 60]], 'operational'],
  ])('%s', (_, segments, expected, current) => {
    const history = toServiceHistory(segments, rules);
    expect(history.intervals).toEqual(expected.map(([state, a, b]) => ({ state, start: T0 + a * M, end: T0 + b * M })));
    expect(history.current).toBe(current);
  });
});

describe('subtractWindows', () => {
  it('cuts overlapping and adjoining windows out of intervals', () => {
    const out = subtractWindows(
      [{ state: 'down', start: 0, end: 100 }],
      [
        { start: 20, end: 30 },
        { start: 25, end: 40 },
        { start: 90, end: 200 },
      ],
    );
    expect(out).toEqual([
      { state: 'down', start: 0, end: 20 },
      { state: 'down', start: 40, end: 90 },
    ]);
  });
});

describe('the 90-day view', () => {
  const now = Date.UTC(2026, 5, 30, 8, 30);

  it('starts at midnight UTC of the day 89 days before today', () => {
    expect(new Date(toWindowStart(now)).toISOString()).toBe('2026-04-02T00:00:00.000Z');
  });

  it('counts the oldest of the 90 days whole and nothing before it (boundary day)', () => {
    const start = toWindowStart(now);
    // An outage from 23:00 the day before the view to 01:00 on its first day.
    const time = toDailyTime([{ state: 'down', start: start - 60 * M, end: start + 60 * M }], 'down', start, now);
    expect([...time]).toEqual([['2026-04-02', 60 * M]]);
  });

  it('keeps days in order in the snapshot, boundary day included, and drops the day before', () => {
    const start = toWindowStart(now);
    const segments: CheckSegment[] = [
      { serviceId: 'api', outcome: 'fail', startedAt: start - DAY, lastAt: start - DAY + 9 * M, checks: 10 },
      { serviceId: 'api', outcome: 'fail', startedAt: start, lastAt: start + 9 * M, checks: 10 },
      { serviceId: 'api', outcome: 'up', startedAt: start + 10 * M, lastAt: start + 10 * M, checks: 1 },
      { serviceId: 'api', outcome: 'fail', startedAt: now - 10 * M, lastAt: now, checks: 11 },
    ];
    const snapshot = toSnapshot({
      services: [{ id: 'api', name: 'API', check: { url: 'http://x' } }],
      // A store may hand back older segments; the view still ignores them.
      segments,
      maintenances: [],
      page: { name: 'p', url: 'u' },
      now,
      staleAfterSeconds: 120,
      failuresBeforeDown: 2,
    });
    const service = snapshot.services[0]!;
    expect(service.daily_outage_minutes_90d).toEqual({ '2026-04-02': 10, '2026-06-30': 10 });
    expect(Object.keys(service.daily_outage_minutes_90d)).toEqual(['2026-04-02', '2026-06-30']);
    expect(service.outage_minutes_90d).toBe(20);
    expect(service.status).toBe('down');
  });

  it('splits time at midnight UTC and keys days by UTC date', () => {
    const time = toDailyTime([{ state: 'degraded', start: T0 - 30_000, end: T0 + 89_000 }], 'degraded', 0, Infinity);
    expect([...time]).toEqual([
      ['2026-02-28', 30_000],
      ['2026-03-01', 89_000],
    ]);
    expect(toDayKey(T0 - 1)).toBe('2026-02-28');
  });

  it('rounds days to whole minutes, and judges "fewer than five outage minutes" on the exact time', () => {
    const day = (n: number) => T0 + n * DAY;
    const snapshot = toSnapshot({
      services: [{ id: 'api', name: 'API', check: { url: 'http://x' } }],
      segments: [
        // 4 min 30 s down on day 0, exactly 5 min on day 1, 3 degraded checks of which 20 s count on day 2.
        { serviceId: 'api', outcome: 'fail', startedAt: day(0), lastAt: day(0) + 4.5 * M - 2 * M, checks: 3 },
        { serviceId: 'api', outcome: 'fail', startedAt: day(1), lastAt: day(1) + 3 * M, checks: 4 },
        { serviceId: 'api', outcome: 'degraded', startedAt: day(2), lastAt: day(2), checks: 1 },
        { serviceId: 'api', outcome: 'up', startedAt: day(2) + 20_000, lastAt: day(2) + 40_000, checks: 2 },
        { serviceId: 'api', outcome: 'degraded', startedAt: day(3), lastAt: day(3) + 29_000, checks: 2 },
      ],
      maintenances: [],
      page: { name: 'p', url: 'u' },
      now: day(4),
      staleAfterSeconds: 120,
      failuresBeforeDown: 2,
    });
    const service = snapshot.services[0]!;
    expect(service.daily_outage_minutes_90d).toEqual({ '2026-03-02': 5 });
    expect(service.outage_minutes_90d).toBe(10); // 4.5 rounds to 5, plus 5
    // Day 2: 20 s rounds to nothing; day 3: 29 s + 120 s stale allowance = 2 min 29 s → 2.
    expect(service.daily_degraded_minutes_90d).toEqual({ '2026-03-04': 2 });
    expect(service.degraded_minutes_90d).toBe(2);
  });
});
