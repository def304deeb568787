import { describe, expect, it } from 'vitest';
import type { CounterWindow } from './back-end.js';
import { createMemoryCounterStore, toCounterWindows, toWindowSpecs, type WindowSpec } from './rate-limit.js';

const publicSpecs = toWindowSpecs('public');

describe('createMemoryCounterStore', () => {
  it('holds no more than maxEntries windows under a flood of distinct clients, and still counts the latest', () => {
    const store = createMemoryCounterStore({ maxEntries: 1_000 });
    const now = Date.UTC(2026, 5, 1, 8, 0, 0);
    for (let i = 0; i < 20_000; i++) store.hit(toCounterWindows('public', `2001:db8:${i.toString(16)}::/64`, publicSpecs, now), now);
    expect(store.entries).toBeLessThanOrEqual(1_000);
    const windows = toCounterWindows('public', '192.0.2.1', publicSpecs, now);
    for (let i = 0; i < 4; i++) expect(store.hit(windows, now).allowed).toBe(true);
    expect(store.hit(windows, now)).toEqual({ allowed: false, counts: [4, 4, 4] });
  });

  it('keeps no day window in the last hours of the UTC day, when the minute limit keeps it from ever filling', () => {
    const morning = Date.UTC(2026, 5, 1, 8, 0, 0);
    const early = createMemoryCounterStore();
    early.hit(toCounterWindows('public', '192.0.2.2', publicSpecs, morning), morning);
    expect(early.entries).toBe(3);
    // 23:00 UTC: at 120 a minute, at most ~7,300 more requests fit before midnight, far from 40,000.
    const night = Date.UTC(2026, 5, 1, 23, 0, 0);
    const late = createMemoryCounterStore();
    late.hit(toCounterWindows('public', '192.0.2.3', publicSpecs, night), night);
    expect(late.entries).toBe(2);
  });

  it('answers exactly as a store that keeps every window, while holding fewer', () => {
    // Short spans so that whole "days" pass: 2 a second, 5 per 10 s, 25 per minute.
    const specs: WindowSpec[] = [
      { name: 'second', spanMs: 1_000, limit: 2, tag: 's' },
      { name: 'minute', spanMs: 10_000, limit: 5, tag: 'm' },
      { name: 'day', spanMs: 60_000, limit: 25, tag: 'd' },
    ];
    const pruning = createMemoryCounterStore();
    const keeping = createMemoryCounterStore();
    const withoutSpans = (windows: CounterWindow[]) => windows.map(({ key, limit, resetAt }) => ({ key, limit, resetAt }));
    let fewer = 0;
    let refused = 0;
    // A seeded mix of bursts and pauses (Lehmer generator), so that every window sometimes refuses.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const t0 = Date.UTC(2026, 5, 1);
    for (let now = t0; now < t0 + 600_000; now += next() % 3 === 0 ? 1 + (next() % 50) : 1 + (next() % 6_000)) {
      const windows = toCounterWindows('public', '192.0.2.4', specs, now);
      const got = pruning.hit(windows, now);
      const expected = keeping.hit(withoutSpans(windows), now);
      expect(got.allowed).toBe(expected.allowed);
      if (!got.allowed) refused++;
      if (pruning.entries < keeping.entries) fewer++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(fewer).toBeGreaterThan(0);
  });
});
