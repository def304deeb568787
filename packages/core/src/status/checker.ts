/**
 * The checker: checks every monitored service about once a minute and records the results.
 * @module
 */
import { ApiError } from '../edge/errors.js';
import { boundStore, DEFAULT_STORE_TIMEOUT_MS, toTimeoutMs } from '../edge/bounded-store.js';
import type { Logger } from '../edge/pipeline.js';
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

/** The settings of a checker, resolved from its options. */
interface CheckerConfig {
  services: readonly ServiceConfig[];
  now: () => number;
  intervalMs: number;
  staleAfterMs: number;
  leaseMs: number;
  retentionMs: number;
  holder: string;
  doFetch: (input: string, init: RequestInit) => Promise<Response>;
  timers: Timers;
  logger: Logger;
  /** The store, behind its timeout. */
  bounded: StatusStore;
  backlogLimit: number;
  /** Read from the options at each check, as they may be changed after creation. */
  onCheck: (serviceId: string, outcome: CheckOutcome) => void;
}

/** What a checker remembers between rounds. */
interface CheckerState {
  /** Results the store could not take yet, oldest first; written before any newer result. */
  backlog: CheckRecord[];
  /** Results dropped from the backlog in this outage (logged once). */
  dropped: number;
  flushing: Promise<void> | undefined;
  /** Services with a check running: a slow one makes the next round skip that service. */
  inFlight: Set<string>;
  /** Rounds not yet settled. */
  running: Set<Promise<unknown>>;
  lastPruneAt: number;
  scheduled: unknown;
  started: boolean;
}

/** Applies the defaults and validates; throws the `RangeError`s {@link createChecker} documents. */
function resolveConfig(options: CheckerOptions): CheckerConfig {
  const intervalMs = (options.intervalSeconds ?? 60) * 1000;
  const staleAfterMs = (options.staleAfterSeconds ?? 120) * 1000;
  // A result holds for the stale threshold only: checking less often would show every service unknown between checks.
  if (!(intervalMs > 0 && intervalMs <= staleAfterMs)) {
    throw new RangeError(`intervalSeconds must be above 0 and at most staleAfterSeconds (${staleAfterMs / 1000})`);
  }
  const logger = options.logger ?? console;
  const bounded = boundStore(options.store, { timeoutMs: toTimeoutMs(options.storeTimeoutMs, DEFAULT_STORE_TIMEOUT_MS), logger, name: 'Status store' });
  const backlogLimit = options.backlogLimit ?? 10_000;
  if (!(Number.isInteger(backlogLimit) && backlogLimit > 0)) throw new RangeError('backlogLimit must be a positive integer');
  return {
    services: options.services,
    now: options.now ?? Date.now,
    intervalMs,
    staleAfterMs,
    leaseMs: options.leaseSeconds !== undefined ? options.leaseSeconds * 1000 : intervalMs * 3,
    retentionMs: (options.retentionDays ?? 91) * 86_400_000,
    holder: options.holder ?? crypto.randomUUID(),
    doFetch: options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init)),
    timers: options.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    logger,
    bounded,
    backlogLimit,
    onCheck: (serviceId, outcome) => options.onCheck?.(serviceId, outcome),
  };
}

/** Keeps a result for later, dropping the oldest past the backlog limit. */
function keep(config: CheckerConfig, state: CheckerState, check: CheckRecord): void {
  state.backlog.push(check);
  if (state.backlog.length <= config.backlogLimit) return;
  state.backlog.shift();
  if (state.dropped++ === 0) config.logger.error(`Status store unavailable for more than ${config.backlogLimit} results; dropping the oldest`);
}

/** Writes a result, or keeps it when the store is unavailable or older results wait. */
async function record(config: CheckerConfig, state: CheckerState, check: CheckRecord, online: boolean): Promise<void> {
  if (!online || state.backlog.length > 0) return keep(config, state, check);
  try {
    await config.bounded.recordCheck(check, config.staleAfterMs);
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    keep(config, state, check);
  }
}

/** Writes the backlog in order; rejects, keeping the rest, when the store fails again. */
function flush(config: CheckerConfig, state: CheckerState): Promise<void> {
  const { backlog } = state;
  if (backlog.length === 0) return Promise.resolve();
  state.flushing ??= (async () => {
    try {
      while (backlog.length > 0) {
        try {
          await config.bounded.recordCheck(backlog[0]!, config.staleAfterMs);
        } catch (error) {
          if (isUnavailable(error)) throw error;
          config.logger.error(`Status check of ${backlog[0]!.serviceId} could not be recorded`, error);
        }
        backlog.shift();
      }
      state.dropped = 0;
    } finally {
      state.flushing = undefined;
    }
  })();
  return state.flushing;
}

/** Checks one service with one GET, then reports and records the outcome. */
async function checkService(config: CheckerConfig, state: CheckerState, service: ServiceConfig, online: boolean): Promise<CheckOutcome> {
  const { now, timers } = config;
  const spec = service.check;
  const at = now();
  const controller = new AbortController();
  const timer = timers.setTimeout(() => controller.abort(), spec.timeoutMs ?? 10_000);
  let outcome: CheckOutcome;
  try {
    const response = await config.doFetch(spec.url, { method: 'GET', headers: spec.headers ?? {}, redirect: 'follow', signal: controller.signal });
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
  config.onCheck(service.id, outcome);
  await record(config, state, { serviceId: service.id, outcome, at }, online);
  return outcome;
}

/** One round: takes or renews the lease, flushes the backlog, prunes hourly, then checks each service not already being checked. */
async function runRound(config: CheckerConfig, state: CheckerState): Promise<CheckRound> {
  const { bounded, logger, now } = config;
  const { inFlight } = state;
  const results: Record<string, CheckOutcome> = {};
  let online = true;
  try {
    if (!(await bounded.acquireLease(config.holder, now(), config.leaseMs))) {
      if (state.backlog.length > 0) logger.error(`Another checker holds the lease; dropping ${state.backlog.length} results it has written in its place`);
      state.backlog.length = 0;
      return { leader: false, results, backlog: 0 };
    }
    await flush(config, state);
    const at = now();
    if (at - state.lastPruneAt >= HOUR_MS) {
      await bounded.prune(at - config.retentionMs);
      state.lastPruneAt = at;
    }
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    online = false;
  }
  await Promise.all(
    config.services
      .filter((service) => !inFlight.has(service.id))
      .map(async (service) => {
        inFlight.add(service.id);
        try {
          results[service.id] = await checkService(config, state, service, online);
        } catch (error) {
          logger.error(`Status check of ${service.id} could not be recorded`, error);
        } finally {
          inFlight.delete(service.id);
        }
      }),
  );
  return { leader: true, results, backlog: state.backlog.length };
}

/** Runs a round, tracked in `running` until it settles so that `stop()` can wait for it. */
function runTracked(config: CheckerConfig, state: CheckerState): Promise<CheckRound> {
  const promise = runRound(config, state);
  state.running.add(promise);
  void promise.then(
    () => state.running.delete(promise),
    () => state.running.delete(promise),
  );
  return promise;
}

/** Schedules the next round, then runs this one, while the checker is started. */
function tick(config: CheckerConfig, state: CheckerState): void {
  if (!state.started) return;
  // The next round is scheduled before this one ends, so a slow service does not delay the others.
  state.scheduled = config.timers.setTimeout(() => tick(config, state), config.intervalMs);
  runTracked(config, state).catch((error: unknown) => config.logger.error('Status check round failed', error));
}

/** Stops the schedule, waits for running rounds, writes the backlog under the lease and gives the lease up. */
async function stopChecker(config: CheckerConfig, state: CheckerState): Promise<void> {
  const { bounded, holder } = config;
  state.started = false;
  if (state.scheduled !== undefined) config.timers.clearTimeout(state.scheduled);
  state.scheduled = undefined;
  await Promise.allSettled([...state.running]);
  try {
    // Kept results are written only under the lease, as in a round.
    if (state.backlog.length > 0 && (await bounded.acquireLease(holder, config.now(), config.leaseMs))) await flush(config, state);
    await bounded.releaseLease(holder);
  } catch (error) {
    // The lease runs out by itself; the backlog goes with this process.
    if (!isUnavailable(error)) throw error;
    if (state.backlog.length > 0) config.logger.error(`Status store unavailable at stop; ${state.backlog.length} results were not written`);
  }
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
  const config = resolveConfig(options);
  const state: CheckerState = {
    backlog: [],
    dropped: 0,
    flushing: undefined,
    inFlight: new Set(),
    running: new Set(),
    lastPruneAt: -Infinity,
    scheduled: undefined,
    started: false,
  };
  return {
    runOnce: () => runTracked(config, state),
    start() {
      if (state.started) return;
      state.started = true;
      tick(config, state);
    },
    stop: () => stopChecker(config, state),
  };
}
