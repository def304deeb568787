import { describe, expect, it } from 'vitest';
import { wallClockAt } from './clock.js';

describe('wallClockAt', () => {
  it('reads the wall clock once a second at most and counts whole milliseconds from there', () => {
    const mono = { now: 50 };
    const wall = { now: 1_000_000, reads: 0 };
    const at = wallClockAt(() => mono.now, () => (wall.reads++, wall.now));
    expect(at(50)).toBe(1_000_000);
    expect(at(50.99)).toBe(1_000_000);
    expect(at(51)).toBe(1_000_001);
    expect(at(1_049.99)).toBe(1_000_999);
    expect(wall.reads).toBe(1);
    // A second on, the wall clock is read again: a step of it (NTP) shows.
    mono.now = 1_050.5;
    wall.now = 2_000_123;
    expect(at(1_050)).toBe(2_000_122);
    expect(at(1_051.5)).toBe(2_000_124);
    expect(wall.reads).toBe(2);
  });

  it('counts back for a reading older than the pair it read', () => {
    let reads = 0;
    const at = wallClockAt(() => 100, () => (reads++, 5_000));
    expect(at(100)).toBe(5_000);
    expect(at(99.5)).toBe(4_999);
    expect(at(90)).toBe(4_990);
    expect(reads).toBe(1);
  });

  it('follows Date.now by default, within its millisecond', () => {
    const at = wallClockAt(() => performance.now());
    const before = Date.now();
    const time = at(performance.now());
    expect(time).toBeGreaterThanOrEqual(before - 1);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});
