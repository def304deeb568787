/**
 * The request pipeline shared by the catalogue and status apps: method rules, middleware, routing
 * with itty-router, JSON serialization, HEAD, CORS and the error envelope.
 * @module
 */
import type { z } from 'zod';
import { ApiError, errorResponse, toApiError } from './errors.js';
import { ALLOWED_METHODS, baseHeaders, cacheControl, EXPOSED, type Middleware, type PlainRequest, type PlainResponse } from './http.js';
import { readQuery, type RawQuery } from './query.js';
import { isThenable } from '../internal/wrap-methods.js';
import { isCanonicalised, toCanonicalRequest } from './request-target.js';
import { createRouteMatcher, type RouteMatch } from './route-match.js';

/** What a route handler sees of the request. `Q` is its row's parsed query. */
export interface RouteRequest<Q = unknown> {
  /** Path parameters, e.g. `{ id: '20' }`. */
  params: Record<string, string>;
  /** Raw query values; a repeated key gives an array. */
  query: RawQuery;
  /** The query as the route's `query` schema parsed it (the pipeline parsed it; 400 when invalid); `undefined` without one. */
  parsed: Q;
  /** The request path, canonical (see `toCanonicalRequest`). */
  path: string;
  /** The plain request, with its canonical path and query; for headers and the client address. */
  request: PlainRequest;
}

/** A handler's answer: a JSON body with optional status and extra headers. */
export interface Reply {
  body: unknown;
  /**
   * The body already written as JSON, UTF-8: sent as it is, in place of `body` (nothing rewrites
   * it, such as image paths). For answers a store writes itself (see `CatalogueStore.pluckJson`).
   */
  json?: Uint8Array;
  /** A body that is not JSON (an HTML page), sent as it is; give its `content-type` in `headers`. */
  text?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** A route handler. `C` is the app's context (store, clock…), `Q` its row's parsed query. */
export type Handler<C, Q = unknown> = (request: RouteRequest<Q>, context: C) => Reply | Promise<Reply>;

/**
 * One route: a GET path pattern (itty syntax, e.g. `/v1/anime/:id`), its query schema, response
 * schema and cache policy, and its handler. Declare rows with {@link defineRoute} so that the
 * handler's `parsed` has the schema's type.
 */
export interface Route<C> {
  path: string;
  // The row's own schema types `parsed` (see defineRoute); the table holds rows of every schema.
  handler: Handler<C, any>;
  /**
   * The query schema: the pipeline parses the query with it before the handler runs (a failure is
   * a 400 naming the parameter) and hands the result over as `parsed`; the OpenAPI document lists
   * its parameters.
   */
  query?: z.ZodType;
  /** The 200 body's schema, for the OpenAPI document (every catalogue row gives one). */
  response?: z.ZodType;
  /**
   * Whether the gateway may keep this route's answers: `public` (the default; Server Key answers
   * are kept apart) or `no-store` (never kept, `Cache-Control: no-store`; a fresh answer each time).
   */
  cache?: 'public' | 'no-store';
  /**
   * The kind of store work the handler does, for admission (`CatalogueAppOptions.admission`):
   * `search` for searches and other list queries, which may be slow; `read` (the default) for
   * cheap reads of one record and what hangs off it.
   */
  work?: 'search' | 'read';
}

/**
 * A route row whose handler's `parsed` has the type of its query schema's output.
 * @param row - The row.
 * @returns The row.
 * @example
 * ```ts
 * defineRoute<CatalogueContext, typeof sfwQuery>({
 *   path: '/v1/anime/:id/relations',
 *   query: sfwQuery,
 *   handler: async ({ params, parsed }, { records }) => ok({ data: await ANIME_PARTS.Relations(records, Number(params.id), parsed) }),
 * });
 * ```
 */
export function defineRoute<C, S extends z.ZodType | undefined = undefined>(
  row: Omit<Route<C>, 'query' | 'handler'> & { query?: S; handler: Handler<C, S extends z.ZodType ? z.output<S> : undefined> },
): Route<C> {
  return row as Route<C>;
}

/** Something that logs unexpected failures. */
export interface Logger {
  /**
   * Logs an unexpected failure (clients see only the 500 or 503 envelope).
   * @param message - What failed.
   * @param detail - The error, or a description of it.
   */
  error(message: string, detail?: unknown): void;
}

/** Options of {@link createPipeline}. */
export interface PipelineOptions<C> {
  routes: readonly Route<C>[];
  context: C;
  middleware?: readonly Middleware[];
  logger?: Logger | undefined;
  /** Answers a path that no route matched; it is given the path as the client sees it (with `mountPath`). */
  notFound?: (path: string) => ApiError;
  /**
   * The prefix under which a host serves the app, stripped before the app sees a path (Express
   * `use('/catalogue', …)`). Error envelopes name the path the client asked for: prefix and path.
   * @default ''
   */
  mountPath?: string | undefined;
  /**
   * Writes a reply's body as JSON: text, or UTF-8 bytes with their strong entity tag (which the
   * gateway then uses rather than hashing the body; see `PlainResponse.etag`). @default JSON.stringify
   */
  serialize?: (body: unknown) => string | { bytes: Uint8Array; etag: string };
  /**
   * Headers added to every answer of the app, whatever its status or method (the version's
   * `Deprecation`, `Sunset` and `Link`). They replace a header of the same name.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Which canonical paths get `headers`: the app's own. A path no app owns is answered by the last
   * app of `combineApps`, and that answer (`/favicon.ico`, a mistyped `/v2`) is no version's.
   * @default every path
   */
  headersOn?: (path: string) => boolean;
}

const PREFLIGHT_HEADERS = 'Accept, Cache-Control, Content-Type, If-Modified-Since, If-None-Match, X-Requested-With, X-Server-Key';

/** A 200 reply. */
export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { body, headers } : { body };
}

const encoder = new TextEncoder();

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength;
}

/**
 * Builds the plain door of an app.
 * @param options - Routes, context, middleware, logger.
 * @returns A function from plain request to plain response that never throws.
 */
export function createPipeline<C>(options: PipelineOptions<C>): (request: PlainRequest) => Promise<PlainResponse> {
  const { context, logger } = options;
  const mountPath = options.mountPath ?? '';
  const always = options.headers && Object.keys(options.headers).length > 0 ? options.headers : undefined;
  const headersOn = options.headersOn;
  const serialize = options.serialize ?? JSON.stringify;
  const notFound =
    options.notFound ?? ((path: string) => new ApiError(404, `No endpoint at ${path}`, 'Check the path against the API documentation.'));
  const matchRoute = createRouteMatcher(options.routes);

  // The path and query are canonical here (see `handle`), and `match` is the path's route.
  async function dispatch(request: PlainRequest, match: RouteMatch<Route<C>> | undefined): Promise<PlainResponse> {
    if (match === undefined) throw notFound(mountPath + request.path);
    const { route } = match;
    const { raw: query, parsed } = readQuery(route.query, request.query);
    const routeRequest: RouteRequest = { params: match.params as Record<string, string>, query, parsed, path: request.path, request };
    const answer = route.handler(routeRequest, context);
    const reply = answer instanceof Promise ? await answer : answer;
    if (reply == null) throw notFound(mountPath + request.path);
    const headers = baseHeaders();
    if (route.cache === 'no-store') headers['cache-control'] = cacheControl('no-store');
    if (reply.headers) Object.assign(headers, reply.headers);
    const status = reply.status ?? 200;
    if (reply.json !== undefined || reply.text !== undefined) return { status, headers, body: reply.json ?? reply.text! };
    const written = serialize(reply.body);
    return typeof written === 'string' ? { status, headers, body: written } : { status, headers, body: written.bytes, etag: written.etag };
  }

  const stages = options.middleware ?? [];
  function run(request: PlainRequest, match: RouteMatch<Route<C>> | undefined, i: number): PlainResponse | Promise<PlainResponse> {
    const stage = stages[i];
    return stage ? stage(request, () => Promise.resolve(run(request, match, i + 1)), match?.route) : dispatch(request, match);
  }

  /** The HEAD and always-sent headers of an answer. */
  function finish(response: PlainResponse, method: string, request: PlainRequest | undefined, path: string): PlainResponse {
    if (method === 'HEAD' && response.body !== null) {
      // HEAD: same status and headers as GET, no body (RFC 9110 §9.3.2).
      response = { ...response, headers: { ...response.headers, 'content-length': String(byteLength(response.body)) }, body: null };
    }
    // Copied rather than added to: see the request id in observe.ts for why.
    if (always && request && (!headersOn || headersOn(path))) response.headers = { ...response.headers, ...always };
    return response;
  }

  /** The envelope of what a stage or route threw. */
  function failed(thrown: unknown, method: string, path: string): PlainResponse {
    const error = toApiError(thrown);
    if (error !== thrown) logger?.error(`Unhandled error on ${method} ${mountPath}${path}`, thrown);
    return errorResponse(error, mountPath + path);
  }

  // Not an async function: an answer the stages give at once (a cache hit) is finished at once,
  // with one resolved promise rather than an async function's and its awaits. What throws still
  // rejects, as the door promises.
  return function handle(received) {
    try {
      return answer(received);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  function answer(received: PlainRequest): Promise<PlainResponse> {
    const method = received.method;
    // The canonical target, decided once before any stage runs (by `combineApps` when the app is
    // one of several): the gateway (restricted routes, limits, cache key), the router and the
    // error envelope all read this one path.
    const request = isCanonicalised(received) ? received : toCanonicalRequest(received);
    const path = request ? request.path : '/';
    // Its route, matched once, before anything can answer (an OPTIONS, a 405, a cached answer
    // that never reaches a route): every stage and the handler are given this one row.
    const match = request && matchRoute(path);
    // The access log and metrics name this path too, not the raw target, and this route.
    const trace = received.trace;
    if (trace && request) {
      trace.path = path;
      trace.route = match?.route.path;
    }
    let response: PlainResponse | Promise<PlainResponse>;
    try {
      if (received.malformed !== undefined) {
        throw new ApiError(400, 'Malformed HTTP request', received.malformed);
      } else if (method === 'OPTIONS') {
        response = {
          status: 204,
          headers: {
            allow: ALLOWED_METHODS,
            'access-control-allow-origin': '*',
            'access-control-expose-headers': EXPOSED,
            'access-control-allow-methods': ALLOWED_METHODS,
            'access-control-allow-headers': PREFLIGHT_HEADERS,
            'access-control-max-age': '86400',
          },
          body: null,
        };
      } else if (method !== 'GET' && method !== 'HEAD') {
        throw new ApiError(405, `Method ${method} is not allowed`, undefined, { allow: ALLOWED_METHODS });
      } else if (!request) {
        // `*`, `host:443`, `http://[::1`: not a path of this server (RFC 9112 §3.2).
        throw new ApiError(400, 'Malformed request target', 'The request target must be a path such as /v1/anime, or an absolute http(s) URL.');
      } else {
        response = run(request, match, 0);
      }
    } catch (thrown) {
      response = failed(thrown, method, path);
    }
    if (!isThenable(response)) return Promise.resolve(finish(response, method, request, path));
    return (response as Promise<PlainResponse>).then(
      (answer) => finish(answer, method, request, path),
      (thrown: unknown) => finish(failed(thrown, method, path), method, request, path),
    );
  }
}
