/**
 * `createStatusApp`: the status API (`GET /api/status`) and its HTML page (`GET /status`) on the
 * same pipeline as the catalogue.
 * @module
 */
import { ApiError } from '../edge/errors.js';
import { boundStore, DEFAULT_STORE_TIMEOUT_MS, toTimeoutMs } from '../edge/bounded-store.js';
import { cacheControl, toApp, type App, type Middleware } from '../edge/http.js';
import { createPipeline, ok, type Logger, type Reply, type Route } from '../edge/pipeline.js';
import { createMaintenanceManager, type MaintenanceManager } from './maintenance.js';
import { createMemoryStatusStore } from './memory-status-store.js';
import { toSnapshot } from './snapshot.js';
import { STATUS_PAGE_CSP, STATUS_PAGE_PATH, toStatusPage } from './page.js';
import { toWindowStart } from './history.js';
import type { StatusStore } from './store.js';
import type { CheckSegment, MaintenanceRecord, ServiceConfig, StatusSnapshot } from './types.js';

/** Options of {@link createStatusApp}. */
export interface StatusAppOptions {
  /** The monitored services, in display order. */
  services: readonly ServiceConfig[];
  /** Where history and maintenance records are. Share it with the checker. @default a memory store */
  store?: StatusStore;
  /**
   * Longest wait for one store call, in milliseconds, while a snapshot is generated. Past it, or
   * when the store throws a `StoreUnavailableError`, the generation fails (see `refreshWaitMs` for
   * what clients get meanwhile). `Infinity` turns the timer off. @default 5000
   */
  storeTimeoutMs?: number;
  /**
   * How long a request waits for a fresh snapshot once the last one has expired, in milliseconds.
   * The snapshot is generated in the background, one generation at a time; a request that it does
   * not answer within this wait, or that it fails, is answered at once from the history and
   * maintenance records of the last snapshot, evaluated at the current time (so that results older
   * than `staleAfterSeconds` show as `unknown` and the checker as unhealthy, as they would from the
   * store). Only before any snapshot was ever generated does it get 503 with `Retry-After: 1`. A
   * frozen database thus never holds a request longer than this. @default 250
   */
  refreshWaitMs?: number;
  /** The status page's name and address (the snapshot's `page`). @default { name: 'Status', url: '' } */
  page?: { name: string; url: string };
  /** The clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
  /** A result holds this long; then the service is `unknown` and the checker unhealthy. @default 120 */
  staleAfterSeconds?: number;
  /** Consecutive failed checks before a service is `down`. @default 2 */
  failuresBeforeDown?: number;
  /** How long one generated snapshot is served, as JSON and as the page (`Cache-Control: public, max-age=…`). @default 30 */
  cacheSeconds?: number;
  /** Where unexpected failures are logged. @default console */
  logger?: Logger;
  /** Stages run around routing, as for the catalogue app. */
  middleware?: readonly Middleware[];
}

/**
 * A status API app. Its `owns` takes `/api/status` and `/status`, not `/`, which the app also
 * answers with the page when it is served alone (a status-only port), but which belongs to the
 * catalogue when `combineApps` puts them on one port.
 */
export interface StatusApp extends App {
  /** Generates a fresh snapshot, bypassing the response cache. */
  snapshot(): Promise<StatusSnapshot>;
  /** Adds, changes and removes maintenance records; a change shows in the next response at once. */
  maintenance: MaintenanceManager;
  /** The store in use. */
  store: StatusStore;
}

/** The status API's one route. */
export const STATUS_PATH = '/api/status';

/**
 * Creates the status API: `GET /api/status` returns the snapshot of the spec's "Status snapshot"
 * tables, generated at most once per cache period however many clients ask at once; `GET /status`
 * (and `/` when the app is served alone) is the same snapshot as an HTML page for people, with the
 * same caching; HEAD, OPTIONS and the 405 envelope behave as in the catalogue. No authentication, no rate limit. Pair it with
 * {@link createChecker} on the same store to fill the history.
 * @param options - Services, store, page, clock and thresholds.
 * @returns The app.
 * @throws {RangeError} for duplicate service ids, a service with the reserved id `all`, thresholds
 *   that are not positive integers, a `storeTimeoutMs` that is not a positive number, or a
 *   `refreshWaitMs` that is not a finite number of at least 0.
 * @example
 * ```ts
 * import { createChecker, createMemoryStatusStore, createStatusApp } from '@catalogue-api/core';
 *
 * const services = [{ id: 'api', name: 'Catalogue API', check: { url: 'http://127.0.0.1:3000/v1/anime?limit=1' } }];
 * const store = createMemoryStatusStore();
 * createChecker({ services, store }).start();
 * const app = createStatusApp({ services, store, page: { name: 'Catalogue status', url: 'https://status.example.org' } });
 * const res = await app.fetch(new Request('http://localhost/api/status'));
 * ```
 */
export function createStatusApp(options: StatusAppOptions): StatusApp {
  const services = [...options.services];
  const seen = new Set<string>();
  for (const service of services) {
    if (service.id === 'all') throw new RangeError('"all" is reserved for maintenance of every service; pick another service id');
    if (seen.has(service.id)) throw new RangeError(`Duplicate service id "${service.id}"`);
    seen.add(service.id);
  }
  const store = options.store ?? createMemoryStatusStore();
  const logger = options.logger ?? console;
  const bounded = boundStore(store, { timeoutMs: toTimeoutMs(options.storeTimeoutMs, DEFAULT_STORE_TIMEOUT_MS), logger, name: 'Status store' });
  const now = options.now ?? Date.now;
  const page = options.page ?? { name: 'Status', url: '' };
  const staleAfterSeconds = options.staleAfterSeconds ?? 120;
  const failuresBeforeDown = options.failuresBeforeDown ?? 2;
  if (!Number.isInteger(staleAfterSeconds) || staleAfterSeconds < 1) throw new RangeError('staleAfterSeconds must be a positive integer');
  if (!Number.isInteger(failuresBeforeDown) || failuresBeforeDown < 1) throw new RangeError('failuresBeforeDown must be a positive integer');
  const cacheMs = (options.cacheSeconds ?? 30) * 1000;
  const kept = cacheControl({ scope: 'public', maxAge: options.cacheSeconds ?? 30 });
  const refreshWaitMs = options.refreshWaitMs ?? 250;
  if (!(Number.isFinite(refreshWaitMs) && refreshWaitMs >= 0)) throw new RangeError(`refreshWaitMs must be a number of milliseconds of at least 0, got ${String(refreshWaitMs)}`);

  /** What a snapshot is made of from the store. */
  interface Records {
    segments: CheckSegment[];
    maintenances: MaintenanceRecord[];
  }
  async function read(at: number): Promise<Records> {
    const [segments, maintenances] = await Promise.all([bounded.listSegments(toWindowStart(at)), bounded.listMaintenances()]);
    return { segments, maintenances };
  }
  const build = ({ segments, maintenances }: Records, at: number) =>
    toSnapshot({ services, segments, maintenances, page, now: at, staleAfterSeconds, failuresBeforeDown });

  async function snapshot(): Promise<StatusSnapshot> {
    const at = now();
    return build(await read(at), at);
  }

  /** One generation in the background: its result, and a deadline that resolves `refreshWaitMs` after it began. */
  interface Generation {
    result: Promise<StatusSnapshot>;
    deadline: Promise<undefined>;
    /** The deadline has passed: requests no longer wait for this generation. */
    late: boolean;
  }

  // Single flight: requests after expiry share one generation. A maintenance change bumps
  // `version`: a generation that began before it may have read the old records, so it is neither
  // kept nor shared with requests that arrive after the change. `last` holds the records of the
  // last snapshot kept, to answer from while the store is slow or lost.
  let cached: { snapshot: StatusSnapshot; expiresAt: number } | undefined;
  let last: Records | undefined;
  let pending: Generation | undefined;
  let version = 0;
  // What is answered from `last`, rebuilt at most once a second however many requests ask.
  let fallback: { records: Records; snapshot: StatusSnapshot; until: number } | undefined;

  function generate(at: number): Generation {
    const started = version;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const generation: Generation = { result: undefined as unknown as Promise<StatusSnapshot>, deadline: undefined as unknown as Promise<undefined>, late: false };
    generation.deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        generation.late = true;
        resolve(undefined);
      }, refreshWaitMs);
    });
    generation.result = read(at)
      .then((records) => {
        const fresh = build(records, at);
        if (started === version) {
          last = records;
          cached = { snapshot: fresh, expiresAt: at + cacheMs };
        }
        return fresh;
      })
      .finally(() => {
        clearTimeout(timer);
        if (pending === generation) pending = undefined;
      });
    // Requests may all have been answered from `last` before it fails: its failure is heard here.
    // A lost or slow store is logged once per outage, where its calls are bounded.
    generation.result.catch((error: unknown) => {
      if (!(error instanceof ApiError)) logger.error('Status snapshot could not be generated', error);
    });
    return generation;
  }

  async function current(): Promise<StatusSnapshot> {
    const at = now();
    if (cached && at < cached.expiresAt) return cached.snapshot;
    const generation = (pending ??= generate(at));
    if (!generation.late || !last) {
      try {
        const fresh = await Promise.race([generation.result, generation.deadline]);
        if (fresh) return fresh;
      } catch (error) {
        if (!last) throw error;
      }
    }
    if (!last) throw new Error('no snapshot within refreshWaitMs');
    // The last records, evaluated now: stale results show as stale, not as they were.
    const later = now();
    if (!fallback || fallback.records !== last || later >= fallback.until) fallback = { records: last, snapshot: build(last, later), until: later + 1000 };
    return fallback.snapshot;
  }

  async function served(): Promise<StatusSnapshot> {
    try {
      return await current();
    } catch {
      throw new ApiError(503, 'Status snapshot unavailable', 'The status store could not be read. Please try again shortly.', {
        'retry-after': '1',
      });
    }
  }

  // The page of the snapshot last served: one rendering per snapshot, however many readers.
  let rendered: { snapshot: StatusSnapshot; html: string } | undefined;
  const pageReply = async (): Promise<Reply> => {
    const snapshot = await served();
    if (rendered?.snapshot !== snapshot) rendered = { snapshot, html: toStatusPage(snapshot) };
    return {
      body: null,
      text: rendered.html,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': kept,
        'content-security-policy': STATUS_PAGE_CSP,
        'x-content-type-options': 'nosniff',
      },
    };
  };

  const routes: Route<null>[] = [
    { path: STATUS_PATH, handler: async () => ok(await served(), { 'cache-control': kept }) },
    { path: STATUS_PAGE_PATH, handler: pageReply },
    { path: '/', handler: pageReply },
  ];

  const handle = createPipeline({ routes, context: null, middleware: options.middleware, logger });
  const owns = (path: string) => path === STATUS_PATH || path.startsWith(`${STATUS_PATH}/`) || path === STATUS_PAGE_PATH;
  const maintenance = createMaintenanceManager({
    store: bounded,
    now,
    serviceIds: services.map((service) => service.id),
    onChange: () => {
      version++;
      cached = undefined;
      pending = undefined;
    },
  });
  return toApp(handle, owns, { snapshot, store, maintenance });
}
