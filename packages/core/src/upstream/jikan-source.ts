/**
 * A Jikan v4-compatible HTTP API as an {@link UpstreamSource}: the public Jikan
 * (`https://api.jikan.moe/v4`), a self-hosted jikan-rest, or another instance of this library
 * (`…/v1`). Polite by default: every request takes a slot of the source's budget (3/s and 60/min
 * unless told otherwise), names the library in its `User-Agent`, honours `Retry-After` by pausing
 * the whole source, backs off with jitter on 5xx and timeouts, abandons a request that hangs, and
 * stops asking while its circuit breaker is open. Web-standard `fetch` only.
 * @module
 */
import { JIKAN_LIMITS, checkLimits, sleepFor } from './budget.js';
import type { Budget, EntryPart, Fetched, ListName, ListPage, MediaKind, SourceHealth, UpstreamLimits, UpstreamSource } from './types.js';

/** This library's version, as in `packages/core/package.json` (a test keeps the two in sync). */
export const LIBRARY_VERSION = '0.1.0';

/** The `User-Agent` sent by default: the library, its version and where to read about it. */
export const DEFAULT_USER_AGENT = `catalogue-api/${LIBRARY_VERSION} (+https://github.com/catalogue-api/catalogue-api)`;

/** Options of {@link createJikanSource}. */
export interface JikanSourceOptions {
  /** A Jikan v4-compatible base URL, e.g. `https://api.jikan.moe/v4` or `https://mirror.example/v1`. */
  baseUrl: string;
  /** The source's budget; create it with the same `limits`. */
  budget: Budget;
  /** What the source allows (declared, for the refresher's planning). @default 3/s, 60/min */
  limits?: UpstreamLimits;
  /** The `User-Agent` header. @default `catalogue-api/<version> (+https://github.com/catalogue-api/catalogue-api)` */
  userAgent?: string;
  /** A request (answer and body) not done after this long is abandoned (real time). @default 15000 */
  timeoutMs?: number;
  /** Retries of one request after a 429, a 5xx, a timeout or a network error, each taking a budget slot. @default 3 */
  retries?: number;
  /** The first backoff; it doubles with each retry, with jitter in [half, whole]. @default 1000 */
  backoffMs?: number;
  /** The longest backoff. @default 30000 */
  maxBackoffMs?: number;
  /** A pause without `Retry-After` after a 429 or 503. @default 60000 */
  defaultPauseMs?: number;
  /** A request is retried after a `Retry-After` only when the pause is at most this long; else it fails at once (the pause still holds). @default 120000 */
  maxRetryWaitMs?: number;
  /** Requests failed in a row (after their retries) that open the circuit. @default 5 */
  breakerFailures?: number;
  /** How long the circuit stays open before one probe is let through. @default 60000 */
  breakerCoolDownMs?: number;
  /** Whether the upstream is this library (`changedIds`, `deletedIds`). @default a base path ending in `/v1` */
  thisLibrary?: boolean;
  /** A name for logs and metrics. @default the base URL's host */
  name?: string;
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Real time, ms since the epoch. @default Date.now */
  clock?: () => number;
  /** Waits (backoff), rejecting with the signal's reason on abort. @default a `setTimeout` */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1): the jitter. @default Math.random */
  random?: () => number;
}

/** Late budget slots in a row (see `Budget.late`) after which a request fails rather than taking another. */
const MAX_LATE_SLOTS = 10;

/** The anime-only listings. */
const ANIME_ONLY: ReadonlySet<ListName> = new Set(['upcoming', 'seasonNow', 'seasonUpcoming', 'schedules']);

/**
 * The path and query of a listing's page on a Jikan v4 API (see {@link ListName}).
 * @param kind - Anime or manga.
 * @param list - The listing.
 * @param page - From 1.
 */
export function listPath(kind: MediaKind, list: ListName, page: number): string {
  switch (list) {
    case 'newest':
      return `/${kind}?order_by=mal_id&sort=desc&page=${page}`;
    case 'sweep':
      return `/${kind}?order_by=mal_id&sort=asc&page=${page}`;
    case 'top':
      return `/top/${kind}?page=${page}`;
    case 'upcoming':
      return `/top/anime?filter=upcoming&page=${page}`;
    case 'seasonNow':
      return `/seasons/now?page=${page}`;
    case 'seasonUpcoming':
      return `/seasons/upcoming?page=${page}`;
    case 'schedules':
      return `/schedules?page=${page}`;
    case 'current':
      return kind === 'anime' ? `/anime?status=airing&page=${page}` : `/manga?status=publishing&page=${page}`;
  }
}

/**
 * The path of one part of one entry on a Jikan v4 API: `/{kind}/{id}/full` or `/{kind}/{id}/{part}`.
 * @param kind - Anime or manga.
 * @param id - The `mal_id`.
 * @param part - The part.
 */
export function entryPath(kind: MediaKind, id: number, part: EntryPart): string {
  return `/${kind}/${id}/${part}`;
}

/**
 * Why a 200's body is not an answer, or `undefined` when it is one: JSON with a `data` member that
 * is not `null`, and none of the marks of an error body (`error`, or a numeric `status` with a
 * `type`) a misbehaving upstream or cache serves as 200.
 * @param body - The parsed body.
 */
export function errorBodyReason(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  const object = body as Record<string, unknown>;
  if (typeof object.status === 'number' && object.status >= 400) return `an error body served as 200 (status ${object.status}${typeof object.type === 'string' ? `, ${object.type}` : ''})`;
  if (!('data' in object) || object.data === null || object.data === undefined) {
    return 'error' in object ? `an error body served as 200 (${String(object.error).slice(0, 200)})` : 'the body has no data';
  }
  return undefined;
}

/**
 * The wait a `Retry-After` asks for, in ms (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).
 * @param value - The header's value.
 * @param now - Now, ms since the epoch.
 * @returns The wait (0 or more), or `undefined` when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A request's result before the circuit breaker counts it. */
type Attempt =
  | { kind: 'done'; fetched: Fetched<unknown> }
  /** Not sent: its budget slot was too old by the time the request could leave. */
  | { kind: 'late' }
  | { kind: 'retry'; reason: string; pauseMs?: number | undefined };

/**
 * The upstream's base URL, checked.
 * @param baseUrl - An http(s) URL.
 * @throws RangeError for anything else.
 */
function parseBaseUrl(baseUrl: string): URL {
  let base: URL | undefined;
  try {
    base = new URL(baseUrl);
  } catch {
    // Refused below, with the same message.
  }
  if (base?.protocol !== 'http:' && base?.protocol !== 'https:') throw new RangeError(`baseUrl must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  return base;
}

/**
 * A request's headers: JSON, the user agent, and the validator of the copy held, if any.
 * @param userAgent - The `User-Agent`.
 * @param validator - An entity tag or a Last-Modified date, from the last answer.
 */
function requestHeaders(userAgent: string, validator: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
  if (validator !== undefined) {
    // An entity tag is quoted (RFC 9110 §8.8.3); anything else is a Last-Modified date.
    if (/^(W\/)?"/.test(validator)) headers['if-none-match'] = validator;
    else headers['if-modified-since'] = validator;
  }
  return headers;
}

/**
 * What one answer means: a body, unchanged, gone, worth retrying (after a pause the upstream
 * asked for, or a default one for a 429 without it) or failed.
 * @param response - The answer.
 * @param path - The path asked, for the reasons.
 * @param validator - The validator sent, if any (a 304 counts only then).
 * @param now - The clock, for `Retry-After` dates.
 * @param defaultPauseMs - The pause after a 429 without `Retry-After`.
 */
async function readAnswer(response: Response, path: string, validator: string | undefined, now: number, defaultPauseMs: number): Promise<Attempt> {
  const status = response.status;
  if (status === 200) {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { kind: 'done', fetched: { outcome: 'failed', reason: `${path}: 200 whose body is not JSON` } };
    }
    const reason = errorBodyReason(body);
    if (reason !== undefined) return { kind: 'done', fetched: { outcome: 'failed', reason: `${path}: ${reason}` } };
    const found = response.headers.get('etag') ?? response.headers.get('last-modified') ?? undefined;
    return { kind: 'done', fetched: { outcome: 'ok', body, validator: found } };
  }
  await response.body?.cancel().catch(() => undefined);
  if (status === 304 && validator !== undefined) return { kind: 'done', fetched: { outcome: 'unchanged' } };
  if (status === 404) return { kind: 'done', fetched: { outcome: 'not-found' } };
  if (status === 429 || status === 503) {
    const wait = retryAfterMs(response.headers.get('retry-after'), now);
    return { kind: 'retry', reason: `${path}: ${status}`, pauseMs: wait ?? (status === 429 ? defaultPauseMs : undefined) };
  }
  if (status >= 500) return { kind: 'retry', reason: `${path}: ${status}` };
  return { kind: 'done', fetched: { outcome: 'failed', reason: `${path}: ${status}` } };
}

/**
 * The backoff before retry `n` (from 0): doubling, capped, with "equal jitter" in [half, whole].
 * @param n - The retry, from 0.
 * @param firstMs - The first backoff.
 * @param maxMs - The cap.
 * @param random - A number in [0, 1).
 */
function backoff(n: number, firstMs: number, maxMs: number, random: () => number): number {
  const whole = Math.min(maxMs, firstMs * 2 ** n);
  return Math.round(whole / 2 + (random() * whole) / 2);
}

/**
 * A Jikan v4-compatible HTTP API as an upstream source.
 * @param options - The base URL, the budget and how polite to be.
 * @returns The source. `entry`, `list`, `changedIds` and `deletedIds` resolve to a {@link Fetched}
 * and reject only with the caller's signal's reason when it aborts.
 * @throws RangeError when the base URL is not an http(s) URL or a limit is not a positive whole number.
 * @example
 * ```ts
 * const limits = { perSecond: 3, perMinute: 60 };
 * const source = createJikanSource({
 *   baseUrl: 'https://api.jikan.moe/v4',
 *   budget: createBudget(createMemoryLedger(), limits),
 *   limits,
 * });
 * const bebop = await source.entry('anime', 1, 'full');
 * if (bebop.outcome === 'ok') console.log(bebop.body);
 * ```
 */
export function createJikanSource(options: JikanSourceOptions): UpstreamSource {
  const base = parseBaseUrl(options.baseUrl);
  const root = base.href.replace(/\/+$/, '');
  const limits = checkLimits(options.limits ?? JIKAN_LIMITS);
  const budget = options.budget;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const defaultPauseMs = options.defaultPauseMs ?? 60_000;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 120_000;
  const breakerFailures = options.breakerFailures ?? 5;
  const breakerCoolDownMs = options.breakerCoolDownMs ?? 60_000;
  const thisLibrary = options.thisLibrary ?? /\/v1$/.test(base.pathname.replace(/\/+$/, ''));
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;

  // The circuit breaker (per source): consecutive failures, and when an open circuit lets a probe through.
  let circuit: SourceHealth['circuit'] = 'closed';
  let failuresInRow = 0;
  let openUntil = 0;
  let lastError: string | undefined;
  let pausedUntil = 0;

  const pauseSource = async (ms: number): Promise<void> => {
    const until = clock() + ms;
    if (until > pausedUntil) pausedUntil = until;
    await budget.pause(until);
  };

  /** One request, sent once on the budget slot the caller took, unless that slot is already too old. */
  const attempt = async (path: string, validator: string | undefined, signal: AbortSignal | undefined, slot: number): Promise<Attempt> => {
    const headers = requestHeaders(userAgent, validator);
    // A hang is abandoned after `timeoutMs` of real time, the answer and the body together.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => timeout.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // The last moment before the request leaves: a slot that waited too long (a busy event loop,
      // a slow shared ledger) is not used, so arrivals upstream never crowd closer than the slots.
      if (budget.late(slot)) return { kind: 'late' };
      const response = await doFetch(root + path, { headers, signal: timeout.signal, redirect: 'follow' });
      return await readAnswer(response, path, validator, clock(), defaultPauseMs);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const reason = timeout.signal.aborted ? `timed out after ${timeoutMs} ms` : `network error: ${error instanceof Error ? error.message : String(error)}`;
      return { kind: 'retry', reason: `${path}: ${reason}` };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };

  /** Counts an outcome on the circuit breaker. */
  const settle = <T>(fetched: Fetched<T>): Fetched<T> => {
    if (fetched.outcome === 'failed') {
      lastError = fetched.reason;
      failuresInRow++;
      if (circuit === 'half-open' || failuresInRow >= breakerFailures) {
        circuit = 'open';
        openUntil = clock() + breakerCoolDownMs;
      }
    } else {
      failuresInRow = 0;
      circuit = 'closed';
    }
    return fetched;
  };

  /** A request with its budget slots, retries and the circuit breaker. */
  const request = async (path: string, validator: string | undefined, signal: AbortSignal | undefined): Promise<Fetched<unknown>> => {
    signal?.throwIfAborted();
    if (circuit === 'open') {
      if (clock() < openUntil) return { outcome: 'failed', reason: `circuit open until ${new Date(openUntil).toISOString()} (last error: ${lastError ?? 'none'})` };
      circuit = 'half-open';
    } else if (circuit === 'half-open') {
      return { outcome: 'failed', reason: 'circuit half-open: a probe is in flight' };
    }
    const probing = circuit === 'half-open';
    let reason = '';
    let sent = 0;
    let late = 0;
    try {
      for (let n = 0; n <= retries; n++) {
        const slot = await budget.take(signal);
        const result = await attempt(path, validator, signal, slot);
        if (result.kind === 'late') {
          // The slot is spent, nothing was sent: take another, unless this keeps happening.
          if (++late > MAX_LATE_SLOTS) {
            reason = `${path}: not sent, ${late} budget slots in a row were more than ${Math.floor(budget.marginMs / 2)} ms old before the request could leave (event loop or state too slow)`;
            break;
          }
          n--;
          continue;
        }
        sent++;
        if (result.kind === 'done') return settle(result.fetched);
        reason = result.reason;
        if (result.pauseMs !== undefined) {
          // `Retry-After` (or a 429 without one): the whole source waits, through the shared budget.
          await pauseSource(result.pauseMs);
          if (result.pauseMs > maxRetryWaitMs) break;
        } else if (n < retries) {
          await sleep(backoff(n, backoffMs, maxBackoffMs, random), signal);
        }
        // A probe is one request: a failed one re-opens the circuit at once.
        if (probing) break;
      }
    } catch (error) {
      // Aborted by the caller: not the source's failure; a probe that was cut short may run again.
      if (probing && circuit === 'half-open') circuit = 'open';
      throw error;
    }
    return settle({ outcome: 'failed', reason: `${reason} (${sent} ${sent === 1 ? 'attempt' : 'attempts'})` });
  };

  const source: UpstreamSource = {
    name: base.host,
    limits,
    health() {
      const now = clock();
      if (circuit === 'open') return { circuit, lastError, until: Math.max(openUntil, pausedUntil) };
      return { circuit, lastError, ...(pausedUntil > now ? { until: pausedUntil } : {}) };
    },
    entry(kind, id, part, validator, signal) {
      return request(entryPath(kind, id, part), validator, signal);
    },
    async list(kind, list, page, signal) {
      if (kind !== 'anime' && ANIME_ONLY.has(list)) return { outcome: 'failed', reason: `${list} is a listing of anime only` };
      if (!Number.isSafeInteger(page) || page < 1) return { outcome: 'failed', reason: `page must be a whole number of at least 1, not ${page}` };
      const path = listPath(kind, list, page);
      const fetched = await request(path, undefined, signal);
      if (fetched.outcome !== 'ok') return fetched;
      const body = fetched.body as { data: unknown; pagination?: { has_next_page?: unknown; last_visible_page?: unknown } };
      if (!Array.isArray(body.data)) return settle<never>({ outcome: 'failed', reason: `${path}: data is not a list` });
      const pagination = body.pagination ?? {};
      const lastPage = typeof pagination.last_visible_page === 'number' ? pagination.last_visible_page : undefined;
      const hasNextPage = typeof pagination.has_next_page === 'boolean' ? pagination.has_next_page : lastPage !== undefined && page < lastPage;
      const result: ListPage = { items: body.data, hasNextPage, lastPage };
      return { outcome: 'ok', body: result, validator: fetched.validator };
    },
  };
  if (thisLibrary) {
    const ids = async (path: string, signal: AbortSignal | undefined): Promise<Fetched<number[]>> => {
      const fetched = await request(path, undefined, signal);
      if (fetched.outcome !== 'ok') return fetched.outcome === 'unchanged' ? { outcome: 'failed', reason: `${path}: 304 to a plain request` } : fetched;
      const data = (fetched.body as { data: unknown }).data;
      if (!Array.isArray(data)) return settle<never>({ outcome: 'failed', reason: `${path}: data is not a list` });
      const list: number[] = [];
      for (const item of data) {
        const id = typeof item === 'number' ? item : (item as { mal_id?: unknown } | null)?.mal_id;
        if (typeof id !== 'number' || !Number.isSafeInteger(id)) return settle<never>({ outcome: 'failed', reason: `${path}: an id is not a whole number` });
        list.push(id);
      }
      return { outcome: 'ok', body: list, validator: fetched.validator };
    };
    // This library's `/v1/{kind}/ids` answers every matching id at once ({ total, data }), so "all pages" is one request.
    source.changedIds = (kind, since, signal) => ids(`/${kind}/ids?updated_at=${encodeURIComponent(new Date(since).toISOString())}`, signal);
    source.deletedIds = (kind, signal) => ids(`/${kind}/deleted`, signal);
  }
  return source;
}
