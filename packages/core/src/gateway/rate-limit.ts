/**
 * Fixed, clock-aligned rate-limit windows (1 s, 60 s, and the UTC day), the messages of a breach,
 * and the in-memory counter store.
 * @module
 */
import type { CounterResult, CounterStore, CounterWindow } from './back-end.js';

/** The two tiers of the spec's Limits table. */
export type Tier = 'public' | 'server';

/** Requests allowed per window; `null` or absent means no limit for that window. */
export interface TierLimits {
  /** Requests per clock-aligned second; `null` for no limit. */
  perSecond?: number | null;
  /** Requests per clock-aligned minute; `null` for no limit. */
  perMinute?: number | null;
  /** Requests per UTC day; `null` for no limit. */
  perDay?: number | null;
}

/** Limits per tier; each defaults to the spec's table. */
export interface RateLimitOptions {
  /** @default { perSecond: 4, perMinute: 120, perDay: 40_000 } */
  public?: TierLimits;
  /** @default { perSecond: 5, perMinute: 300, perDay: null } */
  server?: TierLimits;
}

/** The spec's Limits table. */
export const DEFAULT_LIMITS: Record<Tier, Required<TierLimits>> = {
  public: { perSecond: 4, perMinute: 120, perDay: 40_000 },
  server: { perSecond: 5, perMinute: 300, perDay: null },
};

/** One window of a tier. */
export interface WindowSpec {
  name: 'second' | 'minute' | 'day';
  /** Window length; windows start at multiples of it since the epoch, so days start at midnight UTC. */
  spanMs: number;
  limit: number;
  /** Short tag used in store keys. */
  tag: string;
}

const SPANS = [
  ['second', 1_000, 'perSecond', 's'],
  ['minute', 60_000, 'perMinute', 'm'],
  ['day', 86_400_000, 'perDay', 'd'],
] as const;

/**
 * Resolves a tier's windows, shortest first.
 * @param tier - The tier.
 * @param limits - Overrides of the defaults.
 * @returns The windows that have a limit.
 * @throws TypeError when a limit is not a positive integer.
 */
export function toWindowSpecs(tier: Tier, limits: TierLimits = {}): WindowSpec[] {
  const merged = { ...DEFAULT_LIMITS[tier], ...limits };
  const specs: WindowSpec[] = [];
  for (const [name, spanMs, field, tag] of SPANS) {
    const limit = merged[field];
    if (limit === null || limit === undefined) continue;
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`rateLimit.${tier}.${field} must be a positive integer or null`);
    specs.push({ name, spanMs, limit, tag });
  }
  return specs;
}

/**
 * The counter windows of one client at one instant. Keys share a `{tier:id}` hash tag so that a
 * Redis Cluster keeps them in one slot (one script touches them all).
 * @param tier - The tier.
 * @param id - Client id or key fingerprint.
 * @param specs - The tier's windows.
 * @param now - Clock, ms since the epoch.
 */
export function toCounterWindows(tier: Tier, id: string, specs: readonly WindowSpec[], now: number): CounterWindow[] {
  return specs.map((spec) => {
    const start = now - (now % spec.spanMs);
    return { key: `rl:{${tier}:${id}}:${spec.tag}:${start}`, limit: spec.limit, resetAt: start + spec.spanMs };
  });
}

/** The window that refused a request: the longest full one, since waiting for a shorter one would not help. */
export function findBlockingWindow(windows: readonly CounterWindow[], result: CounterResult): number {
  for (let i = windows.length - 1; i >= 0; i--) if (result.counts[i]! >= windows[i]!.limit) return i;
  return windows.length - 1;
}

/**
 * A number of seconds in words, singular or plural: `1 second`, `30 seconds`.
 * @param seconds - Whole seconds.
 * @returns The text.
 */
export function toSeconds(seconds: number): string {
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/**
 * The 429 texts of the spec ("Errors"): the message by window, and an `error` that names the limit
 * and the tier; the daily one adds that it resets at midnight UTC.
 * @param spec - The breached window.
 * @param tier - The caller's tier.
 * @param retryAfter - Seconds until the window resets.
 */
export function toRateLimitTexts(spec: WindowSpec, tier: Tier, retryAfter: number): { message: string; error: string } {
  const limit = `the ${tier} tier limit of ${spec.limit} requests per ${spec.name}`;
  if (spec.name === 'day') {
    return {
      message: 'Rate limit exceeded (per-day).',
      error: `You have exceeded ${limit}. The daily limit resets at midnight UTC (in ${toSeconds(retryAfter)}).`,
    };
  }
  return { message: 'Rate limit exceeded.', error: `You have exceeded ${limit}. Retry after ${toSeconds(retryAfter)}.` };
}

/**
 * An in-memory counter store for one process. `hit` is synchronous, hence atomic.
 * @returns The store.
 * @example
 * ```ts
 * const counters = createMemoryCounterStore();
 * ```
 */
export function createMemoryCounterStore(): CounterStore {
  // Counters grouped by the instant their window ends: an ended window's whole group goes at once,
  // so expiry costs nothing per client (a sweep over every counter would, once a second).
  const groups = new Map<number, Map<string, number>>();
  let nextExpiry = Infinity;
  const expire = (now: number) => {
    nextExpiry = Infinity;
    for (const resetAt of groups.keys()) {
      if (resetAt <= now) groups.delete(resetAt);
      else if (resetAt < nextExpiry) nextExpiry = resetAt;
    }
  };
  return {
    hit(windows, now) {
      if (now >= nextExpiry) expire(now);
      const current = windows.map((w) => (w.resetAt > now ? (groups.get(w.resetAt)?.get(w.key) ?? 0) : 0));
      for (let i = 0; i < windows.length; i++) if (current[i]! + 1 > windows[i]!.limit) return { allowed: false, counts: current };
      for (let i = 0; i < windows.length; i++) {
        const w = windows[i]!;
        current[i] = current[i]! + 1;
        let group = groups.get(w.resetAt);
        if (!group) {
          groups.set(w.resetAt, (group = new Map()));
          if (w.resetAt < nextExpiry) nextExpiry = w.resetAt;
        }
        group.set(w.key, current[i]!);
      }
      return { allowed: true, counts: current };
    },
  };
}
