/**
 * The plain request and response that the pipeline works on, and their Web-standard doors.
 * @module
 */
import { createBodyMemo } from './body-memo.js';

/**
 * A request as the pipeline sees it. Adapters build it straight from their runtime's request,
 * without allocating a Web `Request` (which costs most of Node's throughput).
 */
export interface PlainRequest {
  /** Upper-case HTTP method. */
  method: string;
  /**
   * URL path as received, e.g. `/v1/anime`; not decoded. An app's pipeline resolves dot segments,
   * `%2e` and `\` once, before any stage (see docs/configuration.md, "Request paths"); a path
   * that does not start with `/` is answered with 400.
   */
  path: string;
  /** Raw query string without the leading `?`; empty when there is none. */
  query: string;
  /** Header lookup by lower-case name; `undefined` when absent. */
  header(name: string): string | undefined;
  /** The client's IP address as the transport saw it (socket address), when known. */
  clientAddress?: string | undefined;
  /**
   * When the host received the request, on `performance.now()`'s timeline (milliseconds), if it
   * read that clock anyway: Node's adapter does, for its turn budget. `createObservedApp` (with its
   * default clock) times the request from it rather than reading the clock a second time.
   */
  receivedAt?: number | undefined;
  /**
   * What the stages learned about this request, for the access log and metrics. Set by
   * `createObservedApp` only; without it no stage records anything.
   */
  trace?: RequestTrace | undefined;
  /**
   * Set only by the host itself for requests it makes in-process (the status checker's probe of its
   * own catalogue): the gateway counts them under this name, apart from every client, and never
   * blocks them. Adapters never set it from the wire.
   */
  internalClient?: string | undefined;
  /**
   * Set by an adapter for a request its HTTP server parsed although it breaks HTTP/1.1 (no `Host`,
   * an `Expect` other than `100-continue`): the app answers it 400 (`Malformed HTTP request`, with
   * this as the detail) like any other answer of its path, with the version's headers, a request
   * id and a log line; the adapter then closes the connection.
   */
  malformed?: string | undefined;
}

/**
 * What the stages of an app note about one request while answering it: one mutable object per
 * request, made only when something observes (see `createObservedApp`).
 */
export interface RequestTrace {
  /** The canonical path (dot segments, `%2e` and `\\` resolved), which the pipeline decides once. */
  path?: string | undefined;
  /** The route template that answered (`/v1/anime/:id`), as the pipeline matched it. */
  route?: string | undefined;
  /** The gateway tier. */
  tier?: 'public' | 'server' | undefined;
  /** The gateway's client id: IP address or IPv6 /64 for the public tier, the key's fingerprint for the Server Key tier. */
  client?: string | undefined;
  /** How the response cache served it: `hit`, `miss`, or `bypass` (not cacheable); `not_modified` when answered 304. */
  cache?: 'hit' | 'miss' | 'bypass' | 'not_modified' | undefined;
  /** The rate-limit window that refused it (429). */
  limited?: 'second' | 'minute' | 'day' | undefined;
  /** Refused by a temporary block (403). */
  blocked?: boolean | undefined;
  /** Refused because the gateway back end did not answer (503). */
  unavailable?: boolean | undefined;
}

/** A response as the pipeline produces it. Header names are lower-case. */
export interface PlainResponse {
  status: number;
  /**
   * Lower-case names. The same object may be shared by many answers (a gateway cache hit's headers
   * are, and are frozen): copy it to add or remove a header, never change it in place.
   */
  headers: Record<string, string>;
  /** The body bytes or text; `null` for 204, 304 and HEAD. */
  body: string | Uint8Array | null;
  /**
   * A strong entity tag (quoted) of exactly `body`, when whoever wrote the body made one as it did
   * (the catalogue's serializer, from its records' digests): the gateway sends it rather than
   * hashing the body again. Absent: the gateway hashes the body.
   */
  etag?: string | undefined;
}

/** What every adapter's `serve()` takes; the Node adapter adds connection limits and timeouts. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
  /** Aborting it closes the server gracefully, like `close()`. */
  signal?: AbortSignal;
}

/** A running server, as every adapter's `serve()` gives it; the Node adapter adds the Node server. */
export interface Server {
  /** The base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/** Per-request context a host passes to `fetch`. */
export interface RequestContext {
  /** The client's IP address (from the socket; Bun's `server.requestIP`, Deno's `info.remoteAddr`). */
  clientAddress?: string | undefined;
  /** For a request the host makes in-process: see `PlainRequest.internalClient`. */
  internalClient?: string | undefined;
}

/**
 * What the stages around the routes learn of the route that answers a request: the pipeline
 * matches the path once, before any stage runs, and hands every stage the same row.
 */
export interface MatchedRoute {
  /** The route's path template (`/v1/anime/:id`), as the access log and metrics name it. */
  readonly path: string;
  /**
   * Whether the gateway may keep the route's answers: `public` (the default) or `no-store` (never
   * kept, `Cache-Control: no-store`; the random picks).
   */
  readonly cache?: 'public' | 'no-store' | undefined;
}

/**
 * A stage around the pipeline: it may answer itself, or call `next` and adjust the answer.
 * The gateway (rate limits, keys, caching) is a chain of these. `route` is the route that will
 * answer the request's path, `undefined` when none does (the answer is then a 404). A stage that
 * can answer without waiting (the gateway's hit on its in-memory cache) may return the answer
 * itself rather than a promise of it.
 */
export type Middleware = (request: PlainRequest, next: () => Promise<PlainResponse>, route?: MatchedRoute) => PlainResponse | Promise<PlainResponse>;

/** Something that answers plain requests: an app's plain door. */
export type PlainHandler = (request: PlainRequest) => Promise<PlainResponse>;

/**
 * An app: what `createCatalogueApp`, `createStatusApp`, `createHealthApp`, `createMetricsApp`,
 * `combineApps` and `createObservedApp` return, and what every adapter's `serve()` takes.
 */
export interface App {
  /**
   * The Web-standard door, for Bun, Deno, workers and tests.
   * @param request - The request.
   * @param context - The client address, from the host.
   * @returns The response; never rejects.
   */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /**
   * The plain door, for hosts where Web `Request`/`Response` objects are costly (Node).
   * @param request - The plain request.
   * @returns The plain response; never rejects.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * Whether a path belongs to this app, so that `combineApps` and middleware hosts can pass others on.
   * @param path - A request path.
   */
  owns(path: string): boolean;
}

/** Which paths an app owns, by their canonical form: see {@link toApp}. */
const canonicalOwners = new WeakMap<object, (path: string) => boolean>();

/**
 * Makes an app of a plain door: the one place the Web-standard door is written.
 * @param handle - The plain door.
 * @param owns - Whether a path belongs to the app.
 * @param more - Members the app has besides its doors (a status app's `snapshot`…).
 * @param ownsCanonical - The same test for a path already canonical, which skips canonicalising
 *   it again (`combineApps` asks it after canonicalising the request once). @default owns
 * @returns The app.
 */
export function toApp<T extends object = object>(
  handle: PlainHandler,
  owns: (path: string) => boolean,
  more?: T,
  ownsCanonical?: (path: string) => boolean,
): App & T {
  const app = Object.assign(more ?? ({} as T), {
    handle,
    owns,
    fetch: async (request: Request, context?: RequestContext) => toWebResponse(await handle(fromWebRequest(request, context))),
  });
  if (ownsCanonical) canonicalOwners.set(app, ownsCanonical);
  return app;
}

/**
 * Whether an app owns a canonical path: its own test for canonical paths when it has one, else `owns`.
 * @param app - The app.
 * @param path - A canonical path.
 */
export function ownsCanonical(app: Pick<App, 'owns'>, path: string): boolean {
  return canonicalOwnerOf(app)(path);
}

/**
 * An app's test for canonical paths, for a caller that asks it of every request (`combineApps`).
 * @param app - The app.
 * @returns Its own test for canonical paths when it has one, else its `owns`.
 */
export function canonicalOwnerOf(app: Pick<App, 'owns'>): (path: string) => boolean {
  return canonicalOwners.get(app) ?? ((path) => app.owns(path));
}

/** The media type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** What browsers may read from cross-origin answers (CORS "exposed headers"). */
export const EXPOSED = 'Retry-After, ETag, Last-Modified, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id';

/** @returns The headers every JSON answer starts with. */
export function baseHeaders(): Record<string, string> {
  return { 'content-type': JSON_TYPE, 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
}

/**
 * How an answer may be kept: `no-store` (errors, random picks, metrics, health), or by shared
 * caches (`public`) or the client alone (`private`) for `maxAge` seconds.
 */
export type CachePolicy = 'no-store' | { readonly scope: 'public' | 'private'; readonly maxAge: number };

/**
 * The `Cache-Control` value of a policy: the one place it is written.
 * @param policy - The policy.
 * @returns `no-store`, or `public, max-age=N` / `private, max-age=N`.
 */
export function cacheControl(policy: CachePolicy): string {
  return policy === 'no-store' ? 'no-store' : `${policy.scope}, max-age=${policy.maxAge}`;
}

/** @returns The headers of every error envelope: a JSON answer never kept by any cache. */
export function envelopeHeaders(): Record<string, string> {
  const headers = baseHeaders();
  headers['cache-control'] = cacheControl('no-store');
  return headers;
}

/** The methods the API accepts (spec, "Endpoints"). */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * Builds a plain request from a Web `Request`.
 * @param request - The Web request.
 * @param context - Per-request context from the host. `clientAddress` is read when the app reads
 * it, not before: a host whose address lookup costs something (Bun's `requestIP`, ~5 % of a cached
 * answer's work) can pass a getter, and apps that never ask (no gateway, or one without rate
 * limits or blocks) never pay for it.
 * @returns The plain request.
 */
export function fromWebRequest(request: Request, context?: RequestContext): PlainRequest {
  const url = request.url;
  // Avoid `new URL()`: the path and query are all we need and the request URL is absolute.
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const target = start < 0 ? '/' : url.slice(start);
  const hash = target.indexOf('#');
  const bare = hash < 0 ? target : target.slice(0, hash);
  const q = bare.indexOf('?');
  return {
    method: request.method,
    path: q < 0 ? bare : bare.slice(0, q),
    query: q < 0 ? '' : bare.slice(q + 1),
    // Bun makes the Headers object on first access: not before a header is asked for.
    header: (name) => request.headers.get(name) ?? undefined,
    get clientAddress() {
      return context?.clientAddress;
    },
    internalClient: context?.internalClient,
    // Present from the start, so that `createObservedApp` setting it keeps the object's shape.
    trace: undefined,
  };
}

const encoder = new TextEncoder();
// Shorter string bodies go to the Response as they are: they cost little to encode again.
const LARGE_BODY_CHARS = 4096;
const toBytes = createBodyMemo((text) => encoder.encode(text), (bytes) => bytes.byteLength, { minChars: LARGE_BODY_CHARS });

/**
 * The body as the Response gets it. A large string is handed over as its UTF-8 bytes, remembered
 * (newest first, at most 8 MiB): a cached answer comes back as the same string, and Deno encodes
 * a string body again for every response it sends (a 30 KB page with Japanese titles through the
 * gateway cache cost 2.2× the CPU of the same bytes; bench/http-adapters.mjs).
 */
function toBody(body: string | Uint8Array | null): string | Uint8Array | null {
  return typeof body === 'string' && body.length >= LARGE_BODY_CHARS ? toBytes(body) : body;
}

/** A Web response made once for a shared head, with the status and body it was made for. */
interface WebTemplate {
  status: number;
  body: PlainResponse['body'];
  /** Made on the second answer with these headers and body: a head used once (a hit read from a shared cache's back end, new each time) never costs a clone. */
  response: Response | undefined;
}

// By the frozen headers object an answer shares with the others of its cache entry (see
// `PlainResponse.headers`); the entry and its template go together.
const templates = new WeakMap<object, WebTemplate>();

/**
 * Builds a Web `Response` from a plain response.
 *
 * An answer whose headers are frozen shares them with every hit on its cache entry in the same
 * second (the gateway's `fromEntry`): its Response is built once, on the second answer, and each
 * answer from then on is a `clone()` of it, which copies a header list the runtime has already
 * checked rather than checking each name and value again, and shares the body. Building a
 * Response from the ten headers of a hit took ~3.5 µs of Deno's ~17 µs for a 23.5 KB cache hit
 * over HTTP; a clone and the request id ~0.7 µs (`wrk -t2 -c64`, CPU per request).
 * @param response - The plain response.
 * @param extra - One more header, of this answer alone (the request id), as `[name, value]`.
 * @returns The Web response.
 * @throws TypeError when a header name or value is not one Fetch allows.
 */
export function toWebResponse(response: PlainResponse, extra?: readonly [name: string, value: string]): Response {
  const { status, headers, body } = response;
  let web: Response;
  const shared = Object.isFrozen(headers);
  const template = shared ? templates.get(headers) : undefined;
  if (template !== undefined && template.body === body && template.status === status) {
    template.response ??= new Response(toBody(body) as BodyInit | null, { status, headers });
    web = template.response.clone();
  } else {
    if (shared) templates.set(headers, { status, body, response: undefined });
    web = new Response(toBody(body) as BodyInit | null, { status, headers });
  }
  if (extra !== undefined) web.headers.set(extra[0], extra[1]);
  return web;
}

/**
 * Splits an origin-form request target (`/v1/anime?q=x`) into path and query.
 * @param target - The request target, as Node's `req.url` gives it.
 * @returns The path and the raw query string.
 */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
