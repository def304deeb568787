/**
 * The gateway: tiers and Server Keys, rate limits, temporary blocks and response caching, as one
 * middleware stage of the catalogue pipeline (spec: Authentication, Errors, Limits, Caching).
 * @module
 */
import { ApiError, toApiError } from '../edge/errors.js';
import { cacheControl, type MatchedRoute, type Middleware, type PlainRequest, type PlainResponse } from '../edge/http.js';
import type { Logger } from '../edge/pipeline.js';
import type { BlockPolicy, CacheStore, CachedResponse, CounterWindow, GatewayBackend, KeyStore } from './back-end.js';
import { DEFAULT_BLOCK_POLICY, createMemoryBlockStore } from './blocks.js';
import { createMemoryCacheStore, matchesIfNoneMatch, toEtag, toHttpDate } from './cache.js';
import { createClientIdentifier, type TrustProxy } from './client-address.js';
import { createFreshness, type Freshness } from './freshness.js';
import { createStaticKeyStore, type FingerprintSecret } from './keys.js';
import { trackRequest } from './reads.js';
import type { ChangeFeed } from '../seam/changes.js';
import {
  createMemoryCounterStore,
  findBlockingWindow,
  toCounterWindows,
  toRateLimitTexts,
  toSeconds,
  toWindowSpecs,
  type RateLimitOptions,
  type Tier,
  type WindowSpec,
} from './rate-limit.js';

/** Response-cache settings. */
export interface GatewayCacheOptions {
  /** Lifetime of public cache entries, in milliseconds. @default 86_400_000 (24 hours, as Jikan v4) */
  publicTtlMs?: number;
  /** Lifetime of Server Key cache entries (spec, "Caching"). @default 600_000 (10 minutes) */
  serverTtlMs?: number;
  /**
   * Longest lifetime of a list page (a search, a season, a schedule, a top list): with a store's
   * change feed, a list is dropped when one of its members or its collection's membership changes,
   * and a record that only starts to match, or moves in the order, shows once the page expires.
   * @default 3_600_000 (1 hour)
   */
  listTtlMs?: number;
  /**
   * Which paths may be cached. A route of the app whose row says `cache: 'no-store'` (the random
   * picks: each request returns a fresh pick) never is, whatever this says.
   * @default every path
   */
  cacheable?: (path: string) => boolean;
}

/**
 * Options of the gateway, given to `createCatalogueApp({ gateway })`. Every part is on by default
 * with in-memory back ends; `false` turns a part off.
 */
export interface GatewayOptions {
  /**
   * Where counters, blocks, keys and cached responses live.
   * @default in memory, for one process (see `createMemoryGatewayBackend`)
   */
  backend?: GatewayBackend;
  /**
   * The Server Keys: a list, or a key store. When absent, the back end's key store, else none.
   * Keys are compared in constant time and never logged.
   */
  keys?: readonly string[] | KeyStore;
  /**
   * The deployment's secret for the fingerprints of the `keys` listed here (which name a key's
   * counters and its access-log lines); the same on every instance, so that they agree. A back
   * end's or your own key store has its own.
   * @default a random secret of this process
   */
  fingerprintSecret?: FingerprintSecret;
  /**
   * Path patterns that answer 401 without a valid Server Key: `:name` matches one segment, a final
   * `*` matches the rest (`/v1/top/*`, `/v1/anime/:id/full`).
   * @default []
   */
  restrictedRoutes?: readonly string[];
  /** Limits per tier, or `false` for none (benchmarks only). @default the spec's table */
  rateLimit?: RateLimitOptions | false;
  /** When ignoring 429s gets a public client blocked (403), or `false` for never. @default {@link DEFAULT_BLOCK_POLICY} */
  blocks?: Partial<BlockPolicy> | false;
  /** Response caching, or `false` for none (ETags and 304s remain). @default on */
  cache?: GatewayCacheOptions | false;
  /** Which proxies may set `X-Forwarded-For`. @default false */
  trustProxy?: TrustProxy;
  /**
   * Longest wait for the back end per call; past it the request gets 503 with `Retry-After: 1`.
   * @default the back end's `timeoutMs`, else 250
   */
  timeoutMs?: number;
}

/** What the app adds to {@link GatewayOptions}. */
export interface GatewayContext {
  /** The clock. @default Date.now */
  now?: () => number;
  /** Told once when the back end fails after working (never told keys). */
  logger?: Logger | undefined;
  /** The app's `mountPath`, for paths named in error messages (as in the envelope's `path`). @default '' */
  mountPath?: string | undefined;
  /**
   * The store's change feed: each cached answer then records what it read and is dropped, on every
   * instance, as soon as a change to any of it is committed (docs/deploying.md, "Caching and
   * changes"). The app's routes must read through `trackReads` for it (`createCatalogueApp` does).
   */
  changes?: ChangeFeed | undefined;
  /**
   * The cache key of a request: its path and its query as its route (the one the pipeline
   * matched) parses it, so that one query has one entry (`createCacheKeys`); `undefined` for a
   * query that does not parse.
   * @default the path and the raw query
   */
  cacheKey?: ((route: MatchedRoute | undefined, path: string, query: string) => string | undefined) | undefined;
}

/** Options of {@link createMemoryGatewayBackend}. */
export interface MemoryGatewayBackendOptions {
  /**
   * Bound of the two response caches together, in bytes of what they hold (keys, headers and
   * bodies, plus a fixed cost per entry). A number is shared three to one between the public and
   * the Server Key cache, so that public traffic never pushes out Server Key answers; `{ public,
   * server }` sets each.
   * @default 64 MiB (48 MiB public, 16 MiB Server Key)
   */
  cacheMaxBytes?: number | { public: number; server: number };
  /** Longest cache key (path and query, in characters); longer requests are answered but not cached. @default 2048 */
  cacheMaxKeyLength?: number;
  /**
   * Most rate-limit windows kept (about 250 bytes each; one per client seen today, two more for a
   * client seen this minute). Past it the least recently counted client's day window is forgotten
   * first: its count restarts, so it may get more than its quota, never less.
   * @default 100_000
   */
  counterMaxEntries?: number;
  /**
   * Most clients kept by the block store in each of its maps (refusals of the last minute; blocks,
   * kept a day after they end so that a repeat doubles). Past it the oldest go first.
   * @default 100_000
   */
  blockMaxEntries?: number;
}

/**
 * The in-memory back end: counters, blocks and the two caches for one process, each bounded.
 * @param options - Cache, counter and block bounds.
 * @returns The back end.
 * @example
 * ```ts
 * import { createCatalogueApp, createMemoryGatewayBackend } from '@catalogue-api/core';
 *
 * // One process: the two response caches hold up to 16 MiB together.
 * const app = createCatalogueApp({ gateway: { backend: createMemoryGatewayBackend({ cacheMaxBytes: 16 * 1024 * 1024 }) } });
 * ```
 */
export function createMemoryGatewayBackend(options: MemoryGatewayBackendOptions = {}): GatewayBackend {
  const total = options.cacheMaxBytes ?? 64 * 1024 * 1024;
  const bytes = typeof total === 'number' ? { public: Math.floor((total * 3) / 4), server: Math.floor(total / 4) } : total;
  const maxKeyLength = options.cacheMaxKeyLength;
  return {
    counters: createMemoryCounterStore({ maxEntries: options.counterMaxEntries }),
    blocks: createMemoryBlockStore({ maxEntries: options.blockMaxEntries }),
    publicCache: createMemoryCacheStore({ maxBytes: bytes.public, maxKeyLength }),
    serverCache: createMemoryCacheStore({ maxBytes: bytes.server, maxKeyLength }),
  };
}

const decoder = new TextDecoder();
const UNAVAILABLE = Symbol('unavailable');

function compileRoutes(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regexes = patterns.map((pattern) => {
    const segments = pattern.replace(/\/+$/, '').split('/');
    const last = segments[segments.length - 1] === '*' ? segments.pop() : undefined;
    const body = segments
      .map((segment) => (segment.startsWith(':') || segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${body}${last ? '(?:/.*)?' : ''}/?$`);
  });
  return (path) => regexes.some((regex) => regex.test(path));
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `next(value)`, at once when `value` is not a promise. The gateway's steps answer this way, so that
 * a request none of whose back-end calls waits (a hit on the in-memory cache, counted in memory)
 * goes through without a promise or a microtask of its own: each async step had cost one of each,
 * and their garbage, on every cache hit.
 */
function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return isThenable(value) ? value.then(next) : next(value);
}

function toRateHeaders(windows: readonly CounterWindow[], counts: readonly number[], now: number): Record<string, string> {
  // Report the window closest to running out (IETF draft-ietf-httpapi-ratelimit-headers-06).
  let best = 0;
  let bestRemaining = Infinity;
  for (let i = 0; i < windows.length; i++) {
    const remaining = Math.max(0, windows[i]!.limit - counts[i]!);
    if (remaining < bestRemaining) [best, bestRemaining] = [i, remaining];
  }
  const w = windows[best]!;
  return {
    'ratelimit-limit': String(w.limit),
    'ratelimit-remaining': String(bestRemaining),
    'ratelimit-reset': String(Math.max(1, Math.ceil((w.resetAt - now) / 1000))),
  };
}

/** What one gateway holds: its resolved settings and its per-process tables. */
interface GatewayState {
  readonly clock: () => number;
  readonly logger: Logger | undefined;
  readonly mountPath: string;
  readonly backend: GatewayBackend;
  readonly timeoutMs: number;
  readonly keys: KeyStore;
  readonly isRestricted: (path: string) => boolean;
  readonly identify: (request: PlainRequest) => string;
  /** Each tier's windows; none: rate limits are off. */
  readonly specs: Record<Tier, WindowSpec[]> | undefined;
  readonly blockPolicy: BlockPolicy | undefined;
  readonly ttl: Record<Tier, number>;
  readonly caches: Record<Tier, CacheStore>;
  /** Whether an answer may be kept: caching is on, its route's row allows it and so does `cache.cacheable`. */
  readonly cacheable: (path: string, route: MatchedRoute | undefined) => boolean;
  /** The longest life of a list page. */
  readonly listTtl: number;
  /** The change log the cache follows, when the store has a feed and caching is on. */
  readonly freshness: Freshness | undefined;
  readonly cacheKey: GatewayContext['cacheKey'];
  /** Blocks this process has seen, so a blocked client costs no back-end call (docs/specification.md: Blocks). */
  readonly knownBlocks: Map<string, number>;
  /** Cache misses being loaded, so concurrent misses for one key run the routes once. */
  readonly inflight: Map<string, Promise<CachedResponse | PlainResponse>>;
  /** The headers a hit on each cache entry answers with, made once a second at most. */
  readonly hitHeaders: WeakMap<CachedResponse, HitHeaders>;
  /** The 503s of an unreachable back end, told apart from the routes' own for the request's trace. */
  readonly outages: WeakSet<ApiError>;
  /** Whether the back end answered last time (an outage is logged once, when it starts). */
  healthy: boolean;
}

/** Resolves the options against their defaults. */
function gatewayState(options: GatewayOptions, context: GatewayContext): GatewayState {
  const backend = options.backend ?? createMemoryGatewayBackend();
  const keys: KeyStore =
    options.keys === undefined
      ? (backend.keys ?? createStaticKeyStore([]))
      : Array.isArray(options.keys)
        ? createStaticKeyStore(options.keys as readonly string[], { fingerprintSecret: options.fingerprintSecret })
        : (options.keys as KeyStore);
  const limits = options.rateLimit === false ? undefined : options.rateLimit;
  const specs = options.rateLimit === false ? undefined : { public: toWindowSpecs('public', limits?.public), server: toWindowSpecs('server', limits?.server) };
  const cacheOptions = options.cache === false ? undefined : (options.cache ?? {});
  const userCacheable = cacheOptions?.cacheable ?? (() => true);
  return {
    clock: context.now ?? Date.now,
    logger: context.logger,
    mountPath: context.mountPath ?? '',
    backend,
    timeoutMs: options.timeoutMs ?? backend.timeoutMs ?? 250,
    keys,
    isRestricted: compileRoutes(options.restrictedRoutes ?? []),
    identify: createClientIdentifier(options.trustProxy),
    specs,
    blockPolicy: options.blocks === false || !specs ? undefined : { ...DEFAULT_BLOCK_POLICY, ...options.blocks },
    ttl: { public: cacheOptions?.publicTtlMs ?? 86_400_000, server: cacheOptions?.serverTtlMs ?? 600_000 },
    caches: { public: backend.publicCache, server: backend.serverCache },
    cacheable: (path, route) => cacheOptions !== undefined && route?.cache !== 'no-store' && userCacheable(path),
    listTtl: cacheOptions?.listTtlMs ?? 3_600_000,
    freshness: cacheOptions && context.changes ? createFreshness(context.changes, { onError: feedError(context.logger) }) : undefined,
    cacheKey: context.cacheKey,
    knownBlocks: new Map(),
    inflight: new Map(),
    hitHeaders: new WeakMap(),
    outages: new WeakSet(),
    healthy: true,
  };
}

/** The 503 of an unreachable back end (logged once, when the outage starts). */
function unavailable(g: GatewayState, cause: unknown, tier: Tier): ApiError {
  if (g.healthy) {
    g.healthy = false;
    g.logger?.error('Gateway back end unavailable; answering 503 until it recovers', cause === UNAVAILABLE ? `no answer within ${g.timeoutMs} ms` : cause);
  }
  const headers: Record<string, string> = { 'retry-after': '1' };
  const spec = g.specs?.[tier][0];
  // Nothing is admitted while accounting is down: the tier's tightest window reads as spent for 1 s.
  if (spec) Object.assign(headers, { 'ratelimit-limit': String(spec.limit), 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
  const error = new ApiError(503, 'Service Unavailable', 'Rate-limit accounting is temporarily unavailable. Retry in 1 second.', headers);
  g.outages.add(error);
  return error;
}

/**
 * A back-end answer within the timeout; any failure becomes the 503 error. An answer the back end
 * gives at once (the in-memory one) is returned as it is, not wrapped in a promise.
 */
function settle<T>(g: GatewayState, call: () => T | Promise<T>, tier: Tier = 'public'): T | Promise<T> {
  let value: T | Promise<T>;
  try {
    value = call();
  } catch (cause) {
    throw unavailable(g, cause, tier);
  }
  return isThenable(value) ? settleLater(g, value, tier) : value;
}

async function settleLater<T>(g: GatewayState, value: Promise<T>, tier: Tier): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([
      value,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(UNAVAILABLE), g.timeoutMs);
      }),
    ]);
    g.healthy = true;
    return result;
  } catch (cause) {
    throw unavailable(g, cause, tier);
  } finally {
    clearTimeout(timer);
  }
}

function blockedUntil(g: GatewayState, id: string, now: number): number | null | Promise<number | null> {
  const known = g.knownBlocks.get(id);
  if (known !== undefined) {
    if (known > now) return known;
    g.knownBlocks.delete(id);
  }
  return andThen(settle(g, () => g.backend.blocks.blockedUntil(id, now)), (until) => {
    if (until !== null) rememberBlock(g, id, until, now);
    return until;
  });
}

function rememberBlock(g: GatewayState, id: string, until: number, now: number): void {
  const known = g.knownBlocks;
  if (known.size >= 10_000) for (const [other, end] of known) if (end <= now) known.delete(other);
  if (known.size < 10_000) known.set(id, until);
}

/**
 * The last 403 built: a blocked client that keeps sending (a pipelining flood of 100,000 requests)
 * gets the same error, and so the same envelope from `errorResponse`, until its seconds left change.
 */
let lastForbidden: { until: number; seconds: string; spec: WindowSpec | undefined; error: ApiError } | undefined;

function forbidden(until: number, now: number, spec: WindowSpec | undefined): ApiError {
  const seconds = String(Math.max(1, Math.ceil((until - now) / 1000)));
  const last = lastForbidden;
  if (last !== undefined && last.until === until && last.seconds === seconds && last.spec === spec) return last.error;
  const headers: Record<string, string> = { 'retry-after': seconds };
  if (spec) Object.assign(headers, { 'ratelimit-limit': String(spec.limit), 'ratelimit-remaining': '0', 'ratelimit-reset': seconds });
  const error = new ApiError(
    403,
    'Forbidden: this client is temporarily blocked.',
    `Too many rate-limited requests came from this IP address; the block ends at ${new Date(until).toISOString()} (in ${toSeconds(Number(seconds))}).`,
    Object.freeze(headers),
  );
  lastForbidden = { until, seconds, spec, error };
  return error;
}

/**
 * Runs the routes for a cache miss and stores a 2xx answer with a body; with a change feed, with
 * the feed position read before the routes ran and what they read (see `freshness.ts`).
 */
async function load(g: GatewayState, request: PlainRequest, next: () => Promise<PlainResponse>, store: CacheStore, key: string, tier: Tier, now: number, previous: CachedResponse | undefined) {
  const fresh = g.freshness;
  const seq = fresh?.position;
  const reads = fresh ? trackRequest(request) : undefined;
  const response = await next();
  if (response.status < 200 || response.status >= 300 || response.body === null) return response;
  // Kept as text, which every cache back end stores: a body a store wrote as bytes is read once here.
  const body = typeof response.body === 'string' ? response.body : decoder.decode(response.body);
  const etag = response.etag ?? toEtag(body);
  const entry: CachedResponse = {
    status: response.status,
    headers: response.headers,
    body,
    etag,
    storedAt: now,
    expiresAt: now + g.ttl[tier],
    // The same body as the entry it replaces: what it says has not changed since.
    lastModified: previous?.etag === etag ? Math.min(now, previous.lastModified ?? previous.storedAt) : now,
  };
  let keep = true;
  if (reads) {
    // Routes that did not read through the tracking view depend, for all the gateway knows, on everything.
    const deps = reads.tracked ? reads.tokens() : undefined;
    keep = !reads.tracked || deps !== undefined;
    Object.assign(entry, { seq, feed: fresh!.feedId, deps });
    if (reads.list) entry.expiresAt = Math.min(entry.expiresAt, now + g.listTtl);
  }
  // Storing is not on the answer's path: a cache that cannot store costs only a later reload.
  if (keep) {
    try {
      const stored = settle(g, () => store.set(key, entry));
      if (isThenable(stored)) stored.catch(() => undefined);
    } catch {
      // As above: not stored.
    }
  }
  return entry;
}

/** Logs a change feed that starts failing (once per outage: see `createFreshness`). */
function feedError(logger: Logger | undefined): (error: unknown) => void {
  return (error) => logger?.error('Change feed unavailable; answering without the response cache until it is back', error);
}

/**
 * Waits for the change log to catch up, at most `ms`.
 * @returns Whether it did (else the cache cannot tell what is fresh).
 */
function inStep(fresh: Freshness, ms: number): boolean | Promise<boolean> {
  const waiting = fresh.pending();
  // The common case, a hit with nothing new in the feed: no promise.
  return waiting === undefined ? fresh.usable : caughtUp(fresh, waiting, ms);
}

async function caughtUp(fresh: Freshness, waiting: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([waiting.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)))]);
  clearTimeout(timer);
  return settled && fresh.usable;
}

/** The headers of a cache hit for one entry, tier and `max-age`. */
interface HitHeaders {
  tier: Tier;
  maxAge: number;
  headers: Readonly<Record<string, string>>;
  /** The same headers and the RateLimit ones, as the template of a rate-limited hit's own headers; never answered itself. */
  rated?: Record<string, string>;
}

function fromEntry(g: GatewayState, entry: CachedResponse, request: PlainRequest, tier: Tier, now: number, extra: Record<string, string> | undefined): PlainResponse {
  const maxAge = Math.max(0, Math.ceil((entry.expiresAt - now) / 1000));
  // Every hit on an entry within the same second answers the same headers: they are built once,
  // not spread again per request. That spread, and V8 moving each copy off a deprecated map, cost
  // more than the rest of a hit: a memory-cache hit went from 11.8 to 6.1 µs on Node 20
  // (`npm run bench -- --only gateway`). Frozen, as every answer of that second shares them.
  let made = g.hitHeaders.get(entry);
  if (made === undefined || made.maxAge !== maxAge || made.tier !== tier) {
    const headers = {
      ...entry.headers,
      etag: entry.etag,
      'last-modified': made?.headers['last-modified'] ?? toHttpDate(entry.lastModified ?? entry.storedAt),
      expires: made?.headers.expires ?? toHttpDate(entry.expiresAt),
      // Server Key answers are per customer: never for shared caches (docs/specification.md: Caching of Server Key answers).
      'cache-control': cacheControl({ scope: tier === 'server' ? 'private' : 'public', maxAge }),
      vary: 'X-Server-Key',
    };
    g.hitHeaders.set(entry, (made = { tier, maxAge, headers: Object.freeze(headers), rated: undefined }));
  }
  if (extra === undefined) return conditional(request, made.headers, entry.status, entry.body, entry.etag);
  // A rate-limited hit has headers of its own: a copy of a template that already has the
  // RateLimit names, then this request's values: ~0.08 µs on Node 20, where spreading the frozen
  // headers and the RateLimit ones per request took V8's slow path, ~0.2 µs of a ~6 µs hit.
  const headers = { ...(made.rated ??= { ...made.headers, ...extra }) };
  for (const name in extra) headers[name] = extra[name]!;
  return conditional(request, headers, entry.status, entry.body, entry.etag);
}

/**
 * Adds the RateLimit headers to an error from the routes. An unexpected failure becomes the 500
 * error here rather than in the pipeline, which would answer it without them; it is logged as
 * the pipeline would have, and its detail still never reaches the client.
 */
function withHeaders(g: GatewayState, error: unknown, headers: Record<string, string> | undefined, request: PlainRequest): unknown {
  if (!headers) return error;
  if (!(error instanceof ApiError)) {
    g.logger?.error(`Unhandled error on ${request.method} ${request.path}`, error);
    error = toApiError(error);
  }
  const known = error as ApiError;
  return new ApiError(known.status, known.message, known.error, { ...headers, ...known.headers });
}

function conditional(request: PlainRequest, headers: Readonly<Record<string, string>>, status: number, body: string | Uint8Array | null, etag: string): PlainResponse {
  const ifNoneMatch = request.header('if-none-match');
  if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, etag)) {
    if (request.trace) request.trace.cache = 'not_modified';
    // 304 repeats the caching headers of a 200 and has no body (RFC 9110 §15.4.5).
    const kept = { ...headers };
    delete kept['content-type'];
    delete kept['content-length'];
    return { status: 304, headers: kept, body: null };
  }
  return { status, headers: headers as Record<string, string>, body };
}

async function uncached(request: PlainRequest, next: () => Promise<PlainResponse>, route: MatchedRoute | undefined, tier: Tier, extra: Record<string, string> | undefined) {
  const response = await next();
  // Copied field by field: spread syntax took V8's slow path here (~1 µs of an uncached page on Node 20).
  const headers: Record<string, string> = {};
  for (const name in response.headers) headers[name] = response.headers[name]!;
  if (extra) for (const name in extra) headers[name] = extra[name]!;
  if (response.status < 200 || response.status >= 300 || response.body === null) return { ...response, headers };
  // Tagged by whoever wrote the body, when it could (the catalogue's serializer): not hashed again.
  const etag = response.etag ?? toEtag(response.body);
  headers.etag = etag;
  headers.vary = 'X-Server-Key';
  headers['cache-control'] = route?.cache === 'no-store' ? NO_STORE : tier === 'server' ? PRIVATE_REVALIDATE : PUBLIC_REVALIDATE;
  return conditional(request, headers, response.status, response.body, etag);
}

/** `Cache-Control` of uncached answers, written once. */
const NO_STORE = cacheControl('no-store');
const PRIVATE_REVALIDATE = cacheControl({ scope: 'private', maxAge: 0 });
const PUBLIC_REVALIDATE = cacheControl({ scope: 'public', maxAge: 0 });

/** Who is asking: the tier, the id its limits count under (`null`: nothing counts), and whether a sent key was refused. */
interface Caller {
  tier: Tier;
  id: string | null;
  keyRejected: boolean;
}

/** Verifies a sent Server Key and names the client; a blocked public client gets its 403 here. */
function identifyCaller(g: GatewayState, request: PlainRequest, now: number): Caller | Promise<Caller> {
  const suppliedKey = request.header('x-server-key');
  if (suppliedKey === undefined) return nameCaller(g, request, now, null, false);
  // `Authorization: Bearer` is deliberately not read: it grants nothing (spec, "Authentication" 3).
  return andThen(settle(g, () => g.keys.verify(suppliedKey)), (id) => nameCaller(g, request, now, id, id === null));
}

/** The caller of a request whose key, if it sent one, is verified: `id` is the key's, else `null`. */
function nameCaller(g: GatewayState, request: PlainRequest, now: number, keyId: string | null, keyRejected: boolean): Caller | Promise<Caller> {
  const tier: Tier = keyId !== null ? 'server' : 'public';
  let id = keyId;
  // A public client's identity serves its block and its rate windows only: without either (rate
  // limits and blocks off) the address is never looked at (Bun looks it up on demand).
  const internal = request.internalClient;
  let blockable = false;
  if (tier === 'public' && internal !== undefined) {
    // The host's own probe: its own bucket (so still counted in the back end), never a client's.
    id = `internal:${internal}`;
  } else if (tier === 'public' && (g.blockPolicy || g.specs?.public.length)) {
    id = g.identify(request);
    // Server Key traffic is never blocked; blocked requests are neither counted nor extend the block.
    blockable = g.blockPolicy !== undefined;
  }
  // Noted before the block is looked up: a 403, or a 503 from a lost back end, names its client too.
  if (request.trace) {
    request.trace.tier = tier;
    if (id !== null) request.trace.client = id;
  }
  const caller: Caller = { tier, id, keyRejected };
  if (!blockable) return caller;
  return andThen(blockedUntil(g, id!, now), (until) => {
    if (until === null) return caller;
    if (request.trace) request.trace.blocked = true;
    throw forbidden(until, now, g.specs?.public[0]);
  });
}

/**
 * Counts the request in every window of its tier at once.
 * @returns The RateLimit headers of the answer; none when the tier has no limits.
 * @throws ApiError 429 when a window is full (a public client's refusal is recorded towards a block).
 */
function countRequest(g: GatewayState, request: PlainRequest, { tier, id }: Caller, now: number): Record<string, string> | undefined | Promise<Record<string, string> | undefined> {
  const specs = g.specs?.[tier];
  if (!specs || specs.length === 0) return undefined;
  const windows = toCounterWindows(tier, id!, specs, now);
  return andThen(settle(g, () => g.backend.counters.hit(windows, now), tier), (result) =>
    result.allowed ? toRateHeaders(windows, result.counts, now) : refuse(g, request, tier, id!, specs, windows, findBlockingWindow(windows, result), now),
  );
}

/** The 429 of a full window `i`; a public client's refusal is recorded towards a block first. */
async function refuse(g: GatewayState, request: PlainRequest, tier: Tier, id: string, specs: readonly WindowSpec[], windows: readonly CounterWindow[], i: number, now: number): Promise<never> {
  const retryAfter = Math.max(1, Math.ceil((windows[i]!.resetAt - now) / 1000));
  if (tier === 'public' && g.blockPolicy && request.internalClient === undefined) {
    const until = await settle(g, () => g.backend.blocks.recordRejection(id, now, g.blockPolicy!));
    if (until !== null) rememberBlock(g, id, until, now);
  }
  if (request.trace) request.trace.limited = specs[i]!.name;
  const { message, error } = toRateLimitTexts(specs[i]!, tier, retryAfter);
  throw new ApiError(429, message, error, {
    'retry-after': String(retryAfter),
    'ratelimit-limit': String(windows[i]!.limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(retryAfter),
  });
}

/** What the gateway knows of one admitted request, for the steps that answer it. */
interface Admitted {
  readonly g: GatewayState;
  readonly request: PlainRequest;
  readonly next: () => Promise<PlainResponse>;
  readonly route: MatchedRoute | undefined;
  readonly tier: Tier;
  /** The RateLimit headers of the answer, when the tier has limits. */
  readonly extra: Record<string, string> | undefined;
  readonly now: number;
}

/** The answer to an admitted request: 401s, then the tier's cache or the routes. */
function respond(a: Admitted, caller: Caller): PlainResponse | Promise<PlainResponse> {
  const { g, request, route, tier } = a;
  // Canonical: the pipeline resolved it before any stage ran, and the router matches this same
  // path. Restricted routes, caching and the cache key read it, never a raw target.
  const path = request.path;
  if (caller.keyRejected) {
    throw new ApiError(
      401,
      'Invalid Server Key.',
      'The X-Server-Key header does not hold a recognized Server Key. Send a valid key, or no X-Server-Key header for public access.',
    );
  }
  if (tier !== 'server' && g.isRestricted(path)) {
    throw new ApiError(401, `${g.mountPath}${path} requires a Server Key.`, 'Send a valid Server Key in the X-Server-Key header. Authorization: Bearer is not supported.');
  }
  const fresh = g.freshness;
  // With a change feed, nothing is served from or kept in the cache unless the log is in step with it.
  const usable = g.cacheable(path, route) && (fresh === undefined || inStep(fresh, Math.max(g.timeoutMs, 1_000)));
  return andThen(usable, (inUse) => {
    if (inUse) return fromCache(a);
    if (request.trace) request.trace.cache = 'bypass';
    return uncached(request, a.next, route, tier, a.extra);
  });
}

/** The answer from the tier's cache: its entry, else the routes' answer, kept. */
function fromCache(a: Admitted): PlainResponse | Promise<PlainResponse> {
  const { g, request, route, tier, now } = a;
  const store = g.caches[tier];
  const path = request.path;
  const key = g.cacheKey?.(route, path, request.query) ?? (request.query ? `${path}?${request.query}` : path);
  let found: CachedResponse | undefined | Promise<CachedResponse | undefined>;
  try {
    found = settle(g, () => store.get(key, now));
  } catch {
    // An unreachable cache is a miss, not an outage: the routes can still answer.
    found = undefined;
  }
  if (!isThenable(found)) return fromEntryOrRoutes(a, store, key, found);
  return found.then(
    (entry) => fromEntryOrRoutes(a, store, key, entry),
    () => fromEntryOrRoutes(a, store, key, undefined),
  );
}

function fromEntryOrRoutes(a: Admitted, store: CacheStore, key: string, found: CachedResponse | undefined): PlainResponse | Promise<PlainResponse> {
  const { g, request, tier, now } = a;
  const fresh = g.freshness;
  let entry = found;
  let previous: CachedResponse | undefined;
  if (entry && fresh?.stale(entry)) [previous, entry] = [entry, undefined];
  if (request.trace) request.trace.cache = entry ? 'hit' : 'miss';
  if (entry) return fromEntry(g, entry, request, tier, now, a.extra);
  // A load begun before a change the log has since read is not joined.
  const flightKey = fresh ? `${tier}:${fresh.position}:${key}` : `${tier}:${key}`;
  let flight = g.inflight.get(flightKey);
  if (!flight) {
    flight = load(g, request, a.next, store, key, tier, now, previous).finally(() => g.inflight.delete(flightKey));
    g.inflight.set(flightKey, flight);
  }
  return flight.then((loaded) => {
    // Concurrent misses share `loaded`: each gets its own headers, which later stages may add to.
    if (!('storedAt' in loaded)) return { ...loaded, headers: { ...loaded.headers, ...a.extra } };
    return fromEntry(g, loaded, request, tier, now, a.extra);
  });
}

/** Steps of one request: who asks, counted, answered; without a promise where no back-end call waits. */
function admit(g: GatewayState, request: PlainRequest, next: () => Promise<PlainResponse>, route: MatchedRoute | undefined): PlainResponse | Promise<PlainResponse> {
  let answer: PlainResponse | Promise<PlainResponse>;
  try {
    const now = g.clock();
    answer = andThen(identifyCaller(g, request, now), (caller) =>
      andThen(countRequest(g, request, caller, now), (extra) => answered({ g, request, next, route, tier: caller.tier, extra, now }, caller)),
    );
  } catch (error) {
    throw traced(g, request, error);
  }
  return isThenable(answer) ? answer.catch((error: unknown) => Promise.reject(traced(g, request, error))) : answer;
}

/** `respond`, its errors given the RateLimit headers. */
function answered(a: Admitted, caller: Caller): PlainResponse | Promise<PlainResponse> {
  let answer: PlainResponse | Promise<PlainResponse>;
  try {
    answer = respond(a, caller);
  } catch (error) {
    throw withHeaders(a.g, error, a.extra, a.request);
  }
  if (a.extra === undefined || !isThenable(answer)) return answer;
  return answer.catch((error: unknown) => Promise.reject(withHeaders(a.g, error, a.extra, a.request)));
}

/** Notes on the trace a 503 of the back end's, told from the routes' own; returns the error. */
function traced(g: GatewayState, request: PlainRequest, error: unknown): unknown {
  if (request.trace && g.outages.has(error as ApiError)) request.trace.unavailable = true;
  return error;
}

/**
 * Creates the gateway middleware. `createCatalogueApp` does this for you from its `gateway` option;
 * call it yourself only to run the gateway in front of another pipeline.
 *
 * Per request, in order: an `X-Server-Key`, when sent, is verified (the Server Key tier counts per
 * key, the public tier per client IP); a blocked public client gets 403 and is not counted; one
 * atomic check counts the request in every window of its tier (429 when any is full, and nothing
 * is consumed); an unknown key or a restricted route without a valid key gets 401 (counted, so
 * that guessing keys is rate limited too); then the response comes from the tier's cache or the
 * routes. Cache hits count against the limits like any request.
 *
 * @param options - Back end, keys, restricted routes, limits, blocks, cache, proxies, timeout.
 * @param context - Clock and logger.
 * @returns The middleware.
 * @throws TypeError when a limit or `trustProxy` entry is malformed.
 * @example
 * ```ts
 * const app = createCatalogueApp({
 *   store,
 *   gateway: { keys: ['s3cret'], restrictedRoutes: ['/v1/top/*'], trustProxy: 1 },
 * });
 * ```
 */
export function createGateway(options: GatewayOptions = {}, context: GatewayContext = {}): Middleware {
  const g = gatewayState(options, context);
  // Reads the feed's recent history now, so that the first requests find the log ready.
  void g.freshness?.pending();
  return function gateway(request, next, route) {
    return admit(g, request, next, route);
  };
}
