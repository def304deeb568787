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
    return { key: `rl:{${tier}:${id}}:${spec.tag}:${start}`, limit: spec.limit, resetAt: start + spec.spanMs, spanMs: spec.spanMs };
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

/** Options of {@link createMemoryCounterStore}. */
export interface MemoryCounterOptions {
  /**
   * Most windows kept at once (about 250 bytes each on Node 20, so ~25 MB at the default). Past it, the least recently counted client's
   * longest window is forgotten first (never a window of the request being counted): that count
   * restarts, so the client may get more than its quota, never less. Raise it, or use the Redis back
   * end, when more clients than this come a day.
   * @default 100_000
   */
  maxEntries?: number;
}

/** The in-memory counter store, with how many windows it holds. */
export interface MemoryCounterStore extends CounterStore {
  /** Windows held; never above `maxEntries`. */
  readonly entries: number;
  /**
   * Counts one request against all windows of a tier, synchronously.
   * @param windows - The tier's windows for this client, shortest first.
   * @param now - The gateway's clock (ms since the epoch).
   * @returns Whether the request is allowed, and the counts.
   */
  hit(windows: readonly CounterWindow[], now: number): CounterResult;
}

/**
 * Whether window `i` can no longer refuse a request before it ends, whatever the client does: a
 * shorter window admits at most its remaining room now plus its limit in each of its later windows
 * up to `i`'s end, and if even that cannot fill `i`, `i`'s count does not matter. (A day window of
 * 40,000 with 120 a minute cannot fill in the last 5½ hours of the day.)
 */
function cannotRefuse(windows: readonly CounterWindow[], counts: readonly number[], i: number): boolean {
  const w = windows[i]!;
  if (w.spanMs === undefined) return false;
  for (let j = 0; j < windows.length; j++) {
    const shorter = windows[j]!;
    if (shorter.spanMs === undefined || shorter.spanMs >= w.spanMs) continue;
    const later = Math.ceil(Math.max(0, w.resetAt - shorter.resetAt) / shorter.spanMs);
    const most = Math.max(0, shorter.limit - counts[j]!) + later * shorter.limit;
    if (counts[i]! + most < w.limit) return true;
  }
  return false;
}

/**
 * An in-memory counter store for one process. `hit` is synchronous, hence atomic. It holds at
 * most `maxEntries` windows: ended windows go at once, and so do windows that the shorter ones keep
 * from ever refusing (see `CounterWindow.spanMs`).
 * @param options - The bound.
 * @returns The store.
 * @example
 * ```ts
 * const counters = createMemoryCounterStore({ maxEntries: 100_000 });
 * ```
 */
export function createMemoryCounterStore(options: MemoryCounterOptions = {}): MemoryCounterStore {
  const maxEntries = options.maxEntries ?? 100_000;
  // Counters grouped by the instant their window ends: an ended window's whole group goes at once,
  // so expiry costs nothing per client (a sweep over every counter would, once a second). Within a
  // group, a counted window moves to the end, so the first is the least recently counted.
  const groups = new Map<number, Map<string, number>>();
  let entries = 0;
  let nextExpiry = Infinity;
  const expire = (now: number) => {
    nextExpiry = Infinity;
    for (const [resetAt, group] of groups) {
      if (resetAt <= now) {
        entries -= group.size;
        groups.delete(resetAt);
      } else if (resetAt < nextExpiry) nextExpiry = resetAt;
    }
  };
  // Forgets windows, never one of the request being counted: the least recently counted of the
  // longest-lived group first, so that a flood of new clients costs the daily counts of the clients
  // seen longest ago, and every client still gets its second and minute limits. A twentieth of the
  // bound goes at once, so that a store at its bound does not walk its maps on every request.
  const evict = (current: readonly CounterWindow[]) => {
    let excess = entries - maxEntries + Math.ceil(maxEntries / 20);
    const byEnd = [...groups.keys()].sort((a, b) => b - a);
    for (const resetAt of byEnd) {
      const group = groups.get(resetAt)!;
      for (const key of group.keys()) {
        if (excess <= 0) return;
        if (current.some((w) => w.key === key)) continue;
        group.delete(key);
        entries--;
        excess--;
      }
    }
  };
  return {
    get entries() {
      return entries;
    },
    hit(windows, now) {
      if (now >= nextExpiry) expire(now);
      const current = windows.map((w) => (w.resetAt > now ? (groups.get(w.resetAt)?.get(w.key) ?? 0) : 0));
      for (let i = 0; i < windows.length; i++) if (current[i]! + 1 > windows[i]!.limit) return { allowed: false, counts: current };
      for (let i = 0; i < windows.length; i++) current[i] = current[i]! + 1;
      for (let i = 0; i < windows.length; i++) {
        const w = windows[i]!;
        let group = groups.get(w.resetAt);
        const known = group?.delete(w.key) ?? false;
        if (known) entries--;
        if (cannotRefuse(windows, current, i)) continue;
        if (!group) {
          groups.set(w.resetAt, (group = new Map()));
          if (w.resetAt < nextExpiry) nextExpiry = w.resetAt;
        }
        group.set(w.key, current[i]!);
        entries++;
      }
      if (entries > maxEntries) evict(windows);
      return { allowed: true, counts: current };
    },
  };
}
