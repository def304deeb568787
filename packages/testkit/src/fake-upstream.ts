/**
 * A fake Jikan v4-compatible upstream for tests: a local HTTP server (127.0.0.1, a random port)
 * answering what an upstream source asks (entries, their parts, the listings, and this library's
 * `/v1/{kind}/ids` and `/v1/{kind}/deleted`) from records the test holds and changes, with the
 * failures, latency and rate limits the test sets, and a log of every request.
 * @module
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MediaKind, UpstreamLimits } from '@catalogue-api/core/upstream';
import { answer, errorBody, type Entry, type FakeCatalogue } from './fake-upstream-routes.js';
import type { FakeFailure, FakeRecord, FakeRequestRecord, FakeUpstream, FakeUpstreamOptions } from './fake-upstream-types.js';

export type { FakeBacking, FakeFailure, FakeFailureScope, FakeRecord, FakeRequestRecord, FakeUpstream, FakeUpstreamOptions } from './fake-upstream-types.js';

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

interface Rule {
  failure: FakeFailure;
  path?: string | RegExp | undefined;
  left: number;
}

/** A running fake's catalogue, settings and what changes as it answers. */
interface Fake extends FakeCatalogue {
  readonly etags: boolean;
  readonly slackMs: number;
  /** The base path: `/v4`, or `/v1` when acting as this library. */
  readonly prefix: string;
  latencyMs: number;
  violations: number;
  log: FakeRequestRecord[];
  rules: Rule[];
  /** When the requests within the limits arrived, over the last minute. */
  accepted: number[];
}

/** The fake's state from its options: their records, all updated now. */
function createFake(options: FakeUpstreamOptions): Fake {
  const clock = options.clock ?? Date.now;
  const etags = options.etags ?? true;
  const slackMs = options.slackMs ?? 25;
  const prefix = options.thisLibrary ? '/v1' : '/v4';
  const fake: Fake = {
    options,
    clock,
    etags,
    slackMs,
    prefix,
    latencyMs: options.latencyMs ?? 0,
    violations: 0,
    log: [],
    rules: [],
    accepted: [],
    entries: { anime: new Map(), manga: new Map() },
    deleted: { anime: new Set(), manga: new Set() },
  };
  const started = clock();
  for (const kind of ['anime', 'manga'] as const) {
    for (const record of options[kind] ?? []) fake.entries[kind].set(record.mal_id, { record, parts: new Map(), hidden: false, updatedAt: started });
  }
  return fake;
}

/** The first failure rule matching a request, spending one of its times. */
function failureFor(fake: Fake, path: string, target: string): FakeFailure | undefined {
  for (const rule of fake.rules) {
    if (rule.left <= 0) continue;
    const matches = rule.path === undefined || (typeof rule.path === 'string' ? rule.path === path : rule.path.test(target));
    if (!matches) continue;
    rule.left--;
    return rule.failure;
  }
  return undefined;
}

/** Whether a request arriving at `now` exceeds the fake's own limits (and if not, counts it). */
function overLimit(fake: Fake, now: number): boolean {
  const limits = fake.options.limits;
  if (!limits) return false;
  fake.accepted = fake.accepted.filter((t) => t > now - 60_000 + fake.slackMs);
  const inSecond = fake.accepted.filter((t) => t > now - 1_000 + fake.slackMs).length;
  if (inSecond >= limits.perSecond || fake.accepted.length >= limits.perMinute) return true;
  fake.accepted.push(now);
  return false;
}

const send = (res: ServerResponse, record: FakeRequestRecord, status: number, body: string, headers: Record<string, string> = {}) => {
  record.status = status;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

/** Serves a failure that replaces the answer (a status, an error body, a body not JSON); `false` for the others. */
function sendFailure(res: ServerResponse, record: FakeRequestRecord, failure: FakeFailure | undefined): boolean {
  if (failure?.type === 'status') {
    const extra: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {};
    send(res, record, failure.status, JSON.stringify(failure.body ?? errorBody(failure.status, failure.status === 429 ? 'RateLimitException' : 'UpstreamException', 'Failure set by the test')), extra);
    return true;
  }
  if (failure?.type === 'error-body') {
    send(res, record, 200, JSON.stringify(failure.body ?? errorBody(500, 'UpstreamException', 'Upstream answered with an error')));
    return true;
  }
  if (failure?.type === 'not-json') {
    send(res, record, 200, '<html><body>502 Bad Gateway</body></html>', { 'content-type': 'text/html' });
    return true;
  }
  return false;
}

/** A body with `score: 11` in its record, or in every item of its list. */
function invalidated(body: unknown): unknown {
  const data = (body as { data: unknown }).data;
  return { ...(body as object), data: Array.isArray(data) ? data.map((item) => ({ ...(item as object), score: 11 })) : { ...(data as object), score: 11 } };
}

/** Sends an answer; a 200 with its `ETag` when the fake sends them, or a 304 when the request's `If-None-Match` matches it. */
function sendAnswer(fake: Fake, res: ServerResponse, record: FakeRequestRecord, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  if (status !== 200 || !fake.etags) return send(res, record, status, text);
  const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
  const match = record.headers['if-none-match'];
  if (match !== undefined && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    record.status = 304;
    res.writeHead(304, { etag });
    return void res.end();
  }
  send(res, record, 200, text, { etag });
}

/** Logs a request, then answers it: 429 over the limits, after the latency a failure if one applies, else the answer. */
async function handle(fake: Fake, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const now = fake.clock();
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const { prefix } = fake;
  const path = url.pathname.startsWith(prefix + '/') ? url.pathname.slice(prefix.length) : url.pathname;
  const target = path + url.search;
  const record: FakeRequestRecord = { time: now, method: req.method ?? 'GET', path: target, status: 0, headers };
  fake.log.push(record);
  if (overLimit(fake, now)) {
    fake.violations++;
    return send(res, record, 429, JSON.stringify(errorBody(429, 'RateLimitException', 'You are being rate limited by the fake upstream.')), { 'retry-after': '1' });
  }
  if (fake.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.latencyMs));
  if (!url.pathname.startsWith(prefix + '/')) return send(res, record, 404, JSON.stringify(errorBody(404, 'HttpException', 'Not Found')));
  const failure = failureFor(fake, path, target);
  if (failure?.type === 'hang') return;
  if (sendFailure(res, record, failure)) return;
  const answered = await answer(fake, path, url.searchParams);
  const status = answered.status;
  const body = failure?.type === 'invalid' && status === 200 ? invalidated(answered.body) : answered.body;
  sendAnswer(fake, res, record, status, body);
}

/** Listens on 127.0.0.1 (a random port); a request that throws is answered 500. */
async function listen(fake: Fake): Promise<Server> {
  const server = createServer((req, res) => {
    handle(fake, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(500, 'FakeUpstreamError', error instanceof Error ? error.message : String(error))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return server;
}

/** The fake's entry, its `updated_at` now. */
function touch(fake: Fake, kind: MediaKind, id: number): Entry {
  const entry = fake.entries[kind].get(id);
  if (!entry) throw new RangeError(`the fake upstream holds no ${kind} ${id}`);
  entry.updatedAt = fake.clock();
  return entry;
}

/** What a test changes: the entries, their parts, and whether they are listed. */
function catalogueControls(fake: Fake): Pick<FakeUpstream, 'set' | 'get' | 'setPart' | 'remove' | 'hide'> {
  const { entries, deleted, clock } = fake;
  return {
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
      touch(fake, kind, id).parts.set(part, body);
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
  };
}

/** How a test makes the fake fail or slow, and empties its log. */
function behaviourControls(fake: Fake): Pick<FakeUpstream, 'fail' | 'clearFailures' | 'setLatency' | 'clearLog'> {
  return {
    fail(failure, scope = {}) {
      const rule: Rule = { failure, path: scope.path, left: scope.times ?? Infinity };
      fake.rules.push(rule);
      return () => {
        fake.rules = fake.rules.filter((r) => r !== rule);
      };
    },
    clearFailures() {
      fake.rules = [];
    },
    setLatency(ms) {
      fake.latencyMs = ms;
    },
    clearLog() {
      fake.log = [];
      fake.violations = 0;
    },
  };
}

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
  const fake = createFake(options);
  const server = await listen(fake);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${fake.prefix}`,
    get log() {
      return fake.log;
    },
    get violations() {
      return fake.violations;
    },
    ...catalogueControls(fake),
    ...behaviourControls(fake),
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
