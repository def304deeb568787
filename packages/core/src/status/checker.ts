/**
 * The checker: checks every monitored service about once a minute and records the results.
 * @module
 */
import type { Logger } from '../internal/pipeline.js';
import type { StatusStore } from './store.js';
import type { CheckOutcome, ServiceConfig } from './types.js';

/** Timer functions, injected so that tests drive the schedule instead of sleeping. */
export interface Timers {
  /**
   * Runs `callback` once after `ms` milliseconds.
   * @param callback - What to run.
   * @param ms - The delay.
   * @returns A handle for `clearTimeout`.
   */
  setTimeout(callback: () => void, ms: number): unknown;
  /**
   * Cancels a pending `setTimeout`.
   * @param handle - What `setTimeout` returned.
   */
  clearTimeout(handle: unknown): void;
}

/** Options of {@link createChecker}. */
export interface CheckerOptions {
  /** The services to check. */
  services: readonly ServiceConfig[];
  /** Where results go. Share it with the status app. */
  store: StatusStore;
  /** The clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
  /** Seconds between rounds of checks. @default 60 */
  intervalSeconds?: number;
  /** The stale threshold; results further apart than this are not joined. Use the app's. @default 120 */
  staleAfterSeconds?: number;
  /** How long the lease lasts unless renewed; another instance takes over after it. @default 3 × interval */
  leaseSeconds?: number;
  /** This instance's lease id. @default a random UUID */
  holder?: string;
  /** History older than this many days is pruned (hourly). @default 91 */
  retentionDays?: number;
  /** The fetch used for checks. @default globalThis.fetch */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** @default globalThis.setTimeout / clearTimeout */
  timers?: Timers;
  /** Where failures to record are logged. @default console */
  logger?: Logger;
}

/** What one round did. */
export interface CheckRound {
  /** Whether this instance held the lease; when not, nothing was checked. */
  leader: boolean;
  /** The outcome per service id that was checked (services with a check still running are skipped). */
  results: Record<string, CheckOutcome>;
}

/** A running or stopped checker. */
export interface Checker {
  /** Starts the schedule: a round now, then one every interval. Idempotent. */
  start(): void;
  /** Stops the schedule, waits for running checks and gives the lease up. */
  stop(): Promise<void>;
  /** Runs one round now: takes or renews the lease, then checks each service not already being checked. */
  runOnce(): Promise<CheckRound>;
}

const HOUR_MS = 3_600_000;

function isExpected(status: number, expect: ServiceConfig['check']['expectStatus']): boolean {
  if (expect === undefined) return status >= 200 && status < 300;
  return typeof expect === 'number' ? status === expect : expect.includes(status);
}

/**
 * Creates a checker. Each service is checked with one GET, aborted after its timeout; an expected
 * status is `up`, or `degraded` when slower than `degradedAfterMs`; a configured degraded status is
 * `degraded`; anything else (other status, network error, timeout) is `fail`. Results are stored
 * as they are; the flap rule (N failures before down) is applied when the snapshot is built.
 * Only one instance per store checks at a time: each round first takes or renews the store's lease.
 * @param options - Services, store, clock, interval, timers.
 * @returns The checker; call `start()` to run it.
 * @throws {RangeError} when `intervalSeconds` is not positive or exceeds `staleAfterSeconds`.
 * @example
 * ```ts
 * const store = createMemoryStatusStore();
 * const checker = createChecker({ services, store });
 * checker.start();
 * const app = createStatusApp({ services, store, page: { name: 'Example', url: 'https://status.example.org' } });
 * ```
 */
export function createChecker(options: CheckerOptions): Checker {
  const { services, store } = options;
  const now = options.now ?? Date.now;
  const intervalMs = (options.intervalSeconds ?? 60) * 1000;
  const staleAfterMs = (options.staleAfterSeconds ?? 120) * 1000;
  // A result holds for the stale threshold only: checking less often would show every service unknown between checks.
  if (!(intervalMs > 0 && intervalMs <= staleAfterMs)) {
    throw new RangeError(`intervalSeconds must be above 0 and at most staleAfterSeconds (${staleAfterMs / 1000})`);
  }
  const leaseMs = options.leaseSeconds !== undefined ? options.leaseSeconds * 1000 : intervalMs * 3;
  const retentionMs = (options.retentionDays ?? 91) * 86_400_000;
  const holder = options.holder ?? crypto.randomUUID();
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const timers: Timers = options.timers ?? {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const logger = options.logger ?? console;

  // Never two checks of one service at once: a slow one makes the next round skip that service.
  const inFlight = new Set<string>();
  const running = new Set<Promise<unknown>>();
  let lastPruneAt = -Infinity;
  let scheduled: unknown;
  let started = false;

  async function check(service: ServiceConfig): Promise<CheckOutcome> {
    const spec = service.check;
    const at = now();
    const controller = new AbortController();
    const timer = timers.setTimeout(() => controller.abort(), spec.timeoutMs ?? 10_000);
    let outcome: CheckOutcome;
    try {
      const response = await doFetch(spec.url, { method: 'GET', headers: spec.headers ?? {}, redirect: 'follow', signal: controller.signal });
      // The whole answer counts: a body that stalls past the timeout is a failure too.
      await response.arrayBuffer();
      if (isExpected(response.status, spec.expectStatus)) {
        outcome = now() - at > (spec.degradedAfterMs ?? 2_000) ? 'degraded' : 'up';
      } else {
        outcome = spec.degradedStatuses?.includes(response.status) ? 'degraded' : 'fail';
      }
    } catch {
      outcome = 'fail';
    } finally {
      timers.clearTimeout(timer);
    }
    await store.recordCheck({ serviceId: service.id, outcome, at }, staleAfterMs);
    return outcome;
  }

  async function round(): Promise<CheckRound> {
    const leader = await store.acquireLease(holder, now(), leaseMs);
    const results: Record<string, CheckOutcome> = {};
    if (!leader) return { leader, results };
    const at = now();
    if (at - lastPruneAt >= HOUR_MS) {
      lastPruneAt = at;
      await store.prune(at - retentionMs);
    }
    await Promise.all(
      services
        .filter((service) => !inFlight.has(service.id))
        .map(async (service) => {
          inFlight.add(service.id);
          try {
            results[service.id] = await check(service);
          } catch (error) {
            logger.error(`Status check of ${service.id} could not be recorded`, error);
          } finally {
            inFlight.delete(service.id);
          }
        }),
    );
    return { leader, results };
  }

  function runOnce(): Promise<CheckRound> {
    const promise = round();
    running.add(promise);
    void promise.then(
      () => running.delete(promise),
      () => running.delete(promise),
    );
    return promise;
  }

  function tick(): void {
    if (!started) return;
    // The next round is scheduled before this one ends, so a slow service does not delay the others.
    scheduled = timers.setTimeout(tick, intervalMs);
    runOnce().catch((error: unknown) => logger.error('Status check round failed', error));
  }

  return {
    runOnce,
    start() {
      if (started) return;
      started = true;
      tick();
    },
    async stop() {
      started = false;
      if (scheduled !== undefined) timers.clearTimeout(scheduled);
      scheduled = undefined;
      await Promise.allSettled([...running]);
      await store.releaseLease(holder);
    },
  };
}
