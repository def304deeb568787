/**
 * A source's request budget over sliding windows of real time: never more than `perSecond`
 * requests in any 1 s window nor `perMinute` in any 60 s window, and a pause (`Retry-After`) that
 * holds every request of the source. The spending is kept in a {@link BudgetLedger} so that every
 * instance, and the next leader, sees what was spent.
 * @module
 */
import type { Budget, BudgetLedger, UpstreamLimits } from './types.js';

/** One second and one minute, in ms: the two sliding windows. */
const SECOND = 1_000;
const MINUTE = 60_000;

/** The public Jikan's published limits: 3 requests a second, 60 a minute (https://docs.api.jikan.moe/). */
export const JIKAN_LIMITS: UpstreamLimits = Object.freeze({ perSecond: 3, perMinute: 60 });

/**
 * Checks a pair of limits: whole numbers of at least 1.
 * @param limits - The limits to check.
 * @throws RangeError naming the limit that is not a positive whole number.
 */
export function checkLimits(limits: UpstreamLimits): UpstreamLimits {
  for (const name of ['perSecond', 'perMinute'] as const) {
    const value = limits[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, not ${String(value)}`);
  }
  return limits;
}

/**
 * How long to wait before a slot is free in both windows, given the instants already taken
 * (ascending) and `now`; 0 when one is free now. With a margin `m`, a slot counts in the windows
 * `(now − 1 s − m, now]` and `(now − 60 s − m, now]`: the n-th most recent slot leaves a window at
 * its own instant + w + m.
 * @param taken - Instants taken, ascending, none older than a minute and the margin.
 * @param now - Now.
 * @param limits - The windows.
 * @param marginMs - How much wider than 1 s and 60 s each window is counted. @default 0
 */
export function waitForSlot(taken: readonly number[], now: number, limits: UpstreamLimits, marginMs = 0): number {
  let wait = 0;
  const second = SECOND + marginMs;
  const minute = MINUTE + marginMs;
  const inSecond = countSince(taken, now - second);
  const inMinute = countSince(taken, now - minute);
  if (inSecond >= limits.perSecond) wait = Math.max(wait, taken[taken.length - limits.perSecond]! + second - now);
  if (inMinute >= limits.perMinute) wait = Math.max(wait, taken[taken.length - limits.perMinute]! + minute - now);
  // A clock that stepped back could leave a slot "in the future": wait at least 1 ms, never 0, while full.
  return wait > 0 ? Math.ceil(wait) : inSecond >= limits.perSecond || inMinute >= limits.perMinute ? 1 : 0;
}

/**
 * Checks a margin: a whole number of ms from 0 to 10 s.
 * @param marginMs - The margin.
 * @throws RangeError when it is not.
 */
export function checkMargin(marginMs: number): number {
  if (!Number.isSafeInteger(marginMs) || marginMs < 0 || marginMs > 10_000) throw new RangeError(`marginMs must be a whole number of ms from 0 to 10000, not ${String(marginMs)}`);
  return marginMs;
}

/** How many instants of an ascending list are after `after`. */
function countSince(taken: readonly number[], after: number): number {
  let n = 0;
  for (let i = taken.length - 1; i >= 0 && taken[i]! > after; i--) n++;
  return n;
}

/**
 * A ledger in this process's memory: the instants of the last minute's requests (at most
 * `perMinute` of them are ever kept) and the pause. For one process; a store shares its own
 * ledger between instances (its `RefreshState`).
 * @returns A ledger, empty.
 * @example
 * ```ts
 * const budget = createBudget(createMemoryLedger(), { perSecond: 3, perMinute: 60 });
 * await budget.take();
 * ```
 */
export function createMemoryLedger(): BudgetLedger {
  let taken: number[] = [];
  let pausedUntil = 0;
  const prune = (now: number, keep: number, marginMs: number): void => {
    let drop = 0;
    while (drop < taken.length && taken[drop]! <= now - MINUTE - marginMs) drop++;
    // Never more than the larger window's limit: older instants cannot change a decision.
    drop = Math.max(drop, taken.length - keep);
    if (drop > 0) taken = taken.slice(drop);
  };
  return {
    async tryTake(now, limits, marginMs = 0) {
      checkLimits(limits);
      checkMargin(marginMs);
      if (now < pausedUntil) return Math.ceil(pausedUntil - now);
      prune(now, Math.max(limits.perMinute, limits.perSecond), marginMs);
      const wait = waitForSlot(taken, now, limits, marginMs);
      if (wait > 0) return wait;
      // Keep the list ascending even if the clock stepped back.
      taken.push(Math.max(now, taken.at(-1) ?? now));
      return 0;
    },
    async pause(until) {
      if (until > pausedUntil) pausedUntil = until;
    },
    async usage(now) {
      return { second: countSince(taken, now - SECOND), minute: countSince(taken, now - MINUTE), pausedUntil };
    },
  };
}

/** Options of {@link createBudget}. */
export interface BudgetOptions {
  /** Real time, ms since the epoch. @default Date.now */
  clock?: () => number;
  /** Waits `ms`, rejecting with the signal's reason when it aborts. @default a `setTimeout` */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The safety margin, in ms, for what happens between a slot and the request's arrival
   * upstream: the wait for the ledger's answer, the event loop before the request is handed to
   * `fetch`, the socket and the network. Every window is counted this much wider (at most
   * `perSecond` slots in any `1 s + margin`, `perMinute` in any `60 s + margin`), and a slot is
   * used only by a request handed to `fetch` within half the margin of it ({@link Budget.late});
   * the other half is left for the way from `fetch` to the upstream. So the limits hold over every
   * sliding second and minute *as the upstream counts arrivals*, even when sends are delayed.
   * @default 250
   */
  marginMs?: number;
  /**
   * The least time between two slots this budget takes, spreading a second's requests over it
   * rather than sending them in one burst (a burst reaches the upstream over a spread of arrival
   * times, which an upstream counting arrivals may see as more than `perSecond` in a second).
   * @default floor((1000 + marginMs) / perSecond)
   */
  spacingMs?: number;
}

/** The default {@link BudgetOptions.marginMs}. */
export const DEFAULT_MARGIN_MS = 250;

/** Waits for a promise, or rejects with the signal's reason when it aborts first. */
function untilSettled(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * Waits `ms` on a timer, rejecting with the signal's reason when it aborts first.
 * @param ms - How long.
 * @param signal - Cuts the wait short.
 */
export function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A budget over a ledger: `take()` waits until a slot is free in both sliding windows (widened by
 * the margin) and any pause is over, then takes it and answers its instant; the request must then
 * be handed to `fetch` at once, and is not sent when `late(slot)` says it waited too long (the slot
 * is spent; take another). `pause(until)` holds every request of the source until then (the later
 * pause wins). Hand-written rather than a rate-limiting package because the windows must be shared
 * through the caller's ledger (a store table), which in-process limiters do not offer.
 * @param ledger - Where spending is kept (shared by every instance on one store).
 * @param limits - The source's windows.
 * @param options - The clock and the sleep (virtual in tests), the margin and the spacing.
 * @returns The budget.
 * @throws RangeError when a limit is not a positive whole number, or the margin is not from 0 to 10 s.
 * @example
 * ```ts
 * const budget = createBudget(createMemoryLedger(), { perSecond: 3, perMinute: 60 });
 * const slot = await budget.take(signal);
 * if (!budget.late(slot)) await fetch(url);   // else take another slot
 * ```
 */
export function createBudget(ledger: BudgetLedger, limits: UpstreamLimits, options: BudgetOptions = {}): Budget {
  checkLimits(limits);
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const marginMs = checkMargin(options.marginMs ?? DEFAULT_MARGIN_MS);
  const sendWithinMs = Math.floor(marginMs / 2);
  const spacingMs = options.spacingMs ?? Math.floor((SECOND + marginMs) / limits.perSecond);
  // Takers wait their turn, first come first served, so the spacing holds between them.
  let turn: Promise<void> = Promise.resolve();
  let lastTaken = -Infinity;
  return {
    marginMs,
    async take(signal) {
      const previous = turn;
      let release!: () => void;
      turn = new Promise((resolve) => (release = resolve));
      try {
        await untilSettled(previous, signal);
        for (;;) {
          signal?.throwIfAborted();
          const now = clock();
          const spacing = lastTaken + spacingMs - now;
          if (spacing > 0) {
            await sleep(spacing, signal);
            continue;
          }
          const wait = await ledger.tryTake(now, limits, marginMs);
          if (wait <= 0) {
            // Keep to the beat: a timer that woke a little late does not push every later slot back.
            lastTaken = now - lastTaken < 2 * spacingMs ? lastTaken + spacingMs : now;
            return now;
          }
          await sleep(wait, signal);
        }
      } finally {
        // An aborted taker hands its turn on only once the one before it is done.
        void previous.then(release);
      }
    },
    late: (slot) => clock() - slot > sendWithinMs,
    pause: (until) => ledger.pause(until),
  };
}
