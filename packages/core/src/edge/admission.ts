/**
 * Admission of store work: at most `concurrency` store calls of one kind of work run at once; past
 * that a call waits its turn in a first-in-first-out queue of at most `queue` calls, for at most
 * `waitMs`, and then fails with the 503 `ApiError` (spec, Errors: "API offline or busy",
 * `Retry-After: 1`). Searches and cheap reads each have their own gate, so that a flood of slow
 * searches holds only the search gate's share of a store's connections and a read by id still
 * finds one at once, instead of queueing behind them in the store's pool.
 * @module
 */
import { isThenable, wrapMethods, type Method } from '../internal/wrap-methods.js';
import { ApiError } from './errors.js';

/** The bounds of one kind of work. */
export interface AdmissionLimits {
  /** Store calls of this kind running at once; more wait in the queue. */
  concurrency: number;
  /** Calls waiting at most; a call that finds the queue full fails at once. `0`: none wait. */
  queue: number;
  /** Longest wait in the queue, in milliseconds; then the call fails. */
  waitMs: number;
}

/** The kinds of store work a route does (its row's `work`). */
export type WorkKind = 'search' | 'read';

/** Admission options of `createCatalogueApp`: the bounds of each kind of work, each field defaulting on its own. */
export interface AdmissionOptions {
  /** Searches and other list queries: `q=` searches, filtered and ordered lists, top lists, id lists, seasons, schedules. */
  search?: Partial<AdmissionLimits>;
  /** Reads of one record and what hangs off it: by id, `full`, characters, episodes, pictures… */
  read?: Partial<AdmissionLimits>;
}

/**
 * The defaults, with PostgreSQL's default pool of 10 connections in mind (`createPostgresStore`'s
 * `max`): searches hold at most 2 of them, so that 8 are always left for reads, which are cheap
 * enough that 32 at once only queue briefly in the pool. A search is CPU work for the database, so
 * more at once than it has cores adds little throughput and slows every other query: on a 2-core
 * host (docs/operations.md, "Slow searches and a slow database"), 4 at once rather than 2 gave up
 * to 40 % more searches per second, but about 1.6 times a read's p99 behind them. A second of
 * waiting is well under a client's patience and the 5 s store timeout, and each queue holds about
 * what its gate gets through in that second.
 */
export const DEFAULT_ADMISSION: Readonly<Record<WorkKind, Readonly<AdmissionLimits>>> = {
  search: { concurrency: 2, queue: 64, waitMs: 1_000 },
  read: { concurrency: 32, queue: 1_024, waitMs: 1_000 },
};

/** What a gate answers with when it is full; also what its waiters are failed with. */
function busy(kind: WorkKind): ApiError {
  return ApiError.unavailable(
    kind === 'search' ? 'Too many searches at once' : 'Too many requests at once',
    'The catalogue is answering as many of these as it can. Please try again after Retry-After seconds.',
  );
}

/**
 * Checks and completes the options of one kind.
 * @param kind - The kind, for messages.
 * @param given - The options as given.
 * @returns The bounds.
 * @throws {RangeError} unless `concurrency` is a positive integer, `queue` a non-negative integer
 *   and `waitMs` a non-negative finite number.
 */
export function toAdmissionLimits(kind: WorkKind, given: Partial<AdmissionLimits> | undefined): AdmissionLimits {
  const limits = { ...DEFAULT_ADMISSION[kind], ...stripUndefined(given) };
  if (!(Number.isInteger(limits.concurrency) && limits.concurrency > 0)) {
    throw new RangeError(`admission.${kind}.concurrency must be a positive integer, got ${String(limits.concurrency)}`);
  }
  if (!(Number.isInteger(limits.queue) && limits.queue >= 0)) {
    throw new RangeError(`admission.${kind}.queue must be an integer of at least 0, got ${String(limits.queue)}`);
  }
  if (!(Number.isFinite(limits.waitMs) && limits.waitMs >= 0)) {
    throw new RangeError(`admission.${kind}.waitMs must be a number of milliseconds of at least 0, got ${String(limits.waitMs)}`);
  }
  return limits;
}

function stripUndefined(given: Partial<AdmissionLimits> | undefined): Partial<AdmissionLimits> {
  const out: Partial<AdmissionLimits> = {};
  if (!given) return out;
  for (const key of ['concurrency', 'queue', 'waitMs'] as const) if (given[key] !== undefined) out[key] = given[key];
  return out;
}

interface Waiter {
  admit(): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Wraps every method of `store` (own and inherited) so that each call passes `kind`'s gate: it
 * runs at once while fewer than `concurrency` calls run, else waits in the queue, and holds its
 * place until it settles (answers, throws or is timed out by the store bound beneath).
 * @param store - The store, already bounded by `boundStore`.
 * @param kind - The kind of work its calls are.
 * @param limits - The gate's bounds.
 * @returns An object with the same methods, admitted.
 */
export function admitStore<T extends object>(store: T, kind: WorkKind, limits: AdmissionLimits): T {
  const { concurrency, queue: queueLimit, waitMs } = limits;
  let running = 0;
  // A Set keeps insertion order: the first value is the longest waiting; a waiter that gives up is
  // deleted in O(1).
  const queue = new Set<Waiter>();

  function release(): void {
    const next = queue.values().next();
    if (next.done) {
      running--;
      return;
    }
    // The place passes straight to the next waiter, so that no new call overtakes the queue.
    queue.delete(next.value);
    clearTimeout(next.value.timer);
    next.value.admit();
  }

  function wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          if (queue.delete(waiter)) reject(busy(kind));
        }, waitMs),
      };
      queue.add(waiter);
    });
  }

  function run(method: Method, args: unknown[]): unknown {
    let result: unknown;
    try {
      result = method.apply(store, args);
    } catch (error) {
      release();
      throw error;
    }
    if (!isThenable(result)) {
      release();
      return result;
    }
    result.then(release, release);
    return result;
  }

  function admitted(method: Method): Method {
    return (...args) => {
      if (running < concurrency) {
        running++;
        return run(method, args);
      }
      if (queue.size >= queueLimit || waitMs === 0) return Promise.reject(busy(kind));
      return wait().then(() => run(method, args));
    };
  }

  return wrapMethods(store, admitted);
}
