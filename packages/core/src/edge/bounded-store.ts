/**
 * Bounds every call of a store: an answer within the timeout passes through, and a call that
 * outlives it, or fails with a {@link StoreUnavailableError}, becomes the 503 `ApiError`
 * (spec, Errors: "API offline or busy", `Retry-After: 1`). The bound holds whatever the store
 * waits on (a pool connection, a connect, a frozen socket), because it is kept here rather than
 * by each store's driver. The call itself is not cancelled: its answer, when it comes, is dropped.
 * @module
 */
import { isThenable, wrapMethods, type Method } from '../internal/wrap-methods.js';
import { ApiError, StoreUnavailableError } from './errors.js';
import type { Logger } from './pipeline.js';

/** The default of every `storeTimeoutMs`: well above a healthy store's slowest answer, well below a client's patience. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** Options of {@link boundStore}. */
export interface BoundStoreOptions {
  /** Longest wait per call, in milliseconds; `Infinity` waits for ever (errors are still mapped). */
  timeoutMs: number;
  /** Where the first failure of an outage is logged. */
  logger?: Logger | undefined;
  /** The store's name in the log, e.g. `Catalogue store`. */
  name: string;
}

/**
 * Checks a store timeout option.
 * @param value - The option as given.
 * @param fallback - The default.
 * @returns The timeout in milliseconds.
 * @throws {RangeError} unless it is a positive number (or `Infinity`).
 */
export function toTimeoutMs(value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!(ms > 0)) throw new RangeError(`storeTimeoutMs must be a positive number of milliseconds (or Infinity), got ${String(value)}`);
  return ms;
}

/** Slots per timeout: a call fails after the timeout, and at most a quarter of it later. */
const SLOTS = 4;

interface Pending {
  reject(error: unknown): void;
}

/**
 * Wraps every method of `store` (own and inherited) so that each call is bounded and mapped.
 * Other properties read through to the store.
 * @param store - A `CatalogueStore`, `StatusStore` or any object of async methods.
 * @param options - Timeout, logger and name.
 * @returns An object with the same methods, bounded.
 */
export function boundStore<T extends object>(store: T, options: BoundStoreOptions): T {
  const { timeoutMs, logger, name } = options;
  const finite = Number.isFinite(timeoutMs);
  let healthy = true;

  function unavailable(cause: unknown): ApiError {
    if (cause instanceof ApiError) return cause;
    if (!StoreUnavailableError.is(cause)) throw cause;
    // One line per outage, not one per request.
    if (healthy) {
      healthy = false;
      logger?.error(`${name} unavailable; answering 503 until it recovers`, cause);
    }
    return ApiError.unavailable();
  }

  // One timer for all calls, not one each (a timer per call costs more than a memory-store
  // answer): calls go into the newest of five slots, a quarter of the timeout each; each tick
  // moves on to the next slot, the oldest, and fails its calls, which have waited more than the
  // timeout and at most 5/4 of it. The timer runs only while calls are pending.
  const slotMs = timeoutMs / SLOTS;
  const slots: Set<Pending>[] = Array.from({ length: SLOTS + 1 }, () => new Set<Pending>());
  let newest = 0;
  let ticking = false;
  let waiting = 0;

  function tick(): void {
    newest = (newest + 1) % slots.length;
    const expired = slots[newest]!;
    if (expired.size > 0) {
      const error = unavailable(new StoreUnavailableError(`${name} did not answer within ${timeoutMs} ms`));
      for (const pending of expired) pending.reject(error);
      waiting -= expired.size;
      expired.clear();
    }
    ticking = waiting > 0;
    if (ticking) setTimeout(tick, slotMs);
  }

  function track<V>(result: PromiseLike<V>): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const slot = slots[newest]!;
      const pending: Pending = { reject };
      slot.add(pending);
      waiting++;
      if (!ticking) {
        ticking = true;
        setTimeout(tick, slotMs);
      }
      result.then(
        (value) => {
          if (slot.delete(pending)) waiting--;
          healthy = true;
          resolve(value);
        },
        (cause: unknown) => {
          if (slot.delete(pending)) waiting--;
          try {
            reject(unavailable(cause));
          } catch (other) {
            reject(other);
          }
        },
      );
    });
  }

  function bound(method: Method): Method {
    return (...args) => {
      let result: unknown;
      try {
        result = method.apply(store, args);
      } catch (cause) {
        throw unavailable(cause);
      }
      if (!isThenable(result)) return result;
      if (finite) return track(result);
      return Promise.resolve(result).catch((cause: unknown) => {
        throw unavailable(cause);
      });
    };
  }

  return wrapMethods(store, bound);
}
