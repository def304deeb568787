/**
 * A fake Jikan v4-compatible upstream for tests: a local HTTP server (127.0.0.1, a random port)
 * answering what an upstream source asks (entries, their parts, the listings, and this library's
 * `/v1/{kind}/ids` and `/v1/{kind}/deleted`) from records the test holds and changes, with the
 * failures, latency and rate limits the test sets, and a log of every request.
 * @module
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntryPart, MediaKind, UpstreamLimits } from '@catalogue-api/core/upstream';

/** A record as Jikan serves it at `/{kind}/{id}` (its `data`): at least a `mal_id`. */
export type FakeRecord = { readonly mal_id: number } & Record<string, unknown>;

/** A failure the fake serves instead of its answer. */
export type FakeFailure =
  /** This status (a 429 or 503 with `retryAfter` seconds, a 5xx, a 404…) and a Jikan-shaped error body. */
  | { readonly type: 'status'; readonly status: number; readonly retryAfter?: number | string | undefined; readonly body?: unknown }
  /** No answer at all until the client gives up or the fake closes. */
  | { readonly type: 'hang' }
  /** A 200 whose body is an error (`{ "status": 500, "type": "UpstreamException", … }` by default). */
  | { readonly type: 'error-body'; readonly body?: unknown }
  /** A 200 whose body is not JSON (an HTML error page). */
  | { readonly type: 'not-json' }
  /** The real answer with `score: 11` in the record (or in every item of a listing): valid JSON, an invalid record. */
  | { readonly type: 'invalid' };

/** Where and how often a failure applies. */
export interface FakeFailureScope {
  /** The path after the base (`/anime/1/full`); a string matches the path without its query, a RegExp the path with it. @default every path */
  readonly path?: string | RegExp | undefined;
  /** How many matching requests fail; then the rule is spent (a 404 that heals after N). @default every one */
  readonly times?: number | undefined;
}

/** One request the fake received. */
export interface FakeRequestRecord {
  /** When it arrived, by the fake's clock (ms since the epoch). */
  readonly time: number;
  readonly method: string;
  /** The path after the base, with its query (`/anime?order_by=mal_id&sort=desc&page=1`). */
  readonly path: string;
  /** The status answered; 0 for a request left hanging. */
  status: number;
  /** The request's headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A catalogue app the fake asks for the parts a test has not set (e.g. `createCatalogueApp({ store, gateway: false })`). */
export interface FakeBacking {
  /** Answers a Web request, as `CatalogueApp.fetch` does. */
  fetch(request: Request): Promise<Response>;
}

/** Options of {@link createFakeUpstream}. */
export interface FakeUpstreamOptions {
  /** The anime, as `/anime/{id}` serves them. */
  readonly anime?: readonly FakeRecord[];
  /** The manga, as `/manga/{id}` serves them. */
  readonly manga?: readonly FakeRecord[];
  /**
   * A catalogue app (e.g. `createCatalogueApp` over the demo data) answering `/v1/{kind}/{id}/full` and the
   * sub-resources the test has not set; its `/full` gets the fake's current record laid over it.
   */
  readonly backing?: FakeBacking | undefined;
  /** Act as this library: base path `/v1`, with `/{kind}/ids?updated_at=` and `/{kind}/deleted`. @default false (base path `/v4`) */
  readonly thisLibrary?: boolean;
  /** Limits the fake enforces itself: a request over them answers 429 with `Retry-After: 1` and counts as a violation. */
  readonly limits?: UpstreamLimits | undefined;
  /**
   * Arrival jitter forgiven when enforcing `limits` (a window is `(t − w + slack, t]`): a request
   * reaches the fake a few ms after its client took its slot, by a delay that varies, so two
   * requests sent exactly a window apart can arrive a little less than that apart. @default 25
   */
  readonly slackMs?: number;
  /** Delay before every answer (real time). @default 0 */
  readonly latencyMs?: number;
  /** The fake's clock: log times, `updated_at` of changes, rate windows, the current season. @default Date.now */
  readonly clock?: () => number;
  /** The current season for `/seasons/now`. @default the clock's (winter: January–March…) */
  readonly season?: { readonly year: number; readonly season: 'winter' | 'spring' | 'summer' | 'fall' } | undefined;
  /** Send `ETag` on 200 and answer 304 to a matching `If-None-Match`. @default true */
  readonly etags?: boolean;
}

/** A running fake upstream. */
export interface FakeUpstream {
  /** The base URL to give a source: `http://127.0.0.1:<port>/v4` (or `/v1` when acting as this library). */
  readonly url: string;
  /** Every request received, in order of arrival. */
  readonly log: readonly FakeRequestRecord[];
  /** Requests answered 429 because they exceeded the fake's own `limits`. */
  readonly violations: number;
  /** Adds an entry or replaces its record (served at once, its `updated_at` now); `hidden` serves it by id only. */
  set(kind: MediaKind, record: FakeRecord, options?: { hidden?: boolean }): void;
  /** The current record of an entry. */
  get(kind: MediaKind, id: number): FakeRecord | undefined;
  /** Sets the body (`{ data: … }`) of one part of an entry. */
  setPart(kind: MediaKind, id: number, part: EntryPart, body: unknown): void;
  /** Removes an entry (404 from now on) and lists its id in `/{kind}/deleted`. */
  remove(kind: MediaKind, id: number): void;
  /** Leaves an entry out of every listing (or puts it back), like an unapproved entry. */
  hide(kind: MediaKind, id: number, hidden?: boolean): void;
  /**
   * Serves a failure instead of the answer.
   * @returns A function removing the rule.
   */
  fail(failure: FakeFailure, scope?: FakeFailureScope): () => void;
  /** Removes every failure rule. */
  clearFailures(): void;
  /** Sets the delay before every answer. */
  setLatency(ms: number): void;
  /** Empties the log and the violation count. */
  clearLog(): void;
  /** Stops the server, dropping hanging requests. */
  close(): Promise<void>;
}

/**
 * A new anime upstream, modelled on an existing one: its fields, under a new id, URL and title,
 * not yet aired (what a catalogue learns from an upstream's newest ids).
 * @param model - The anime it copies.
 * @param id - The new `mal_id`.
 * @param title - Its title.
 * @returns The record, to `set` on the fake.
 * @example
 * ```ts
 * fake.set('anime', newAnimeLike(demoData.anime[0], 99_999, 'A new entry upstream'));
 * ```
 */
export function newAnimeLike(model: object, id: number, title: string): FakeRecord {
  return { ...model, mal_id: id, url: `https://myanimelist.net/anime/${id}`, title, status: 'Not yet aired', airing: false };
}

/**
 * The most requests any sliding window of `windowMs` holds in a log: windows `(t − w + slack, t]`.
 * @param times - Arrival times, any order.
 * @param windowMs - The window.
 * @param slackMs - Arrival jitter forgiven. @default 0
 * @example
 * ```ts
 * expect(maxInWindow(fake.log.map((r) => r.time), 1000)).toBeLessThanOrEqual(3);
 * ```
 */
export function maxInWindow(times: readonly number[], windowMs: number, slackMs = 0): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[start]! <= sorted[end]! - windowMs + slackMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** What {@link checkRequestLog} found. */
export interface RequestLogCheck {
  /** Whether no window held more than its limit. */
  readonly ok: boolean;
  /** The most requests in any sliding second. */
  readonly maxPerSecond: number;
  /** The most requests in any sliding minute. */
  readonly maxPerMinute: number;
}

/**
 * Checks a request log against limits over every sliding 1 s and 60 s window.
 * @param log - The fake's log (or any list with `time`).
 * @param limits - The limits declared.
 * @param options - `slackMs`: arrival jitter forgiven (a log of real time over sockets wants ~25 ms;
 * one on a virtual clock shared with the client, 0); `where`: which requests count.
 * @example
 * ```ts
 * expect(checkRequestLog(fake.log, { perSecond: 3, perMinute: 60 }).ok).toBe(true);
 * ```
 */
export function checkRequestLog(
  log: readonly { readonly time: number; readonly path?: string }[],
  limits: UpstreamLimits,
  options: { slackMs?: number; where?: (record: FakeRequestRecord) => boolean } = {},
): RequestLogCheck {
  const times = log.filter((r) => !options.where || options.where(r as FakeRequestRecord)).map((r) => r.time);
  const maxPerSecond = maxInWindow(times, 1_000, options.slackMs);
  const maxPerMinute = maxInWindow(times, 60_000, options.slackMs);
  return { ok: maxPerSecond <= limits.perSecond && maxPerMinute <= limits.perMinute, maxPerSecond, maxPerMinute };
}

/** Jikan serves 25 entries a page. */
const PAGE_SIZE = 25;

/** The parts answered as an object rather than a list, with an empty default. */
const OBJECT_PARTS: Partial<Record<EntryPart, unknown>> = {
  statistics: { watching: 0, reading: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0, plan_to_read: 0, total: 0, scores: [] },
  moreinfo: { moreinfo: null },
  themes: { openings: [], endings: [] },
  videos: { promo: [], episodes: [], music_videos: [] },
};

const PARTS: ReadonlySet<string> = new Set<EntryPart>([
  'full', 'characters', 'staff', 'episodes', 'pictures', 'statistics', 'moreinfo', 'recommendations', 'videos', 'news', 'reviews', 'relations', 'themes', 'external', 'streaming',
]);

/** Jikan's `status` filter values and the labels they select. */
const STATUS: Record<MediaKind, Record<string, string>> = {
  anime: { airing: 'Currently Airing', complete: 'Finished Airing', upcoming: 'Not yet aired' },
  manga: { publishing: 'Publishing', complete: 'Finished', hiatus: 'On Hiatus', discontinued: 'Discontinued', upcoming: 'Not yet published' },
};

interface Entry {
  record: FakeRecord;
  parts: Map<EntryPart, unknown>;
  hidden: boolean;
  /** When the fake last changed it (its clock). */
  updatedAt: number;
  /** Added while the fake ran: listed first where new entries show first, left out of the current season and schedules. */
  addedAt?: number;
}

interface Rule {
  failure: FakeFailure;
  path?: string | RegExp | undefined;
  left: number;
}

const seasonOf = (time: number): { year: number; season: string } => {
  const date = new Date(time);
  return { year: date.getUTCFullYear(), season: ['winter', 'spring', 'summer', 'fall'][Math.floor(date.getUTCMonth() / 3)]! };
};

const num = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/**
 * Starts a fake Jikan v4-compatible upstream on 127.0.0.1 (a random port).
 * @param options - Its records, failures, latency, limits and clock.
 * @returns The running fake; `close()` it after the test.
 * @example
 * ```ts
 * const fake = await createFakeUpstream({ anime: demoAnime, limits: { perSecond: 3, perMinute: 60 } });
 * const source = createJikanSource({ baseUrl: fake.url, budget });
 * fake.fail({ type: 'status', status: 404 }, { path: '/anime/1/full', times: 1 });
 * await fake.close();
 * ```
 */
export async function createFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const clock = options.clock ?? Date.now;
  const etags = options.etags ?? true;
  const slackMs = options.slackMs ?? 25;
  const prefix = options.thisLibrary ? '/v1' : '/v4';
  let latencyMs = options.latencyMs ?? 0;
  let violations = 0;
  let log: FakeRequestRecord[] = [];
  let rules: Rule[] = [];
  let accepted: number[] = [];
  const entries: Record<MediaKind, Map<number, Entry>> = { anime: new Map(), manga: new Map() };
  const deleted: Record<MediaKind, Set<number>> = { anime: new Set(), manga: new Set() };
  const started = clock();
  for (const kind of ['anime', 'manga'] as const) {
    for (const record of options[kind] ?? []) entries[kind].set(record.mal_id, { record, parts: new Map(), hidden: false, updatedAt: started });
  }

  const listed = (kind: MediaKind) => [...entries[kind].values()].filter((e) => !e.hidden && e.record.approved !== false);
  const newFirst = (a: Entry, b: Entry) => (b.addedAt ?? -Infinity) - (a.addedAt ?? -Infinity);
  const byMembers = (a: Entry, b: Entry) => num(b.record.members, 0) - num(a.record.members, 0) || a.record.mal_id - b.record.mal_id;

  /** The entries of a listing, in order, or `undefined` for an unknown listing. */
  const listing = (path: string, query: URLSearchParams): { kind: MediaKind; items: Entry[] } | undefined => {
    if (path === '/anime' || path === '/manga') {
      const kind = path.slice(1) as MediaKind;
      const status = query.get('status');
      let items = listed(kind);
      if (status !== null) {
        const label = STATUS[kind][status.toLowerCase()];
        if (label === undefined) return undefined;
        items = items.filter((e) => e.record.status === label);
      }
      const orderBy = query.get('order_by') ?? 'mal_id';
      const sign = query.get('sort') === 'desc' ? -1 : 1;
      items.sort((a, b) => {
        const x = a.record[orderBy];
        const y = b.record[orderBy];
        if (typeof x !== 'number' || typeof y !== 'number') return (typeof x === 'number' ? -1 : typeof y === 'number' ? 1 : 0) || a.record.mal_id - b.record.mal_id;
        return sign * (x - y) || a.record.mal_id - b.record.mal_id;
      });
      return { kind, items };
    }
    if (path === '/top/anime' || path === '/top/manga') {
      const kind = path.slice(5) as MediaKind;
      // Top lists have no approval filter on Jikan; hidden entries stay out all the same.
      let items = [...entries[kind].values()].filter((e) => !e.hidden);
      if (query.get('filter') === 'upcoming') {
        items = items.filter((e) => e.record.status === STATUS[kind].upcoming);
        return { kind, items: items.sort((a, b) => newFirst(a, b) || byMembers(a, b)) };
      }
      items = items.filter((e) => typeof e.record.rank === 'number');
      return { kind, items: items.sort((a, b) => num(a.record.rank, 0) - num(b.record.rank, 0) || a.record.mal_id - b.record.mal_id) };
    }
    if (path === '/seasons/now') {
      const { year, season } = options.season ?? seasonOf(clock());
      return { kind: 'anime', items: listed('anime').filter((e) => e.addedAt === undefined && e.record.year === year && e.record.season === season).sort(byMembers) };
    }
    if (path === '/seasons/upcoming') return { kind: 'anime', items: listed('anime').filter((e) => e.record.status === 'Not yet aired').sort((a, b) => newFirst(a, b) || byMembers(a, b)) };
    if (path === '/schedules') return { kind: 'anime', items: listed('anime').filter((e) => e.addedAt === undefined && e.record.status === 'Currently Airing').sort(byMembers) };
    return undefined;
  };

  /** The body of one part of an entry (`{ data: … }`). */
  const partBody = async (kind: MediaKind, entry: Entry, part: EntryPart): Promise<unknown> => {
    const set = entry.parts.get(part);
    if (set !== undefined) return set;
    const id = entry.record.mal_id;
    let backed: { data?: unknown } | undefined;
    if (options.backing) {
      const response = await options.backing.fetch(new Request(`http://backing.invalid/v1/${kind}/${id}/${part}`));
      if (response.ok) backed = (await response.json()) as { data?: unknown };
    }
    if (part === 'full') {
      const parts = kind === 'anime' ? { relations: [], theme: { openings: [], endings: [] }, external: [], streaming: [] } : { relations: [], external: [] };
      return { data: { ...parts, ...((backed?.data as object | undefined) ?? {}), ...entry.record } };
    }
    return backed ?? { data: OBJECT_PARTS[part] ?? [] };
  };

  const errorBody = (status: number, type: string, message: string) => ({ status, type, message, error: null });

  /** The status and body of one request, before failures. */
  const answer = async (path: string, query: URLSearchParams): Promise<{ status: number; body: unknown }> => {
    const entryMatch = /^\/(anime|manga)\/(\d+)(?:\/([a-z]+))?$/.exec(path);
    if (entryMatch) {
      const kind = entryMatch[1] as MediaKind;
      const part = entryMatch[3];
      if (part !== undefined && !PARTS.has(part)) return { status: 404, body: errorBody(404, 'HttpException', 'Not Found') };
      const entry = entries[kind].get(Number(entryMatch[2]));
      if (!entry) return { status: 404, body: errorBody(404, 'BadResponseException', 'Resource does not exist') };
      return { status: 200, body: part === undefined ? { data: entry.record } : await partBody(kind, entry, part as EntryPart) };
    }
    if (options.thisLibrary) {
      const ids = /^\/(anime|manga)\/(ids|deleted)$/.exec(path);
      if (ids) {
        const kind = ids[1] as MediaKind;
        if (ids[2] === 'deleted') {
          const data = [...deleted[kind]].sort((a, b) => a - b);
          return { status: 200, body: { total: data.length, data } };
        }
        const since = query.get('updated_at');
        const at = since === null ? -Infinity : /^\d+$/.test(since) ? Number(since) * 1000 : Date.parse(since);
        if (Number.isNaN(at)) return { status: 400, body: { ...errorBody(400, 'ValidationException', 'updated_at is not a date') } };
        const data = [...entries[kind].values()].filter((e) => e.updatedAt >= at).map((e) => e.record.mal_id).sort((a, b) => a - b);
        return { status: 200, body: { total: data.length, data } };
      }
    }
    const found = listing(path, query);
    if (!found) return { status: 404, body: errorBody(404, 'HttpException', 'Not Found') };
    const pageText = query.get('page') ?? '1';
    if (!/^[1-9]\d*$/.test(pageText)) return { status: 400, body: errorBody(400, 'ValidationException', 'page must be at least 1') };
    const page = Number(pageText);
    const total = found.items.length;
    const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const data = found.items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((e) => e.record);
    return {
      status: 200,
      body: { pagination: { last_visible_page: last, has_next_page: page < last, current_page: page, items: { count: data.length, total, per_page: PAGE_SIZE } }, data },
    };
  };

  /** The first failure rule matching a request, spending one of its times. */
  const failureFor = (path: string, target: string): FakeFailure | undefined => {
    for (const rule of rules) {
      if (rule.left <= 0) continue;
      const matches = rule.path === undefined || (typeof rule.path === 'string' ? rule.path === path : rule.path.test(target));
      if (!matches) continue;
      rule.left--;
      return rule.failure;
    }
    return undefined;
  };

  /** Whether a request arriving at `now` exceeds the fake's own limits (and if not, counts it). */
  const overLimit = (now: number): boolean => {
    if (!options.limits) return false;
    accepted = accepted.filter((t) => t > now - 60_000 + slackMs);
    const inSecond = accepted.filter((t) => t > now - 1_000 + slackMs).length;
    if (inSecond >= options.limits.perSecond || accepted.length >= options.limits.perMinute) return true;
    accepted.push(now);
    return false;
  };

  const send = (res: ServerResponse, record: FakeRequestRecord, status: number, body: string, headers: Record<string, string> = {}) => {
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const now = clock();
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const path = url.pathname.startsWith(prefix + '/') ? url.pathname.slice(prefix.length) : url.pathname;
    const target = path + url.search;
    const record: FakeRequestRecord = { time: now, method: req.method ?? 'GET', path: target, status: 0, headers };
    log.push(record);
    if (overLimit(now)) {
      violations++;
      return send(res, record, 429, JSON.stringify(errorBody(429, 'RateLimitException', 'You are being rate limited by the fake upstream.')), { 'retry-after': '1' });
    }
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (!url.pathname.startsWith(prefix + '/')) return send(res, record, 404, JSON.stringify(errorBody(404, 'HttpException', 'Not Found')));
    const failure = failureFor(path, target);
    if (failure?.type === 'hang') return;
    if (failure?.type === 'status') {
      const extra: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {};
      return send(res, record, failure.status, JSON.stringify(failure.body ?? errorBody(failure.status, failure.status === 429 ? 'RateLimitException' : 'UpstreamException', 'Failure set by the test')), extra);
    }
    if (failure?.type === 'error-body') return send(res, record, 200, JSON.stringify(failure.body ?? errorBody(500, 'UpstreamException', 'Upstream answered with an error')));
    if (failure?.type === 'not-json') return send(res, record, 200, '<html><body>502 Bad Gateway</body></html>', { 'content-type': 'text/html' });
    const answered = await answer(path, url.searchParams);
    const status = answered.status;
    let body = answered.body;
    if (failure?.type === 'invalid' && status === 200) {
      const data = (body as { data: unknown }).data;
      body = { ...(body as object), data: Array.isArray(data) ? data.map((item) => ({ ...(item as object), score: 11 })) : { ...(data as object), score: 11 } };
    }
    const text = JSON.stringify(body);
    if (status !== 200 || !etags) return send(res, record, status, text);
    const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
    const match = headers['if-none-match'];
    if (match !== undefined && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      record.status = 304;
      res.writeHead(304, { etag });
      return void res.end();
    }
    send(res, record, 200, text, { etag });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(500, 'FakeUpstreamError', error instanceof Error ? error.message : String(error))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const touch = (kind: MediaKind, id: number): Entry => {
    const entry = entries[kind].get(id);
    if (!entry) throw new RangeError(`the fake upstream holds no ${kind} ${id}`);
    entry.updatedAt = clock();
    return entry;
  };

  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    get log() {
      return log;
    },
    get violations() {
      return violations;
    },
    set(kind, record, setOptions = {}) {
      const entry = entries[kind].get(record.mal_id);
      deleted[kind].delete(record.mal_id);
      if (entry) {
        entry.record = record;
        entry.updatedAt = clock();
        if (setOptions.hidden !== undefined) entry.hidden = setOptions.hidden;
      } else {
        const now = clock();
        entries[kind].set(record.mal_id, { record, parts: new Map(), hidden: setOptions.hidden ?? false, updatedAt: now, addedAt: now });
      }
    },
    get: (kind, id) => entries[kind].get(id)?.record,
    setPart(kind, id, part, body) {
      touch(kind, id).parts.set(part, body);
    },
    remove(kind, id) {
      entries[kind].delete(id);
      deleted[kind].add(id);
    },
    hide(kind, id, hidden = true) {
      const entry = entries[kind].get(id);
      if (!entry) throw new RangeError(`the fake upstream holds no ${kind} ${id}`);
      entry.hidden = hidden;
    },
    fail(failure, scope = {}) {
      const rule: Rule = { failure, path: scope.path, left: scope.times ?? Infinity };
      rules.push(rule);
      return () => {
        rules = rules.filter((r) => r !== rule);
      };
    },
    clearFailures() {
      rules = [];
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    clearLog() {
      log = [];
      violations = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
