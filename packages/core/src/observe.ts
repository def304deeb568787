/**
 * `createObservedApp`: one record per request (route template, status, bytes, duration, tier,
 * cache, client, request id) handed to observers such as an access log or metrics, and the
 * `X-Request-Id` header on every answer.
 * @module
 */
import { createBodyMemo } from './body-memo.js';
import { compileTrust, type TrustProxy } from './gateway/client-address.js';
import { monotonicClock } from './internal/clock.js';
import { fromWebRequest, toWebResponse, type PlainRequest, type PlainResponse, type RequestContext, type RequestTrace } from './http.js';

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
  /** From the request reaching the app to its answer being ready, in milliseconds. */
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
   * `X-Request-Id`: `true` generates one per request (a UUID) and sends it back; an object also
   * accepts the one a trusted proxy sent (same rules as the gateway's `trustProxy`); `false`: none.
   * @default true
   */
  requestId?: boolean | { trustProxy: TrustProxy };
  /**
   * `client` in the record: `hash` (a salted hash of the gateway's client id, stable for this
   * process; a Server Key client is `key:` and the start of the key's fingerprint), `address`
   * (the IP address itself) or `none`.
   * @default 'hash'
   */
  clientId?: ClientIdMode;
  /** A monotonic clock in milliseconds, for durations. @default performance.now */
  clock?: () => number;
  /** The wall clock, for `time`. @default Date.now */
  now?: () => number;
}

/** An app with the two doors, as `createCatalogueApp` and `combineApps` make them. */
export interface ObservableApp {
  /**
   * The plain door.
   * @param request - The plain request.
   * @returns The plain response; never rejects.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * Whether a path belongs to this app.
   * @param path - A request path.
   */
  owns(path: string): boolean;
}

/** The observed app: the same doors. */
export interface ObservedApp extends ObservableApp {
  /**
   * The Web-standard door.
   * @param request - The request.
   * @param context - The client address, from the host.
   * @returns The response; never rejects.
   */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
}

// What a proxy may pass on as a request id: short, printable, nothing that could break a log line.
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    // Two bytes up to U+07FF and for each half of a surrogate pair (four in all), three otherwise.
    bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

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
 * Two 32-bit numbers as sixteen hex digits, in one flat string. `Number.prototype.toString(16)`
 * took ~0.4 µs a number on Node 20: every request of a client past the remembered ones cost ~1 µs.
 * This takes ~70 ns.
 */
function hex64(a: number, b: number): string {
  const h = HEX_DIGITS;
  return String.fromCharCode(
    h[a >>> 28]!, h[(a >>> 24) & 15]!, h[(a >>> 20) & 15]!, h[(a >>> 16) & 15]!, h[(a >>> 12) & 15]!, h[(a >>> 8) & 15]!, h[(a >>> 4) & 15]!, h[a & 15]!,
    h[b >>> 28]!, h[(b >>> 24) & 15]!, h[(b >>> 20) & 15]!, h[(b >>> 16) & 15]!, h[(b >>> 12) & 15]!, h[(b >>> 8) & 15]!, h[(b >>> 4) & 15]!, h[b & 15]!,
  );
}

/**
 * The salted 64-bit FNV-1a of a client id, in hex: the same client gets the same id in every log
 * line of this process, and the address cannot be read back.
 */
function createClientHasher(): (id: string) => string {
  const salt = new Uint32Array(2);
  crypto.getRandomValues(salt);
  // Clients come back: their hashes are remembered (up to 4,096, then started afresh).
  const known = new Map<string, string>();
  return (id) => {
    const seen = known.get(id);
    if (seen !== undefined) return seen;
    if (known.size >= 4096) known.clear();
    let a = 0x811c9dc5 ^ salt[0]!;
    let b = 0x01000193 ^ salt[1]!;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    const hash = hex64(a, b);
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
export function createObservedApp(app: ObservableApp, options: ObservedAppOptions): ObservedApp {
  const observers = options.observers;
  const clock = options.clock ?? monotonicClock();
  const now = options.now ?? Date.now;
  const ids = options.requestId ?? true;
  const trust = typeof ids === 'object' ? compileTrust(ids.trustProxy) : false;
  const trusted = (request: PlainRequest): boolean => {
    if (trust === false || trust === 0) return false;
    if (typeof trust !== 'function') return true;
    const address = request.clientAddress;
    return address !== undefined && trust(address);
  };
  const clientMode = options.clientId ?? 'hash';
  const hash = clientMode === 'hash' ? createClientHasher() : undefined;
  // Cached answers come back as the same string: its size is remembered, found by one lookup,
  // where counting a 3 KB body costs a few microseconds (a tenth of a cache hit's work).
  const sizeOf = createBodyMemo(utf8Length, (bytes) => bytes, { minChars: 256 });
  const newId = createUuidSource();
  const one = observers.length === 1 ? observers[0] : undefined;

  function clientOf(record: RequestRecord, request: PlainRequest): string | undefined {
    if (clientMode === 'none') return undefined;
    const known = record.client;
    if (record.tier === 'server' && known !== undefined) return `key:${known.slice(0, 12)}`;
    const id = known ?? request.clientAddress ?? 'unknown';
    return hash ? hash(id) : id;
  }

  // The answer's headers and `x-request-id`, in a new object: the answer's own may be shared (see
  // `PlainResponse.headers`). Spread syntax copied them by V8's slow path on Node 20: ~150 ns for
  // a cache hit's eight frozen headers, ~1 µs for the eleven of a rate-limited hit (its own copy,
  // made by the gateway from a template of its own: `fromEntry` in gateway/gateway.ts). Shared
  // headers are frozen; each gets a plain template with `x-request-id` in place, once, which copies
  // in ~25 ns and takes the id without changing shape. Others are copied field by field (~200 ns).
  // The template is looked up first: asking `Object.isFrozen` on every answer cost more than the
  // lookup (~20 ns).
  const templates = new WeakMap<Record<string, string>, Record<string, string>>();
  function withRequestId(headers: Record<string, string>, requestId: string): Record<string, string> {
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
  }

  // Not an async function: one promise reaction instead of an async function's own promise and
  // its await (~60 ns a request on Node 20). What throws still rejects, as the door promises.
  function handle(request: PlainRequest): Promise<PlainResponse> {
    try {
      return begin(request);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function begin(request: PlainRequest): Promise<PlainResponse> {
    const started = clock();
    let requestId: string | undefined;
    if (ids !== false) {
      const sent = trust !== false ? request.header('x-request-id') : undefined;
      requestId = sent !== undefined && REQUEST_ID.test(sent) && trusted(request) ? sent : newId();
    }
    // One object per request, every field present from the start (one shape for the engine).
    const record: RequestRecord = {
      time: now(),
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
    return app.handle(request).then((response) => answered(request, record, started, response));
  }

  function answered(request: PlainRequest, record: RequestRecord, started: number, response: PlainResponse): PlainResponse {
    record.durationMs = Math.round((clock() - started) * 1000) / 1000;
    record.status = response.status;
    const body = response.body;
    record.bytes = body === null ? 0 : typeof body === 'string' ? sizeOf(body) : body.byteLength;
    record.client = clientOf(record, request);
    if (record.requestId !== undefined) response.headers = withRequestId(response.headers, record.requestId);
    try {
      if (one) one(record);
      else for (const observe of observers) observe(record);
    } catch {
      // An observer's failure (a full disk, a closed stream) never costs the client its answer.
    }
    return response;
  }

  if (observers.length === 0 && ids === false) {
    return { handle: (request) => app.handle(request), owns: (path) => app.owns(path), fetch: async (r, c) => toWebResponse(await app.handle(fromWebRequest(r, c))) };
  }
  return {
    handle,
    owns: (path) => app.owns(path),
    fetch: async (request, context) => toWebResponse(await handle(fromWebRequest(request, context))),
  };
}
