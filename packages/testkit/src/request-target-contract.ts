/**
 * The request-target contract: every stage of a deployment (the gateway's restricted routes and
 * cache, the router, the error envelope) must read one canonical path. A target with dot
 * segments, `%2e`, backslashes or trailing slashes is resolved once, as the WHATWG URL parser
 * does, so that it can never pass the gateway as one path and reach the router as another.
 *
 * The checks send raw targets over a TCP socket (a `fetch` client would resolve them first), to
 * a server whose gateway restricts `/v1/top/*` and `/v1/anime/:id/full` to a Server Key and has
 * its response cache on; rate limits may be off.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from './internal/raw-http.js';

/** Options of {@link defineRequestTargetContract}. */
export interface RequestTargetContractOptions {
  /** Shown in the suite's name: `node`, `bun`, `deno`, `express`… */
  runtime: string;
  /**
   * Where the app is: an origin plus any mount prefix, without a trailing slash. A function is
   * read when the tests run, so that a server started in `beforeAll` can supply it.
   */
  baseUrl: string | (() => string);
  /** A Server Key the server accepts. */
  serverKey: string;
}

/** Targets that resolve to a restricted route, and the canonical path each resolves to. */
const RESTRICTED: ReadonlyArray<[string, string]> = [
  ['/v1/top/anime', '/v1/top/anime'],
  ['/v1/x/../top/anime', '/v1/top/anime'],
  ['/v1/./top/anime', '/v1/top/anime'],
  ['/v1/%2e/top/anime', '/v1/top/anime'],
  ['/v1/%2E/top/anime', '/v1/top/anime'],
  ['/v1/x/%2E%2e/top/anime', '/v1/top/anime'],
  ['/v1/x/.%2E/top/anime', '/v1/top/anime'],
  ['/v1\\top\\anime', '/v1/top/anime'],
  ['/v1/top/anime/', '/v1/top/anime'],
  ['/v1/top/anime//', '/v1/top/anime'],
  ['/v1/top/anime/.', '/v1/top/anime'],
  ['/v1/anime/1/./full', '/v1/anime/1/full'],
  ['/v1/anime/1/x/../full', '/v1/anime/1/full'],
  ['/v1/anime/1/full//', '/v1/anime/1/full'],
  ['/v1/anime/1/%2e/full?sfw', '/v1/anime/1/full'],
];

/** Targets that resolve to no route: never the restricted answer, and the envelope names the resolved path. */
const UNROUTED: ReadonlyArray<[string, string]> = [
  // Double encoding is a literal segment `%2e` for every stage, not a dot.
  ['/v1/%252e/top/anime', '/v1/%252e/top/anime'],
  ['/v1/x/%252e%252e/top/anime', '/v1/x/%252e%252e/top/anime'],
  // An empty segment is kept, as URL parsers keep it: `/v1//top/anime` is not `/v1/top/anime`.
  ['/v1//top/anime', '/v1//top/anime'],
  // Only `%2e` is a dot: other percent-encoded letters stay as they are (`%74` is not `t`).
  ['/v1/%74op/anime', '/v1/%74op/anime'],
  ['/v1/x/../nope', '/v1/nope'],
  ['/v1/./anime/../nope/', '/v1/nope'],
];

/** Targets that resolve to `/v1/random/anime`, which no cache may keep (each request is a fresh pick). */
const RANDOM = ['/v1/random/anime', '/v1/./random/anime', '/v1/x/../random/anime', '/v1/%2E/random/anime', '/v1\\random\\anime', '/v1/random/anime/'];

function envelope(answer: RawAnswer): Record<string, unknown> {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.rest.toString('utf8')) as Record<string, unknown>;
}

/**
 * Defines the request-target suite for one deployment.
 * @param options - The runtime's name, where the server is, and a Server Key it accepts.
 * @example
 * ```ts
 * // Started with RESTRICTED_ROUTES='/v1/top/*,/v1/anime/:id/full' SERVER_KEYS=key-one RATE_LIMIT=off
 * defineRequestTargetContract({ runtime: 'node', baseUrl: () => server.url, serverKey: 'key-one' });
 * ```
 */
export function defineRequestTargetContract(options: RequestTargetContractOptions): void {
  const base = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl);
  const prefix = () => new URL(base()).pathname.replace(/\/$/, '');
  // Error envelopes name the path the client asked for, mount prefix included (`createCatalogueApp({ mountPath })`).
  const get = (target: string, headers: Record<string, string> = {}) => rawRequest(base(), 'GET', `${prefix()}${target}`, 5000, headers);

  describe(`request targets (${options.runtime})`, () => {
    it.each(RESTRICTED)('answers %s without a Server Key with 401 for %s', async (target, canonical) => {
      const answer = await get(target);
      expect(answer.status).toBe(401);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(envelope(answer)).toMatchObject({ status: 401, type: 'UnauthorizedException', path: `${prefix()}${canonical}` });
    });

    it.each(RESTRICTED)('serves %s with a Server Key, privately cached', async (target) => {
      const answer = await get(target, { 'x-server-key': options.serverKey });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toMatch(/^private, /);
    });

    it.each(UNROUTED)('answers %s with 404 naming %s', async (target, canonical) => {
      const answer = await get(target);
      expect(answer.status).toBe(404);
      expect(envelope(answer)).toMatchObject({ status: 404, type: 'NotFoundException', path: `${prefix()}${canonical}` });
    });

    it.each(RANDOM)('never lets a cache keep %s', async (target) => {
      for (let i = 0; i < 3; i++) {
        const answer = await get(target);
        expect(answer.status).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-store');
        // A cached answer carries the time it was stored.
        expect(answer.headers['last-modified']).toBeUndefined();
      }
    });

    it('names the resolved path in a 400 envelope', async () => {
      const answer = await get('/v1/x/../anime/1/../abc');
      expect(answer.status).toBe(400);
      expect(envelope(answer)).toMatchObject({ status: 400, path: `${prefix()}/v1/anime/abc` });
    });
  });
}
