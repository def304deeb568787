/**
 * The one error type of the API and the one function that writes the error envelope.
 * @module
 */

import { suspendStackTraces } from '../internal/no-stack.js';
import { envelopeHeaders, type PlainResponse } from './http.js';

/** Error categories of the specification's Errors table, by HTTP status. */
export const ERROR_TYPES = {
  400: 'BadRequestException',
  401: 'UnauthorizedException',
  403: 'ForbiddenException',
  404: 'NotFoundException',
  405: 'MethodNotAllowedException',
  429: 'RateLimitException',
  500: 'InternalServerErrorException',
  502: 'BadGatewayException',
  503: 'ServiceUnavailableException',
  504: 'GatewayTimeoutException',
} as const;

/** An HTTP status that has an error category in the specification. */
export type ErrorStatus = keyof typeof ERROR_TYPES;

/** The error envelope every non-2xx response carries (spec, "Error envelope"). */
export interface ErrorEnvelope {
  /** The HTTP status, as a number. */
  status: number;
  /** The error class: `BadRequestException`, `NotFoundException`, `RateLimitException`… */
  type: string;
  /** What went wrong; for a 400, it names the parameter and what is allowed. */
  message: string;
  /** Extra context or what to do about it. */
  error: string;
  /** The request path. */
  path: string;
}

const GUIDANCE: Record<ErrorStatus, string> = {
  400: 'Invalid or incomplete request. Check the parameter named in the message and try again.',
  401: 'Send a valid Server Key in the X-Server-Key header, or no key at all for public access.',
  403: 'Too many requests were refused; wait until the block ends.',
  404: 'The requested route or record does not exist.',
  405: 'Only GET, HEAD and OPTIONS are supported.',
  429: 'Wait the number of seconds in the Retry-After header before trying again.',
  500: 'Unexpected server failure. Please try again later.',
  502: 'The gateway could not reach the upstream service. Please try again later.',
  503: 'The service is offline or busy. Please try again shortly.',
  504: 'The upstream service did not answer in time. Please try again later.',
};

/**
 * An error that becomes an error-envelope response. Anything thrown inside the pipeline
 * that is not an `ApiError` becomes the generic 500 envelope, with no stack or detail.
 * An `ApiError` is an answer, not a fault: it captures no stack trace (half the cost of a 400).
 *
 * @example
 * ```ts
 * throw ApiError.badParam('limit', 'an integer from 1 to 50');
 * // → 400 {"status":400,"type":"BadRequestException","message":"limit must be an integer from 1 to 50",…}
 * ```
 */
export class ApiError extends Error {
  /** HTTP status of the response. */
  readonly status: ErrorStatus;
  /** Machine-readable error category, as in the spec's Errors table. */
  readonly type: string;
  /** Extra context or recovery guidance (the envelope's `error` field). */
  readonly error: string;
  /** Extra response headers, such as `Retry-After` or `Allow`. */
  readonly headers: Readonly<Record<string, string>>;

  /**
   * Creates an error that answers with the envelope; prefer the named factories.
   * @param status - HTTP status; decides `type`.
   * @param message - Human-readable explanation.
   * @param error - Extra context or recovery guidance; defaults to a generic text for the status.
   * @param headers - Extra response headers.
   */
  constructor(status: ErrorStatus, message: string, error?: string, headers: Record<string, string> = {}) {
    // An answer, not a fault: no stack is captured (see `suspendStackTraces`). Error's constructor
    // does not throw, so the limit is always restored.
    const restore = suspendStackTraces();
    super(message);
    restore();
    this.name = 'ApiError';
    this.status = status;
    this.type = ERROR_TYPES[status];
    this.error = error ?? GUIDANCE[status];
    this.headers = headers;
  }

  /**
   * 400 for a query or path parameter outside what is allowed.
   * @param name - The parameter as the client spelled it.
   * @param allowed - What is allowed, completing "`name` must be …".
   * @returns The error, to throw.
   */
  static badParam(name: string, allowed: string): ApiError {
    return new ApiError(400, `${name} must be ${allowed}`);
  }

  /**
   * 404 for a record that does not exist.
   * @param kind - Resource kind, e.g. `anime`.
   * @param id - The requested id.
   * @returns The error, to throw.
   */
  static notFound(kind: string, id: number | string): ApiError {
    return new ApiError(404, `No ${kind} with id ${id} exists`, `There is no ${kind} record with mal_id ${id} in this catalogue.`);
  }

  /**
   * 429 for a breached rate limit.
   * @param retryAfter - Whole seconds until the blocking window resets (at least 1).
   * @param message - The spec's message for the breached window.
   * @param error - Names the limit and the tier.
   * @returns The error, to throw.
   */
  static rateLimited(retryAfter: number, message: string, error: string): ApiError {
    return new ApiError(429, message, error, { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) });
  }

  /**
   * 503 for a back end that is offline or busy (spec, Errors: "API offline or busy"): a store that
   * did not answer within its timeout or lost its connection. Clients retry after `Retry-After: 1`.
   * @param message - What is unavailable. @default 'Service Unavailable'
   * @param error - What to do about it. @default the generic 503 guidance
   * @returns The error, to throw.
   * @example
   * ```ts
   * throw ApiError.unavailable();
   * // → 503 {"status":503,"type":"ServiceUnavailableException",…} with Retry-After: 1
   * ```
   */
  static unavailable(message = 'Service Unavailable', error?: string): ApiError {
    return new ApiError(503, message, error, { 'retry-after': '1' });
  }

  /** @returns The envelope of this error for a request to `path`. */
  toEnvelope(path: string): ErrorEnvelope {
    return errorEnvelope(this.status, this.message, this.error, path);
  }
}

/**
 * What a store throws when its back end cannot answer: the connection is lost or refused, or the
 * database says it is shutting down or out of connections. The apps answer it with 503 and
 * `Retry-After: 1` instead of the 500 envelope, and so do they for a store call that outlives
 * `storeTimeoutMs`. Any other error a store throws stays a 500. Recognized by name as well as by
 * class, so that a store built against another copy of core is still understood.
 *
 * @example
 * ```ts
 * import { StoreUnavailableError } from '@catalogue-api/core';
 *
 * try {
 *   return await db.query(sql);
 * } catch (cause) {
 *   if (isConnectionError(cause)) throw new StoreUnavailableError('database unreachable', { cause });
 *   throw cause;
 * }
 * ```
 */
export class StoreUnavailableError extends Error {
  /**
   * Creates the error, to throw from a store method.
   * @param message - What failed, for the server log (clients never see it).
   * @param options - The underlying error, as `cause`.
   */
  constructor(message = 'Store unavailable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }

  /**
   * Tells a `StoreUnavailableError` from any other thrown value.
   * @param value - Anything thrown.
   * @returns Whether it is a `StoreUnavailableError`, from this copy of core or another.
   */
  static is(value: unknown): value is StoreUnavailableError {
    return value instanceof StoreUnavailableError || (value instanceof Error && value.name === 'StoreUnavailableError');
  }
}

/**
 * Writes the error envelope. This is the only place the envelope is built.
 * @param status - HTTP status with an error category.
 * @param message - Human-readable explanation.
 * @param error - Extra context or recovery guidance.
 * @param path - The request path that produced the error.
 * @returns `{status, type, message, error, path}` in that order.
 */
export function errorEnvelope(status: ErrorStatus, message: string, error: string, path: string): ErrorEnvelope {
  return { status, type: ERROR_TYPES[status], message, error, path };
}

/**
 * The error envelope as a plain response: the one writer of error answers, for the pipeline, the
 * gateway and the adapters' own 400 and 500. JSON, CORS, `Cache-Control: no-store` (errors are
 * never cached), then the error's own headers (`Retry-After`, `Allow`…).
 * @param error - The error.
 * @param path - The request path, for the envelope.
 * @returns The plain response.
 */
export function errorResponse(error: ApiError, path: string): PlainResponse {
  // The same error again at the same path (a blocked client's 403, see `forbidden` in the gateway):
  // the same frozen headers and body, in a new response. Later stages copy frozen headers.
  const last = lastError;
  if (last !== undefined && last.error === error && last.path === path) return { status: error.status, headers: last.headers, body: last.body };
  const headers = envelopeHeaders();
  for (const name in error.headers) headers[name] = error.headers[name]!;
  const body = JSON.stringify(error.toEnvelope(path));
  lastError = { error, path, headers: Object.freeze(headers), body };
  return { status: error.status, headers, body };
}

let lastError: { error: ApiError; path: string; headers: Readonly<Record<string, string>>; body: string } | undefined;

/**
 * The 500 answer a host gives when the app failed to answer, or its answer cannot be sent (a
 * header value the runtime refuses): the error envelope, with no detail of the failure.
 * @param path - The request path, for the envelope.
 * @returns The plain response.
 * @example
 * ```ts
 * app.handle(request).catch(() => internalErrorResponse(request.path));
 * ```
 */
export function internalErrorResponse(path: string): PlainResponse {
  return errorResponse(new ApiError(500, 'Internal server error'), path);
}

/**
 * Turns anything thrown into an `ApiError`: itself when it is one, the 503 error for a
 * {@link StoreUnavailableError}, the 500 error otherwise. The original error is never exposed to clients.
 */
export function toApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown;
  return StoreUnavailableError.is(thrown) ? ApiError.unavailable() : new ApiError(500, 'Internal server error');
}
