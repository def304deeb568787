/**
 * The HTTP contract of the catalogue API: one vitest suite that any deployment of it must pass,
 * in-process through `app.fetch` or over a real socket against a server on Node, Bun, Deno, or
 * embedded in another backend (srvx `addTests`, hattip `adapter-test`). Third parties who write
 * their own store or adapter run it against theirs.
 *
 * The suite needs a catalogue with at least two and under 50,000 anime records, and no rate limit in the way (it
 * sends a few hundred requests in seconds): turn the gateway's limits off for the server under test, and keep
 * the rest of the gateway on (its ETags and 304s are part of the contract).
 * @module
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { abandonRequest, rawRequest } from './internal/raw-http.js';
import { animeDetailShape, animeListShape, envelopeShape, expectShape } from './internal/shapes.js';

/**
 * Behaviours a host cannot offer, each switched off by name (hattip style). Every flag a caller
 * sets must come with a comment saying why; a skipped test is reported as skipped, never as passed.
 */
export interface HttpContractSkips {
  /**
   * The host does not send `Content-Length` on HEAD answers (it may compute the header from the
   * body it sends, and a HEAD answer has none). The HEAD tests then compare every other header.
   */
  headContentLength?: boolean;
  /** The host cannot be reached over a raw TCP socket (e.g. a worker sandbox): no wire-level checks. */
  wire?: boolean;
}

/** Options of {@link defineHttpContract}. */
export interface HttpContractOptions {
  /** Shown in the suite's name: `node`, `bun`, `deno`, `in-process`, `express`… */
  runtime: string;
  /**
   * Where the app is: an origin plus any mount prefix, without a trailing slash
   * (`http://127.0.0.1:3000`, `http://127.0.0.1:3000/catalogue`). A function is read when the
   * tests run, so a server started in `beforeAll` can supply it.
   * @default 'http://localhost'
   */
  baseUrl?: string | (() => string);
  /**
   * Sends a request instead of the global `fetch`: pass `(request) => app.fetch(request)` to run
   * the contract in-process. Wire-level checks (raw sockets) run only when this is not given.
   */
  fetch?: (request: Request) => Promise<Response>;
  /** An id that no record has. @default 999999999 */
  unknownId?: number;
  /** Behaviours this host cannot offer; see {@link HttpContractSkips}. */
  skip?: HttpContractSkips;
  /**
   * Headers sent with every request the suite makes through `fetch` (a request's own headers win),
   * e.g. `{ 'x-server-key': key }` to run the contract in the Server Key tier. Raw-socket checks send none.
   */
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const ALLOW = 'GET, HEAD, OPTIONS';
// Headers that may differ between a GET and a HEAD of the same resource (X-Request-Id is per request);
// Content-Length is checked on its own.
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'x-request-id']);

function headerList(value: string | null): string[] {
  return (value ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);
}

function comparable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!VOLATILE.has(name)) out[name] = value;
  });
  return out;
}

/** What every group of the HTTP contract asks with, and what it knows of the app under test. */
interface Contract {
  /** Sends a request to the app (with the options' headers). */
  send(path: string, init?: RequestInit): Promise<Response>;
  /** A request, its answer and the answer's body parsed as JSON. */
  get(path: string, init?: RequestInit): Promise<{ res: Response; body: any }>;
  /** A request answered with the error envelope of `status` and `type`. */
  expectError(path: string, status: number, type: string, init?: RequestInit): Promise<{ res: Response; envelope: { message: string } }>;
  /** The base URL requests go to. */
  base(): string;
  /** Real anime ids of the catalogue under test, filled before the first case runs. */
  ids: number[];
  /** An id no anime has. */
  unknownId: number;
  /** The checks left out. */
  skip: NonNullable<HttpContractOptions['skip']>;
}

/**
 * The requests of the HTTP contract over the options' app or server.
 * @param options - The contract's options.
 */
function contractOf(options: HttpContractOptions): Contract {
  const skip = options.skip ?? {};
  const unknownId = options.unknownId ?? 999_999_999;
  const base = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : (options.baseUrl ?? 'http://localhost'));
  const send = (path: string, init?: RequestInit) => {
    let request = new Request(`${base()}${path}`, init);
    if (options.headers) {
      const headers = new Headers(options.headers);
      request.headers.forEach((value, name) => headers.set(name, value));
      request = new Request(request, { headers });
    }
    return options.fetch ? options.fetch(request) : fetch(request);
  };
  async function get(path: string, init?: RequestInit): Promise<{ res: Response; body: any }> {
    const res = await send(path, init);
    const text = await res.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(`${init?.method ?? 'GET'} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    return { res, body };
  }
  async function expectError(path: string, status: number, type: string, init?: RequestInit) {
    const { res, body } = await get(path, init);
    expect(res.status, JSON.stringify(body)).toBe(status);
    const envelope = expectShape(envelopeShape, body, `${path} (${status})`);
    // The path the client asked for, mount prefix included (`createCatalogueApp({ mountPath })`).
    expect(envelope).toMatchObject({ status, type, path: `${new URL(base()).pathname.replace(/\/$/, '')}${path.split('?')[0]}` });
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    return { res, envelope };
  }
  return { send, get, expectError, base, ids: [], unknownId, skip };
}

/** Search and detail: lists, paging, one record, encoded queries, concurrency. */
function describeSearchAndDetail(c: Contract): void {
  const { get, ids } = c;
  describe('search and detail', () => {
    it('answers GET /v1/anime with 200, pagination and a data array of complete anime objects', async () => {
      const { res, body } = await get('/v1/anime');
      expect(res.status).toBe(200);
      const list = expectShape(animeListShape, body, 'GET /v1/anime');
      expect(list.pagination.current_page).toBe(1);
      expect(list.pagination.items.per_page).toBe(25);
      expect(list.pagination.items.count).toBe(list.data.length);
      expect(list.data.length).toBeLessThanOrEqual(25);
    });

    it('pages by limit: count, per_page, has_next_page and last_visible_page agree with total', async () => {
      const { body } = await get('/v1/anime?limit=1&page=2');
      const { pagination, data } = expectShape(animeListShape, body, 'GET /v1/anime?limit=1&page=2');
      expect(data).toHaveLength(1);
      expect(pagination).toMatchObject({ current_page: 2, items: { count: 1, per_page: 1 } });
      expect(pagination.last_visible_page).toBe(pagination.items.total);
      expect(pagination.has_next_page).toBe(pagination.items.total > 2);
    });

    it('answers a page past the end with 200, empty data and the true totals', async () => {
      // 1000 pages of 50 is past the end of any catalogue under 50,000 records.
      const { res, body } = await get('/v1/anime?page=1000&limit=50');
      expect(res.status).toBe(200);
      const { pagination, data } = expectShape(animeListShape, body, 'a page past the end');
      expect(data).toEqual([]);
      expect(pagination.items.total).toBeGreaterThanOrEqual(ids.length);
      expect(pagination).toMatchObject({ current_page: 1000, has_next_page: false, items: { count: 0, per_page: 50 } });
    });

    it('answers a search that matches nothing with the empty-result pagination', async () => {
      const { res, body } = await get('/v1/anime?start_date=2999-01-01');
      expect(res.status).toBe(200);
      expect(body).toEqual({
        pagination: { last_visible_page: 1, has_next_page: false, current_page: 1, items: { count: 0, total: 0, per_page: 25 } },
        data: [],
      });
    });

    it('answers GET /v1/anime/{id} with {data} holding the same anime object as the search', async () => {
      const { body: list } = await get(`/v1/anime?limit=1`);
      const first = list.data[0] as { mal_id: number };
      const { res, body } = await get(`/v1/anime/${first.mal_id}`);
      expect(res.status).toBe(200);
      const detail = expectShape(animeDetailShape, body, `GET /v1/anime/${first.mal_id}`);
      expect(detail.data).toEqual(first);
    });

    it('decodes percent-encoded query values (a space, Japanese text)', async () => {
      for (const q of ['a%20b', '%E3%83%8A%E3%83%AB%E3%83%88', 'x+y']) {
        const { res, body } = await get(`/v1/anime?q=${q}&limit=3`);
        expect(res.status, `q=${q}`).toBe(200);
        expectShape(animeListShape, body, `GET /v1/anime?q=${q}`);
      }
    });

    it('answers concurrent requests each with its own record', async () => {
      const answers = await Promise.all(ids.map((id) => get(`/v1/anime/${id}`)));
      expect(answers.map(({ body }) => body.data.mal_id)).toEqual(ids);
    });
  });
}

/** The error envelope: bad parameters, unknown routes and ids, methods not allowed. */
function describeErrors(c: Contract): void {
  const { expectError, unknownId } = c;
  describe('errors', () => {
    it.each([
      ['/v1/anime?limit=51', 'limit'],
      ['/v1/anime?limit=0', 'limit'],
      ['/v1/anime?page=0', 'page'],
      ['/v1/anime?page=1001', 'page'],
      ['/v1/anime?type=tv,nope', 'type'],
      ['/v1/anime?letter=ab', 'letter'],
      ['/v1/anime?min_score=11', 'min_score'],
      ['/v1/anime?sfw=maybe', 'sfw'],
      ['/v1/anime/abc', 'id'],
    ])('rejects %s with 400 and a message naming "%s"', async (path, param) => {
      const { envelope } = await expectError(path, 400, 'BadRequestException');
      expect(envelope.message).toContain(param);
    });

    it('answers an unknown route with the 404 envelope', async () => {
      await expectError('/v1/no-such-endpoint', 404, 'NotFoundException');
    });

    it('answers an unknown id with the 404 envelope', async () => {
      await expectError(`/v1/anime/${unknownId}`, 404, 'NotFoundException');
    });

    it('answers an endpoint this API does not serve (/v1/users) with the 404 envelope', async () => {
      await expectError('/v1/users/someone/full', 404, 'NotFoundException');
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('answers %s with 405, the envelope and Allow: GET, HEAD, OPTIONS', async (method) => {
      const { res } = await expectError('/v1/anime', 405, 'MethodNotAllowedException', { method });
      expect(res.headers.get('allow')).toBe(ALLOW);
    });
  });
}

/** OPTIONS, HEAD, and the JSON and CORS headers of every answer. */
function describeMethodsAndHeaders(c: Contract): void {
  const { send, ids, unknownId, skip } = c;
  describe('methods and headers', () => {
    it('answers OPTIONS with 204, no body, Allow and the CORS preflight headers', async () => {
      const res = await send('/v1/anime', { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('allow')).toBe(ALLOW);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(headerList(res.headers.get('access-control-allow-methods'))).toEqual(expect.arrayContaining(['get', 'head', 'options']));
      // Every response, a preflight too, exposes Retry-After (docs/specification.md: CORS).
      expect(headerList(res.headers.get('access-control-expose-headers'))).toContain('retry-after');
    });

    it.each([
      ['a search', () => '/v1/anime?limit=2'],
      ['a detail', () => `/v1/anime/${ids[0]}`],
      ['a 400', () => '/v1/anime?limit=51'],
      ['a 404', () => `/v1/anime/${unknownId}`],
    ])('answers HEAD of %s with the status and headers of GET and no body', async (_what, path) => {
      const [getRes, headRes] = await Promise.all([send(path()), send(path(), { method: 'HEAD' })]);
      const getBytes = (await getRes.arrayBuffer()).byteLength;
      expect(headRes.status).toBe(getRes.status);
      expect(await headRes.text()).toBe('');
      expect(comparable(headRes.headers)).toEqual(comparable(getRes.headers));
      // Content-Length on HEAD is the length GET would send (RFC 9110 §8.6); an in-process GET
      // Response may leave it to the transport, so it is compared with the bytes, not the header.
      const getLength = getRes.headers.get('content-length');
      if (getLength !== null) expect(getLength).toBe(String(getBytes));
      if (!skip.headContentLength) expect(headRes.headers.get('content-length')).toBe(String(getBytes));
    });

    it.each([
      ['a search (200)', () => '/v1/anime?limit=1', 'GET'],
      ['a detail (200)', () => `/v1/anime/${ids[0]}`, 'GET'],
      ['a 400', () => '/v1/anime?page=0', 'GET'],
      ['a 404', () => '/v1/nowhere', 'GET'],
      ['a 405', () => '/v1/anime', 'DELETE'],
    ])('sends JSON, CORS and the exposed Retry-After on %s', async (_what, path, method) => {
      const res = await send(path(), { method });
      await res.arrayBuffer();
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(headerList(res.headers.get('access-control-expose-headers'))).toContain('retry-after');
    });
  });
}

/** ETags and If-None-Match. */
function describeConditionalRequests(c: Contract): void {
  const { send, ids } = c;
  describe('conditional requests', () => {
    it('tags a 200 with a strong ETag and answers If-None-Match with it with 304, no body, and CORS', async () => {
      const path = `/v1/anime/${ids[0]}`;
      const first = await send(path);
      await first.arrayBuffer();
      const etag = first.headers.get('etag');
      expect(etag, 'ETag of a 200 (the gateway caches; only its limits are off)').toMatch(/^"[^"]+"$/);
      for (const method of ['GET', 'HEAD']) {
        const again = await send(path, { method, headers: { 'if-none-match': etag! } });
        expect(again.status, method).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('access-control-allow-origin')).toBe('*');
        expect(headerList(again.headers.get('access-control-expose-headers'))).toContain('retry-after');
      }
      const changed = await send(path, { headers: { 'if-none-match': '"not-the-tag"' } });
      expect(changed.status).toBe(200);
      await changed.arrayBuffer();
    });
  });
}

/** What only a socket shows: lengths, HEAD bodies, dot segments, malformed targets, clients gone away. */
function describeOnTheWire(c: Contract, wire: boolean): void {
  const { get, base, ids, skip } = c;
  describe.skipIf(!wire)('on the wire', () => {
    it('sends a Content-Length equal to the body bytes of a GET', async () => {
      const answer = await rawRequest(`${base()}/v1/anime/${ids[0]}`, 'GET');
      expect(answer.status).toBe(200);
      expect(answer.headers['transfer-encoding']).toBeUndefined();
      expect(answer.headers['content-length']).toBe(String(answer.rest.byteLength));
      expectShape(animeDetailShape, JSON.parse(answer.rest.toString('utf8')), 'the raw GET body');
    });

    it('sends no body bytes after the headers of a HEAD answer', async () => {
      const answer = await rawRequest(`${base()}/v1/anime?limit=5`, 'HEAD');
      expect(answer.status).toBe(200);
      expect(answer.rest.byteLength).toBe(0);
      if (!skip.headContentLength) expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    });

    it('resolves dot segments in the request target as URL parsers do (RFC 3986 §5.2.4)', async () => {
      const prefix = new URL(base()).pathname.replace(/\/$/, '');
      const answer = await rawRequest(base(), 'GET', `${prefix}/v1/anime/../anime/${ids[0]}`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.rest.toString('utf8')).data.mal_id).toBe(ids[0]);
    });

    it('answers a malformed percent-encoding in the query with JSON, never a 500', async () => {
      const prefix = new URL(base()).pathname.replace(/\/$/, '');
      const answer = await rawRequest(base(), 'GET', `${prefix}/v1/anime?q=%ZZ&limit=1`);
      expect([200, 400]).toContain(answer.status);
      expect(answer.headers['content-type']).toBe(JSON_TYPE);
      expect(() => JSON.parse(answer.rest.toString('utf8'))).not.toThrow();
    });

    it('keeps serving after clients go away before or after sending a whole request', async () => {
      await Promise.all([
        abandonRequest(`${base()}/v1/anime?q=naruto`, true),
        abandonRequest(`${base()}/v1/anime?q=naruto`, false),
        abandonRequest(`${base()}/v1/anime?limit=50`, true),
      ]);
      const { res } = await get(`/v1/anime/${ids[1]}`);
      expect(res.status).toBe(200);
    });
  });
}

/**
 * Defines the HTTP contract suite (vitest `describe`/`it`) for one deployment of the catalogue API.
 * @param options - Where the app is, how to reach it, and what to skip.
 * @example
 * ```ts
 * // In-process:
 * defineHttpContract({ runtime: 'in-process', fetch: (request) => app.fetch(request) });
 *
 * // Over a socket, against a server the test run starts:
 * let server: SpawnedServer;
 * beforeAll(async () => { server = await spawnServer({ command: 'bun', args: ['server.ts'] }); });
 * afterAll(() => server.close());
 * defineHttpContract({ runtime: 'bun', baseUrl: () => server.url });
 * ```
 */
export function defineHttpContract(options: HttpContractOptions): void {
  const c = contractOf(options);
  const { get, send, ids } = c;
  const wire = !options.fetch && !c.skip.wire;
  describe(`HTTP contract: ${options.runtime}`, () => {
    // Two real ids from the catalogue under test, so the suite does not depend on one dataset.
    beforeAll(async () => {
      const { res, body } = await get('/v1/anime?limit=20');
      if (res.status !== 200) throw new Error(`GET /v1/anime answered ${res.status}: ${JSON.stringify(body)}`);
      c.ids.push(...(body.data as Array<{ mal_id: number }>).map((anime) => anime.mal_id));
      if (c.ids.length < 2) throw new Error('The HTTP contract needs a catalogue with at least two anime records');
    });

    describeSearchAndDetail(c);
    describeErrors(c);
    describeMethodsAndHeaders(c);
    describeConditionalRequests(c);
    describeOnTheWire(c, wire);

    it('keeps serving after a fetch is aborted in flight', async () => {
      const controller = new AbortController();
      const pending = send('/v1/anime?q=naruto&limit=50', { signal: controller.signal }).then(
        (res) => res.arrayBuffer().then(() => 'finished'),
        () => 'aborted',
      );
      controller.abort();
      expect(['aborted', 'finished']).toContain(await pending);
      expect((await send(`/v1/anime/${ids[0]}`)).status).toBe(200);
    });
  });
}
