import { describe, expect, it } from 'vitest';
import { createSchedule, currentSeasons, DAY, DEFAULT_INTERVALS, FULL_SCALE, phase, scaled, scheduleDemand } from './schedule.js';

describe('schedule', () => {
  it('fits the full catalogue in about half of the public Jikan budget, with each tier as the module note sums it', () => {
    const d = scheduleDemand(FULL_SCALE);
    // 86,400 a day: 3/s and 60/min, the minute binding.
    expect(d.total / 86_400).toBeGreaterThan(0.4);
    expect(d.total / 86_400).toBeLessThan(0.6);
    expect(Math.round(d.stats)).toBe(1_120 + 2_800);
    expect(Math.round(d.new)).toBe(6 * 288 + 10 * 11 + 40 * 8);
    expect(Math.round(d.hot)).toBe(700 * 2 * 2 + (16 + 9 + 11 + 11 + 600) * 2);
    expect(Math.round(d.popular)).toBe(Math.round((1_000 * 11 + 1_000 * 8) / 3));
    expect(Math.round(d.full)).toBe(Math.round((27_000 * 11 - 700 * 2 + 69_000 * 8) / 30));
    expect(d.total).toBeCloseTo(d.new + d.hot + d.stats + d.popular + d.full);
  });

  it('reads every entry once a day from listing pages of 25 for the stats, not one by one', () => {
    const d = scheduleDemand({
      anime: { entries: 28_000, hot: 0 },
      manga: { entries: 70_000, hot: 0 },
    });
    expect(d.stats).toBe(98_000 / 25);
    // One request per entry a day would need more than the whole budget.
    expect(98_000 * 11).toBeGreaterThan(86_400);
  });

  it('scales demand with the intervals and divides intervals by the time scale', () => {
    const base = scheduleDemand(FULL_SCALE);
    const twice = scheduleDemand(FULL_SCALE, createSchedule({ intervals: { full: DEFAULT_INTERVALS.full / 2 } }));
    expect(twice.full).toBeCloseTo(base.full * 2);
    expect(twice.hot).toBe(base.hot);
    expect(scaled(DAY, 3600)).toBe(24_000);
    expect(scaled(10, 1e9)).toBe(1);
  });

  it('rejects intervals that are not positive numbers', () => {
    expect(() => createSchedule({ intervals: { hot: 0 } })).toThrow(/hot/);
    expect(() => createSchedule({ intervals: { full: Number.NaN } })).toThrow(/full/);
  });

  it('keeps hot parts among the refreshed parts', () => {
    const s = createSchedule({ parts: { anime: ['full', 'characters'] } });
    expect(s.hotParts.anime).toEqual(['full']);
  });

  it('places keys evenly and the same way every time', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => phase(`anime:${i}:full`));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(phase('anime:1:full')).toBe(phase('anime:1:full'));
    const firstHalf = values.filter((v) => v < 0.5).length;
    expect(firstHalf).toBeGreaterThan(4_700);
    expect(firstHalf).toBeLessThan(5_300);
  });

  it('names the current and next season as premiere does', () => {
    expect(currentSeasons(Date.UTC(2026, 10, 28))).toEqual(['2026-fall', '2027-winter']);
    expect(currentSeasons(Date.UTC(2026, 0, 1))).toEqual(['2026-winter', '2026-spring']);
  });
});
