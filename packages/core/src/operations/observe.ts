/**
 * `createObservedApp`: one record per request (route template, status, bytes, duration, tier,
 * cache, client, request id) handed to observers such as an access log or metrics, and the
 * `X-Request-Id` header on every answer.
 * @module
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createBodyMemo } from '../edge/body-memo.js';
import { compileTrust, createClientIdentifier, type TrustProxy } from '../gateway/client-address.js';
import { toSecretBytes, type FingerprintSecret } from '../gateway/keys.js';
import { monotonicClock, wallClockAt } from '../internal/clock.js';
import { utf8Length } from '../internal/string-size.js';
import { fromWebRequest, ownsCanonical, toApp, toWebResponse, type App, type PlainRequest, type PlainResponse, type RequestContext, type RequestTrace } from '../edge/http.js';

/** What an observer learns of one answered request. Header values, keys and queries are never in it. */
export interface RequestRecord extends RequestTrace {
  /** When the request arrived, in milliseconds since the epoch. */
  time: number;
  /** The HTTP method. */
  method: string;
  /** The request path, without the query. */
  path: string;
  /** The answer's status. */
  status: number;
  /** The answer's body size in bytes (UTF-8); 0 for no body. */
  bytes: number;
  /**
   * From the request reaching the app, or its host when the adapter says when (`receivedAt`, which
   * counts a wait for the next event-loop turn too), to its answer being ready, in milliseconds.
   */
  durationMs: number;
  /** The request id, also sent back as `X-Request-Id`; `undefined` when ids are off. */
  requestId: string | undefined;
}

/** Something told of every answered request, after the answer is ready. It must not throw or block. */
export type RequestObserver = (record: RequestRecord) => void;

/** How the access record names the client. */
export type ClientIdMode = 'hash' | 'address' | 'none';

/** Options of {@link createObservedApp}. */
export interface ObservedAppOptions {
  /** Told of every request, in order. With none, the app is returned as it is. */
  observers: readonly RequestObserver[];
  /**
   * `X-Request-Id` on every answer: `true` keeps a well-formed one sent by a trusted proxy
   * (`trustProxy`) and generates one (a UUID) otherwise; `false`: none. `{ trustProxy }` is
   * `true` with that `trustProxy`.
   * @default true
   */
  requestId?: boolean | { trustProxy: TrustProxy };
  /**
   * The proxies in front (same rules as the gateway's `trustProxy`): their `X-Forwarded-For` names
   * the client of answers the gateway did not identify (health, status, 405, rate limits off), and
   * their `X-Request-Id` is kept. Give it whether or not request ids are on. @default false
   */
  trustProxy?: TrustProxy;
  /**
   * `client` in the record: `hash` (a keyed hash of the gateway's client id under
   * `fingerprintSecret`, not reversible without it; a Server Key client is `key:` and the start of
   * the key's fingerprint, keyed by the gateway's secret), `address` (the IP address itself) or `none`.
   * @default 'hash'
   */
  clientId?: ClientIdMode;
  /**
   * The deployment's secret for `hash` client ids. Give every instance the same (and the same as
   * the gateway's), so that one client has one id in every instance's log.
   * @default a random secret of this process: ids are then stable for the process only
   */
  fingerprintSecret?: FingerprintSecret;
  /**
   * A monotonic clock in milliseconds, for durations. With the default, a request's
   * `receivedAt` (see `PlainRequest`), when its adapter gives one, is its start.
   * @default performance.now
   */
  clock?: () => number;
  /**
   * The wall clock, for `time`, read for every request. By default `Date.now` is read at most once
   * a second and the monotonic clock counts the milliseconds in between.
   * @default Date.now
   */
  now?: () => number;
}

// What a proxy may pass on as a request id: short, printable, nothing that could break a log line.
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const UUIDS_PER_BATCH = 128;

/**
 * Random UUIDs (RFC 9562 §5.4, version 4), written 128 at a time into one string that each id is
 * cut from: ~0.1 µs a request inside the observed app on Node 20, where `crypto.randomUUID()`
 * cost ~0.3 µs (a fifth of what the access log and metrics added to a cache hit).
 */
function createUuidSource(): () => string {
  const random = new Uint8Array(16 * UUIDS_PER_BATCH);
  const text = new Uint8Array(36 * UUIDS_PER_BATCH);
  const decoder = new TextDecoder();
  let batch = '';
  let at = 0;
  return () => {
    if (at === batch.length) {
      crypto.getRandomValues(random);
      let out = 0;
      for (let i = 0; i < random.length; i++) {
        const j = i & 15;
        // The version (4) and variant (binary 10) bits; the other 122 stay random.
        const byte = j === 6 ? (random[i]! & 0x0f) | 0x40 : j === 8 ? (random[i]! & 0x3f) | 0x80 : random[i]!;
        text[out++] = HEX_DIGITS[byte >> 4]!;
        text[out++] = HEX_DIGITS[byte & 15]!;
        if (j === 3 || j === 5 || j === 7 || j === 9) text[out++] = 0x2d; // -
      }
      batch = decoder.decode(text);
      at = 0;
    }
    at += 36;
    return batch.slice(at - 36, at);
  };
}

/**
 * The client id of the access record: HMAC-SHA256 (RFC 2104) of the gateway's client id under the
 * deployment's secret (a random one of this process when none is given), its first 8 bytes in hex.
 * The same client gets the same id in every line of every instance that shares the secret; without
 * the secret neither an address nor the key can be worked out from ids, even from ids of addresses
 * one knows. (An unkeyed or merely salted hash of an IPv4 address falls to a search of 2^32, and a
 * salt mixed into FNV-1a can be read back from one known pair.) Synchronous, as the record is
 * built, so @noble/hashes rather than Web Crypto (whose HMAC is only asynchronous). ~3 µs a client
 * on Node 20; clients come back, so their ids are remembered.
 */
function createClientHasher(secret: FingerprintSecret | undefined): (id: string) => string {
  const keyed = hmac.create(sha256, toSecretBytes(secret));
  const utf8 = new TextEncoder();
  // Up to 4,096 clients, then started afresh.
  const known = new Map<string, string>();
  return (id) => {
    const seen = known.get(id);
    if (seen !== undefined) return seen;
    if (known.size >= 4096) known.clear();
    // Labelled as Server Key fingerprints are (gateway/keys.ts), so the two never coincide.
    const hash = bytesToHex(keyed.clone().update(utf8.encode(`client\0${id}`)).digest().subarray(0, 8));
    known.set(id, hash);
    return hash;
  };
}

/**
 * Wraps an app so that every request is timed and traced, its record handed to the observers, and
 * its answer given an `X-Request-Id`. The stages inside (pipeline, gateway) note what they know on
 * the request's trace; without this wrapper they note nothing and the request costs nothing more.
 * @param app - The app: `createCatalogueApp`, `combineApps(…)`, a status or health app.
 * @param options - Observers, request ids, client ids, clocks.
 * @returns An app with the same doors, for any adapter.
 * @throws TypeError when a `trustProxy` entry is not an address or CIDR range.
 * @example
 * ```ts
 * const metrics = createCatalogueMetrics();
 * const app = createObservedApp(combineApps(status, catalogue), {
 *   observers: [(record) => console.log(JSON.stringify(record)), metrics.observe],
 * });
 * ```
 */
export function createObservedApp(app: Pick<App, 'handle' | 'owns'>, options: ObservedAppOptions): App {
  const observers = options.observers;
  const clock = options.clock ?? monotonicClock();
  // An adapter's `receivedAt` is on the default clock's timeline only.
  const arrivals = options.clock === undefined;
  const given = options.now;
  // A given wall clock is called as it is documented, without the reading.
  const wallAt = given ? () => given() : wallClockAt(clock);
  const ids = createRequestIds(options);
  const clientOf = createClientNamer(options);
  // Cached answers come back as the same string: its size is remembered, found by one lookup,
  // where counting a 3 KB body costs a few microseconds (a tenth of a cache hit's work).
  const sizeOf = createBodyMemo(utf8Length, (bytes) => bytes, { minChars: 256 });
  const one = observers.length === 1 ? observers[0] : undefined;

  // Not an async function: one promise reaction instead of an async function's own promise and
  // its await (~60 ns a request on Node 20). What throws still rejects, as the door promises.
  function handle(request: PlainRequest): Promise<PlainResponse> {
    try {
      return begin(request, withId);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // The Web door: the request id goes onto the Web response, and a cache hit's shared headers
  // reach `toWebResponse` as they are, which then clones the Response it made for them.
  function fetch(request: Request, context?: RequestContext): Promise<Response> {
    try {
      return begin(fromWebRequest(request, context), toWeb);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function withId(response: PlainResponse, requestId: string | undefined): PlainResponse {
    if (requestId !== undefined) response.headers = ids.add(response.headers, requestId);
    return response;
  }

  function toWeb(response: PlainResponse, requestId: string | undefined): Response {
    return toWebResponse(response, requestId === undefined ? undefined : ['x-request-id', requestId]);
  }

  function begin<T>(request: PlainRequest, finish: (response: PlainResponse, requestId: string | undefined) => T): Promise<T> {
    if (observers.length === 0) return identified(request, finish);
    const receivedAt = request.receivedAt;
    const started = arrivals && receivedAt !== undefined ? receivedAt : clock();
    const requestId = ids.on ? ids.of(request) : undefined;
    // One object per request, every field present from the start (one shape for the engine).
    const record: RequestRecord = {
      time: wallAt(started),
      method: request.method,
      path: request.path,
      route: undefined,
      status: 0,
      bytes: 0,
      durationMs: 0,
      tier: undefined,
      client: undefined,
      cache: undefined,
      limited: undefined,
      blocked: undefined,
      unavailable: undefined,
      requestId,
    };
    request.trace = record;
    return app.handle(request).then((response) => finish(answered(request, record, started, response), requestId));
  }

  // Request ids alone, no observer: nothing to time or record, each answer only gets its id.
  function identified<T>(request: PlainRequest, finish: (response: PlainResponse, requestId: string | undefined) => T): Promise<T> {
    const requestId = ids.of(request);
    return app.handle(request).then((response) => finish(response, requestId));
  }

  function answered(request: PlainRequest, record: RequestRecord, started: number, response: PlainResponse): PlainResponse {
    record.durationMs = Math.round((clock() - started) * 1000) / 1000;
    record.status = response.status;
    const body = response.body;
    record.bytes = body === null ? 0 : typeof body === 'string' ? sizeOf(body) : body.byteLength;
    record.client = clientOf(record, request);
    // An observer's failure (a full disk, a closed stream) never costs the client its answer, nor
    // the other observers their record.
    if (one) {
      try {
        one(record);
      } catch {
        // See above.
      }
    } else {
      for (const observe of observers) {
        try {
          observe(record);
        } catch {
          // See above.
        }
      }
    }
    return response;
  }

  const owns = (path: string) => app.owns(path);
  const ownsCanonically = (path: string) => ownsCanonical(app, path);
  if (observers.length === 0 && !ids.on) return toApp((request) => app.handle(request), owns, undefined, ownsCanonically);
  // Assigned onto the app `toApp` made, which it has registered under its own identity.
  return Object.assign(toApp(handle, owns, undefined, ownsCanonically), { fetch });
}

/** A request's `X-Request-Id`: whether ids are on, a request's id, and an answer's headers with it. */
interface RequestIds {
  on: boolean;
  of(request: PlainRequest): string;
  add(headers: Record<string, string>, requestId: string): Record<string, string>;
}

function createRequestIds(options: ObservedAppOptions): RequestIds {
  const ids = options.requestId ?? true;
  const trustProxy = options.trustProxy ?? (typeof ids === 'object' ? ids.trustProxy : false);
  const trust = ids !== false ? compileTrust(trustProxy) : false;
  const trusted = (request: PlainRequest): boolean => {
    if (trust === false || trust === 0) return false;
    if (typeof trust !== 'function') return true;
    const address = request.clientAddress;
    return address !== undefined && trust(address);
  };
  const newId = createUuidSource();
  // The answer's headers and `x-request-id`, in a new object: the answer's own may be shared (see
  // `PlainResponse.headers`). Spread syntax copied them by V8's slow path on Node 20: ~150 ns for
  // a cache hit's eight frozen headers, ~1 µs for the eleven of a rate-limited hit (its own copy,
  // made by the gateway from a template of its own: `fromEntry` in gateway/gateway.ts). Shared
  // headers are frozen; each gets a plain template with `x-request-id` in place, once, which copies
  // in ~25 ns and takes the id without changing shape. Others are copied field by field (~200 ns).
  // The template is looked up first: asking `Object.isFrozen` on every answer cost more than the
  // lookup (~20 ns).
  const templates = new WeakMap<Record<string, string>, Record<string, string>>();
  return {
    on: ids !== false,
    /** A trusted proxy's well-formed id, else a new one. */
    of(request) {
      const sent = trust !== false ? request.header('x-request-id') : undefined;
      return sent !== undefined && REQUEST_ID.test(sent) && trusted(request) ? sent : newId();
    },
    add(headers, requestId) {
      let copy: Record<string, string>;
      let template = templates.get(headers);
      if (template === undefined && Object.isFrozen(headers)) templates.set(headers, (template = { ...headers, 'x-request-id': '' }));
      if (template !== undefined) {
        copy = { ...template };
      } else {
        copy = {};
        for (const name in headers) copy[name] = headers[name]!;
      }
      copy['x-request-id'] = requestId;
      return copy;
    },
  };
}

/**
 * How the record names a client (`clientId`). A client the gateway did not name (rate limits and
 * blocks off; health, status and 405 answers) gets the id the gateway would give it: behind
 * trusted proxies, from `X-Forwarded-For`. Without them the id depends on the socket's address
 * alone, and its name in the record is remembered by that address (up to 4,096): one lookup a request.
 */
function createClientNamer(options: ObservedAppOptions): (record: RequestRecord, request: PlainRequest) => string | undefined {
  const clientMode = options.clientId ?? 'hash';
  if (clientMode === 'none') return () => undefined;
  const ids = options.requestId ?? true;
  const trustProxy = options.trustProxy ?? (typeof ids === 'object' ? ids.trustProxy : false);
  const hash = clientMode === 'hash' ? createClientHasher(options.fingerprintSecret) : undefined;
  const identify = createClientIdentifier(trustProxy);
  const behindProxies = trustProxy !== false && trustProxy !== 0;
  const name = hash ?? ((id: string) => id);
  const bySocket = new Map<string | undefined, string>();
  return (record, request) => {
    const known = record.client;
    if (known !== undefined) return record.tier === 'server' ? `key:${known.slice(0, 12)}` : name(known);
    if (behindProxies) return name(identify(request));
    const address = request.clientAddress;
    let id = bySocket.get(address);
    if (id === undefined) {
      if (bySocket.size >= 4096) bySocket.clear();
      bySocket.set(address, (id = name(identify(request))));
    }
    return id;
  };
}
