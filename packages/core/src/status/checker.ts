/**
 * The checker: checks every monitored service about once a minute and records the results.
 * @module
 */
import { ApiError } from '../errors.js';
import { boundStore, DEFAULT_STORE_TIMEOUT_MS, toTimeoutMs } from '../internal/bounded-store.js';
import type { Logger } from '../internal/pipeline.js';
import type { CheckRecord, StatusStore } from './store.js';
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
  /**
   * Longest wait for one store call, in milliseconds; past it the store counts as unavailable
   * (as when it throws a `StoreUnavailableError`). `Infinity` turns the timer off. @default 5000
   */
  storeTimeoutMs?: number;
  /**
   * Results kept while the store is unavailable, written in order once it is back, so that the
   * outage shows in the history. Past this many, the oldest are dropped (one log line per
   * outage): the history then starts the outage late. @default 10000
   */
  backlogLimit?: number;
  /**
   * Told of every check's outcome as it is recorded (for metrics).
   * @param serviceId - The service checked.
   * @param outcome - Its outcome.
   */
  onCheck?: (serviceId: string, outcome: CheckOutcome) => void;
}

/** What one round did. */
export interface CheckRound {
  /**
   * Whether this instance checked: it held the lease, or the store could not be asked (then every
   * instance checks and keeps its results). When not, nothing was checked.
   */
  leader: boolean;
  /** The outcome per service id that was checked (services with a check still running are skipped). */
  results: Record<string, CheckOutcome>;
  /** Results kept for the store after the round, not yet written because it is unavailable. */
  backlog: number;
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

/** Whether the bounded store gave up: unavailable or too slow (its 503), not a fault of the call. */
function isUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503;
}

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
 *
 * While the store is unavailable (it throws a `StoreUnavailableError` or outlives
 * `storeTimeoutMs`), who holds the lease cannot be known, so every instance goes on checking and
 * keeps its results in order (at most `backlogLimit`). The first round to get the lease once the
 * store is back writes them before its own, so the outage shows in the history; an instance that
 * finds the lease held by another drops its backlog, as that one's is written instead.
 * @param options - Services, store, clock, interval, timers.
 * @returns The checker; call `start()` to run it.
 * @throws {RangeError} when `intervalSeconds` is not positive or exceeds `staleAfterSeconds`, or
 *   `storeTimeoutMs` or `backlogLimit` is not positive.
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
  const bounded = boundStore(store, { timeoutMs: toTimeoutMs(options.storeTimeoutMs, DEFAULT_STORE_TIMEOUT_MS), logger, name: 'Status store' });
  const backlogLimit = options.backlogLimit ?? 10_000;
  if (!(Number.isInteger(backlogLimit) && backlogLimit > 0)) throw new RangeError('backlogLimit must be a positive integer');

  // Results the store could not take yet, oldest first; written before any newer result.
  const backlog: CheckRecord[] = [];
  let dropped = 0;
  let flushing: Promise<void> | undefined;

  function keep(check: CheckRecord): void {
    backlog.push(check);
    if (backlog.length <= backlogLimit) return;
    backlog.shift();
    if (dropped++ === 0) logger.error(`Status store unavailable for more than ${backlogLimit} results; dropping the oldest`);
  }

  /** Writes a result, or keeps it when the store is unavailable or older results wait. */
  async function record(check: CheckRecord, online: boolean): Promise<void> {
    if (!online || backlog.length > 0) return keep(check);
    try {
      await bounded.recordCheck(check, staleAfterMs);
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      keep(check);
    }
  }

  /** Writes the backlog in order; rejects, keeping the rest, when the store fails again. */
  function flush(): Promise<void> {
    if (backlog.length === 0) return Promise.resolve();
    flushing ??= (async () => {
      try {
        while (backlog.length > 0) {
          try {
            await bounded.recordCheck(backlog[0]!, staleAfterMs);
          } catch (error) {
            if (isUnavailable(error)) throw error;
            logger.error(`Status check of ${backlog[0]!.serviceId} could not be recorded`, error);
          }
          backlog.shift();
        }
        dropped = 0;
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  // Never two checks of one service at once: a slow one makes the next round skip that service.
  const inFlight = new Set<string>();
  const running = new Set<Promise<unknown>>();
  let lastPruneAt = -Infinity;
  let scheduled: unknown;
  let started = false;

  async function check(service: ServiceConfig, online: boolean): Promise<CheckOutcome> {
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
    options.onCheck?.(service.id, outcome);
    await record({ serviceId: service.id, outcome, at }, online);
    return outcome;
  }

  async function round(): Promise<CheckRound> {
    const results: Record<string, CheckOutcome> = {};
    let online = true;
    try {
      if (!(await bounded.acquireLease(holder, now(), leaseMs))) {
        if (backlog.length > 0) logger.error(`Another checker holds the lease; dropping ${backlog.length} results it has written in its place`);
        backlog.length = 0;
        return { leader: false, results, backlog: 0 };
      }
      await flush();
      const at = now();
      if (at - lastPruneAt >= HOUR_MS) {
        await bounded.prune(at - retentionMs);
        lastPruneAt = at;
      }
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      online = false;
    }
    await Promise.all(
      services
        .filter((service) => !inFlight.has(service.id))
        .map(async (service) => {
          inFlight.add(service.id);
          try {
            results[service.id] = await check(service, online);
          } catch (error) {
            logger.error(`Status check of ${service.id} could not be recorded`, error);
          } finally {
            inFlight.delete(service.id);
          }
        }),
    );
    return { leader: true, results, backlog: backlog.length };
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
      try {
        // Kept results are written only under the lease, as in a round.
        if (backlog.length > 0 && (await bounded.acquireLease(holder, now(), leaseMs))) await flush();
        await bounded.releaseLease(holder);
      } catch (error) {
        // The lease runs out by itself; the backlog goes with this process.
        if (!isUnavailable(error)) throw error;
        if (backlog.length > 0) logger.error(`Status store unavailable at stop; ${backlog.length} results were not written`);
      }
    },
  };
}
