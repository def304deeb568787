/**
 * The request pipeline shared by the catalogue and status apps: method rules, middleware, routing
 * with itty-router, JSON serialization, HEAD, CORS and the error envelope.
 * @module
 */
import { Router } from 'itty-router';
import type { z } from 'zod';
import { ApiError, toApiError } from '../errors.js';
import { ALLOWED_METHODS, type Middleware, type PlainRequest, type PlainResponse } from '../http.js';
import type { RawQuery } from '../query.js';

/** What a route handler sees of the request. */
export interface RouteRequest {
  /** Path parameters, e.g. `{ id: '20' }`. */
  params: Record<string, string>;
  /** Raw query values; a repeated key gives an array. */
  query: RawQuery;
  /** The request path. */
  path: string;
  /** The plain request, for headers and the client address. */
  request: PlainRequest;
}

/** A handler's answer: a JSON body with optional status and extra headers. */
export interface Reply {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}

/** A route handler. `C` is the app's context (store, clock…). */
export type Handler<C> = (request: RouteRequest, context: C) => Reply | Promise<Reply>;

/** One route: a GET path pattern (itty syntax, e.g. `/v1/anime/:id`) and its handler. */
export interface Route<C> {
  path: string;
  handler: Handler<C>;
  /** The query schema the handler parses with; the OpenAPI document lists its parameters. */
  query?: z.ZodType;
  /** The 200 body's schema, for the OpenAPI document (else `responseSchemas[path]`). */
  response?: z.ZodType;
}

/** Something that logs unexpected failures. */
export interface Logger {
  error(message: string, detail?: unknown): void;
}

/** Options of {@link createPipeline}. */
export interface PipelineOptions<C> {
  routes: readonly Route<C>[];
  context: C;
  middleware?: readonly Middleware[];
  logger?: Logger | undefined;
  /** Answers a path that no route matched. */
  notFound?: (path: string) => ApiError;
  /** Writes a reply's body as JSON text. @default JSON.stringify */
  serialize?: (body: unknown) => string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
// Browsers may read these from cross-origin answers (CORS "exposed headers").
const EXPOSED = 'Retry-After, ETag, Last-Modified, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
const PREFLIGHT_HEADERS = 'Accept, Cache-Control, Content-Type, If-Modified-Since, If-None-Match, X-Requested-With, X-Server-Key';

/** @returns The headers every response starts with. */
export function baseHeaders(): Record<string, string> {
  return { 'content-type': JSON_TYPE, 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
}

/**
 * The error envelope as a plain response, with `Cache-Control: no-store` (errors are never cached).
 * @param error - The error.
 * @param path - The request path.
 */
export function errorResponse(error: ApiError, path: string): PlainResponse {
  const headers = baseHeaders();
  headers['cache-control'] = 'no-store';
  for (const name in error.headers) headers[name] = error.headers[name]!;
  return { status: error.status, headers, body: JSON.stringify(error.toEnvelope(path)) };
}

/** A 200 reply. */
export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { body, headers } : { body };
}

interface IttyRequest {
  method: string;
  url: string;
  params: Record<string, string>;
  query: RawQuery;
  plain: PlainRequest;
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
  const serialize = options.serialize ?? JSON.stringify;
  const notFound =
    options.notFound ?? ((path: string) => new ApiError(404, `No endpoint at ${path}`, 'Check the path against the API documentation.'));
  const router = Router<IttyRequest, [C]>();
  for (const route of options.routes) {
    router.get(route.path, (req: IttyRequest, ctx: C) =>
      route.handler({ params: req.params, query: req.query, path: req.plain.path, request: req.plain }, ctx),
    );
  }

  async function dispatch(request: PlainRequest): Promise<PlainResponse> {
    const target = request.query ? `${request.path}?${request.query}` : request.path;
    const reply = (await router.fetch(
      { method: 'GET', url: `http://x${target}`, plain: request, params: {}, query: {} },
      context,
    )) as Reply | undefined;
    if (reply === undefined) throw notFound(request.path);
    const headers = baseHeaders();
    if (reply.headers) Object.assign(headers, reply.headers);
    return { status: reply.status ?? 200, headers, body: serialize(reply.body) };
  }

  const stages = options.middleware ?? [];
  function run(request: PlainRequest, i: number): Promise<PlainResponse> {
    const stage = stages[i];
    return stage ? stage(request, () => run(request, i + 1)) : dispatch(request);
  }

  return async function handle(request) {
    const method = request.method;
    let response: PlainResponse;
    try {
      if (method === 'OPTIONS') {
        response = {
          status: 204,
          headers: {
            allow: ALLOWED_METHODS,
            'access-control-allow-origin': '*',
            'access-control-allow-methods': ALLOWED_METHODS,
            'access-control-allow-headers': PREFLIGHT_HEADERS,
            'access-control-max-age': '86400',
          },
          body: null,
        };
      } else if (method !== 'GET' && method !== 'HEAD') {
        throw new ApiError(405, `Method ${method} is not allowed`, undefined, { allow: ALLOWED_METHODS });
      } else {
        response = await run(request, 0);
      }
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error !== thrown) logger?.error(`Unhandled error on ${method} ${request.path}`, thrown);
      response = errorResponse(error, request.path);
    }
    if (method === 'HEAD' && response.body !== null) {
      // HEAD: same status and headers as GET, no body (RFC 9110 §9.3.2).
      response = { ...response, headers: { ...response.headers, 'content-length': String(byteLength(response.body)) }, body: null };
    }
    return response;
  };
}
