/**
 * `createCatalogueApp`: the catalogue API as one pipeline with two doors.
 * @module
 */
import { EXPOSED, toApp, type App, type Middleware } from './edge/http.js';
import { ApiError } from './edge/errors.js';
import { admitStore, toAdmissionLimits, type AdmissionOptions } from './edge/admission.js';
import { boundStore, DEFAULT_STORE_TIMEOUT_MS, toTimeoutMs } from './edge/bounded-store.js';
import { answersInProcess } from './seam/memory-store.js';
import { toCanonicalPath } from './edge/request-target.js';
import { toDeprecationHeaders, type DeprecationOptions } from './operations/deprecation.js';
import { createPipeline, type Logger, type Route } from './edge/pipeline.js';
import { createGateway, type GatewayOptions } from './gateway/gateway.js';
import { createCacheKeys } from './gateway/cache-key.js';
import { readsOf, trackReads } from './gateway/reads.js';
import { createMemoryStore } from './seam/memory-store.js';
import { DEFAULT_CDN_URL } from './seam/image-host.js';
import { createRecordSerializer } from './seam/record-json.js';
import { createOpenApiRoute, OPENAPI_PATH } from './catalogue/openapi.js';
import { catalogueRoutes } from './catalogue/routes/index.js';
import type { CatalogueContext } from './catalogue/routes/context.js';
import type { CatalogueStore } from './seam/types.js';
import type { ChangeFeed } from './seam/changes.js';

/** Options of {@link createCatalogueApp}. */
export interface CatalogueAppOptions {
  /** Where the catalogue lives: the records every endpoint is computed from. @default an empty memory store */
  store?: CatalogueStore;
  /**
   * Longest wait for one store call, in milliseconds, whatever the store waits on (a pool
   * connection, a reconnect, a frozen socket). Past it, or when the store throws a
   * `StoreUnavailableError`, the request gets 503 `ServiceUnavailableException` with
   * `Retry-After: 1` (spec, Errors), and the next request tries the store again. `Infinity` turns
   * the timer off. A store `createMemoryStore` made is not timed: its calls do their work as
   * they are called. @default 5000
   */
  storeTimeoutMs?: number;
  /**
   * Admission of store work: how many store calls of each kind run at once, and how many may wait
   * for a turn and how long, before a request gets 503 `ServiceUnavailableException` with
   * `Retry-After: 1` (spec, Errors: "API offline or busy") instead of piling up. `search` covers
   * searches and other list queries (`/v1/anime?q=…`, top lists, seasons, id lists), `read` the
   * rest (one record by id, its `full` object, characters, episodes…), each with its own bounds, so
   * that slow searches never take every connection of the store's pool and a read by id is still
   * answered at once. The defaults leave 8 of PostgreSQL's default 10 connections to reads; keep
   * `search.concurrency` below the pool's size, and about the database's CPU cores (a search is
   * CPU work for it: more at once adds no throughput, only waiting for every other query). A
   * waiting call does not count towards `storeTimeoutMs`. `false` turns admission off (every call
   * goes straight to the store). Answers from the gateway's cache reach no store and are never
   * held back. Nor are the calls of a store `createMemoryStore` made: they do their work as
   * they are called, in this process, so there is nothing to queue.
   * @default { search: { concurrency: 2, queue: 64, waitMs: 1000 }, read: { concurrency: 32, queue: 1024, waitMs: 1000 } }
   */
  admission?: AdmissionOptions | false;
  /** The clock, in milliseconds since the epoch; injected so that tests control time. @default Date.now */
  now?: () => number;
  /**
   * Random numbers in [0, 1) for `/v1/random/*`, one per request; injected so that tests control the picks.
   * @default Math.random
   */
  random?: () => number;
  /** Where unexpected failures are logged (clients only ever see the 500 envelope). @default console */
  logger?: Logger;
  /**
   * Stages run around routing, outermost first: the gateway (keys, rate limits, blocks, cache)
   * plugs in here. They see every GET and HEAD request; OPTIONS and other methods are answered before them.
   */
  middleware?: readonly Middleware[];
  /**
   * The gateway (spec: Authentication, Errors, Limits, Caching): Server Keys, rate limits per tier,
   * temporary 403 blocks and the response caches, in memory unless `gateway.backend` says otherwise.
   * On by default with the spec's limits. Pass `false` to turn it off whole, e.g. in tests that send
   * many requests from one app, or `{ rateLimit: false }` to keep keys and caching but not limits.
   * It runs inside `middleware`, just before routing. @default {}
   */
  gateway?: GatewayOptions | false;
  /**
   * The image CDN: image paths that begin with `/s/` are served as `{cdnUrl}/images/s/…` (spec,
   * "Other resources"), so that clients always get absolute URLs. @default 'https://cdn.myanimelist.net'
   */
  cdnUrl?: string;
  /**
   * The path prefix under which a host serves the app and strips before the app sees a request,
   * such as Express's `use('/catalogue', toNodeHandler(app))`. Error envelopes then name the path
   * the client asked for (`"path": "/catalogue/v1/nope"`), and the OpenAPI document's `servers`
   * is `[{ url: '/catalogue' }]`, so that Swagger UI calls `/catalogue/v1/…`. Routing is unchanged:
   * the app still answers `/v1/…`. No trailing slash. @default ''
   */
  mountPath?: string;
  /**
   * Announces this version's end on every answer, whatever its status: `Deprecation` (RFC 9745),
   * `Sunset` (RFC 8594) and `Link: <successorUrl>; rel="successor-version"`. Serve the successor
   * beside it with `combineApps` (docs/operations.md, "Retiring a version").
   * @default none
   */
  deprecation?: DeprecationOptions;
}

/**
 * Creates the catalogue API: `/v1/anime` and the rest, with validation, SFW filtering, paging,
 * the error envelope, HEAD/OPTIONS/405 and CORS.
 * @param options - Store, clock, logger, middleware, gateway, image CDN and mount path.
 * @returns The app, with its `fetch` and `handle` doors.
 * @throws TypeError when `mountPath` is not a path such as `/catalogue`.
 * @throws {RangeError} when `storeTimeoutMs` is not a positive number, or an `admission` bound is
 *   not a positive integer (`concurrency`), an integer of at least 0 (`queue`) or a number of at
 *   least 0 (`waitMs`).
 * @example
 * ```ts
 * import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 *
 * const app = createCatalogueApp({ store: createMemoryStore(demoData) });
 * const res = await app.fetch(new Request('http://localhost/v1/anime?q=naruto'));
 * ```
 */
export function createCatalogueApp(options: CatalogueAppOptions = {}): App {
  const mountPath = toMountPath(options.mountPath);
  const docs = `${mountPath}${OPENAPI_PATH}`;
  const logger = options.logger ?? console;
  const given = options.store ?? createMemoryStore();
  const timeoutMs = toTimeoutMs(options.storeTimeoutMs, DEFAULT_STORE_TIMEOUT_MS);
  // A memory store's calls do their work as they are called: nothing to time out or to queue.
  const inProcess = answersInProcess(given);
  const store = inProcess ? given : boundStore(given, { timeoutMs, logger, name: 'Catalogue store' });
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const contextOf = (records: CatalogueStore): CatalogueContext => ({ records, now, random });
  let context = contextOf(store);
  let routes: Route<CatalogueContext>[] = [...catalogueRoutes, createOpenApiRoute(mountPath)];
  let search: CatalogueContext | undefined;
  // Checked whether or not they are used: a bad bound is refused for every store alike.
  const admission = options.admission || undefined;
  const readLimits = toAdmissionLimits('read', admission?.read);
  const searchLimits = toAdmissionLimits('search', admission?.search);
  if (options.admission !== false && !inProcess) {
    // One context per kind of work, each over the store behind that kind's gate: a route's row
    // says which it does, and its handler is given that context.
    const read = admitStore(store, 'read', readLimits);
    search = contextOf(admitStore(store, 'search', searchLimits));
    context = contextOf(read);
  }
  // With a change feed, the gateway keeps, with each answer, what its route read: the route then
  // reads through a view of its store that notes the reads of that one request (a cache miss).
  const changes = options.gateway === false || options.gateway?.cache === false ? undefined : options.store?.changes;
  routes = routes.map((route) => {
    const own = route.work === 'search' ? search : undefined;
    if (!own && !changes) return route;
    return {
      ...route,
      handler: (request, given) => {
        const base = own ?? given;
        const reads = changes && readsOf(request.request);
        return route.handler(request, reads ? contextOf(trackReads(base.records, reads)) : base);
      },
    };
  });
  const handle = createPipeline({
    routes,
    mountPath,
    notFound: (path) => new ApiError(404, `No endpoint at ${path}`, `Every endpoint is under ${mountPath}/v1; the API is described at ${docs} (OpenAPI 3.1).`),
    context,
    middleware: withGateway(options, changes),
    logger,
    serialize: createRecordSerializer(options.cdnUrl ?? DEFAULT_CDN_URL),
    headers: versionHeaders(options.deprecation),
    headersOn: isVersionPath,
  });
  // A path is the app's as the pipeline will see it, so that `/v1/../admin` is not taken for the app's.
  const owns = (path: string) => {
    const canonical = toCanonicalPath(path);
    return canonical !== undefined && isVersionPath(canonical);
  };
  return toApp(handle, owns, undefined, isVersionPath);
}

/** Whether a canonical path is the API version's: `/v1` and below. */
function isVersionPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

/** `mountPath` as given, checked: empty, or `/` and segments without a trailing slash. */
function toMountPath(mountPath: string | undefined): string {
  if (!mountPath || mountPath === '/') return '';
  if (!/^(?:\/[\w\-.~%!$&'()*+,;=:@]+)+$/.test(mountPath)) {
    throw new TypeError(`mountPath must be a path such as "/catalogue", without a trailing slash, not ${JSON.stringify(mountPath)}`);
  }
  return mountPath;
}

function versionHeaders(deprecation: DeprecationOptions | undefined): Record<string, string> | undefined {
  const headers = toDeprecationHeaders(deprecation);
  if (Object.keys(headers).length === 0) return undefined;
  // Browsers read them from cross-origin answers only when exposed (Fetch, CORS).
  headers['access-control-expose-headers'] = `${EXPOSED}, ${Object.keys(headers).map(toHeaderCase).join(', ')}`;
  return headers;
}

function toHeaderCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function withGateway(options: CatalogueAppOptions, changes: ChangeFeed | undefined): readonly Middleware[] | undefined {
  if (options.gateway === false) return options.middleware;
  const context = { now: options.now, logger: options.logger ?? console, mountPath: toMountPath(options.mountPath), changes, cacheKey: createCacheKeys() };
  const gateway = createGateway(options.gateway, context);
  return [...(options.middleware ?? []), gateway];
}

