/**
 * The Node adapter over a real socket: the issue-2 contract (status codes, envelope, headers,
 * HEAD, OPTIONS, 405) through `serve`, and middleware fall-through through `toNodeHandler`.
 */
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createCatalogueApp, createMemoryStore, createObservedApp, type RequestRecord } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, toNodeHandler, type Server } from '../src/index.js';

/** What the adapter serves: an app's plain door, and `owns` when it has one. */
type Servable = Parameters<typeof toNodeHandler>[0];

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
let server: Server;
beforeAll(async () => {
  server = await serve(app, { port: 0 });
});
afterAll(() => server.close());

describe('serve', () => {
  it('serves a search with JSON and CORS headers', async () => {
    const res = await fetch(`${server.url}/v1/anime?q=naruto&limit=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as { data: Array<{ mal_id: number }>; pagination: unknown };
    expect(body.data[0]!.mal_id).toBe(20);
  });

  it.each([
    ['/v1/anime?limit=100', 400, 'BadRequestException'],
    ['/v1/anime/999999999', 404, 'NotFoundException'],
    ['/v2/anime', 404, 'NotFoundException'],
  ])('answers %s with %i and the envelope', async (path, status, type) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      status,
      type,
      message: expect.any(String),
      error: expect.any(String),
      path: path.split('?')[0],
    });
  });

  it('answers DELETE with 405 and Allow', async () => {
    const res = await fetch(`${server.url}/v1/anime`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(((await res.json()) as { type: string }).type).toBe('MethodNotAllowedException');
  });

  it('answers OPTIONS with 204', async () => {
    const res = await fetch(`${server.url}/v1/anime`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers HEAD with the GET headers and no body on the wire', async () => {
    const get = await fetch(`${server.url}/v1/anime/1`);
    const length = (await get.arrayBuffer()).byteLength;
    const head = await new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/anime/1`, { method: 'HEAD' }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(head.status).toBe(200);
    expect(head.bytes).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(length);
  });

  it('keeps serving after a client aborts mid-request', async () => {
    const controller = new AbortController();
    const pending = fetch(`${server.url}/v1/anime?q=a`, { signal: controller.signal }).catch(() => 'aborted');
    controller.abort();
    expect(await pending).toBe('aborted');
    expect((await fetch(`${server.url}/v1/anime/1`)).status).toBe(200);
  });
});

/** Sends raw bytes on a fresh connection and returns everything the server sends until it closes. */
function exchange(url: string, bytes: string, halfClose = true): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => (halfClose ? socket.end(bytes) : socket.write(bytes)));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

function parseAnswer(raw: string) {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const body = raw.slice(end + 4);
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

describe('requests Node cannot parse', () => {
  it.each([
    ['a bad request line', 'GET /v1/anime?q=x HTTP/9.9 junk\r\nhost: x\r\n\r\n', 400, 'BadRequestException', '/v1/anime'],
    ['a control character in a header value', 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nx-bad: a\x01b\r\n\r\n', 400, 'BadRequestException', '/v1/anime/1'],
    ['a space in a header name', 'GET /v1/top/anime HTTP/1.1\r\nhost: x\r\nbad name: 1\r\n\r\n', 400, 'BadRequestException', '/v1/top/anime'],
    // The spec's Errors table has no 431: oversized headers are a malformed request (400).
    ['headers over the size limit', `GET /v1/anime HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 400, 'BadRequestException', '/v1/anime'],
    ['bytes that are not HTTP', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', 400, 'BadRequestException', '/'],
  ])('answers %s with the JSON envelope and closes', async (_, bytes, status, type, path) => {
    const answer = parseAnswer(await exchange(server.url, bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body, 'latin1'));
    const envelope = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(envelope)).toEqual(['status', 'type', 'message', 'error', 'path']);
    expect(envelope).toMatchObject({ status, type, path });
    expect((await fetch(`${server.url}/v1/anime/1`)).status).toBe(200);
  });

  it('answers a malformed request after a good one on the same connection', async () => {
    const raw = await exchange(server.url, 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\n\r\nGET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nx-bad: a\x7fb\r\n\r\n');
    const first = raw.indexOf('HTTP/1.1 200');
    const second = raw.indexOf('HTTP/1.1 400');
    expect(first).toBe(0);
    expect(second).toBeGreaterThan(first);
    expect(JSON.parse(parseAnswer(raw.slice(second)).body)).toMatchObject({ status: 400, type: 'BadRequestException', path: '/v1/anime/1' });
  });
});

describe('serve under saturation', () => {
  it('answers every request, each with its own answer, when request work exceeds a turn and later ones wait', async () => {
    // Each answer takes 8 ms of synchronous work, more than one event-loop turn may spend.
    const slow: Servable = {
      async handle(request) {
        const until = performance.now() + 8;
        while (performance.now() < until);
        return { status: 200, headers: { 'content-type': 'text/plain' }, body: request.query };
      },
    };
    const busy = await serve(slow, { port: 0 });
    try {
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => fetch(`${busy.url}/x?${i}`).then(async (res) => [res.status, await res.text()])));
      expect(answers).toEqual(Array.from({ length: 24 }, (_, i) => [200, String(i)]));
    } finally {
      await busy.close();
    }
  });

  it('finishes requests still waiting for a turn before close() resolves', async () => {
    const slow: Servable = {
      async handle() {
        const until = performance.now() + 8;
        while (performance.now() < until);
        return { status: 200, headers: {}, body: 'done' };
      },
    };
    const busy = await serve(slow, { port: 0 });
    let received = 0;
    const allIn = new Promise<void>((resolve) => busy.node.on('request', () => ++received === 8 && resolve()));
    const pending = Array.from({ length: 8 }, () => fetch(`${busy.url}/x`).then((res) => res.text()));
    // Close once all eight are in, while most of them still wait for a turn.
    await allIn;
    await busy.close();
    expect(await Promise.all(pending)).toEqual(Array.from({ length: 8 }, () => 'done'));
  });
});

describe('when a request arrived', () => {
  const probe = (seen: Array<[number | undefined, number]>): Servable => ({
    async handle(request) {
      seen.push([request.receivedAt, performance.now()]);
      return { status: 204, headers: {}, body: null };
    },
  });

  it("is the adapter's reading of performance.now(), for the access log, when serve() runs the app", async () => {
    const seen: Array<[number | undefined, number]> = [];
    const probed = await serve(probe(seen), { port: 0 });
    try {
      const before = performance.now();
      await fetch(`${probed.url}/x`);
      const [receivedAt, handled] = seen[0]!;
      expect(receivedAt).toBeGreaterThanOrEqual(before);
      expect(receivedAt).toBeLessThanOrEqual(handled);
    } finally {
      await probed.close();
    }
  });

  it('is not said by the middleware, whose host may have waited before calling it', async () => {
    const seen: Array<[number | undefined, number]> = [];
    const handler = toNodeHandler(probe(seen));
    const host = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      await fetch(`http://127.0.0.1:${(host.address() as AddressInfo).port}/x`);
      expect(seen[0]![0]).toBeUndefined();
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });
});

describe('toNodeHandler as middleware', () => {
  it('passes paths the app does not own to next()', async () => {
    const handler = toNodeHandler(app);
    const host = createServer((req, res) =>
      handler(req, res, () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('backend');
      }),
    );
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/health`)).text()).toBe('backend');
      expect((await fetch(`${base}/v1/anime/1`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });
});

describe('requests Node parses but the API cannot take', () => {
  it.each([
    ['HTTP/1.1 without Host (RFC 9112 §3.2)', 'GET /v1/anime/1 HTTP/1.1\r\n\r\n', 400, '/v1/anime/1'],
    ['an Expect other than 100-continue', 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nexpect: foo\r\n\r\n', 400, '/v1/anime/1'],
    ['an absolute-form target with an unclosed IPv6 host', 'GET http://[::1 HTTP/1.1\r\nhost: x\r\n\r\n', 400, '/'],
    ['an absolute-form target with a port out of range', 'GET http://x:99999/v1/anime HTTP/1.1\r\nhost: x\r\n\r\n', 400, '/'],
    ['an asterisk-form target on GET', 'GET * HTTP/1.1\r\nhost: x\r\n\r\n', 400, '/'],
    // The spec: any method other than GET, HEAD and OPTIONS yields 405 with Allow.
    ['CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nhost: example.org:443\r\n\r\n', 405, '/'],
  ])('answers %s with the JSON envelope', async (_, bytes, status, path) => {
    const answer = parseAnswer(await exchange(server.url, bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body, 'latin1'));
    const envelope = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(envelope)).toEqual(['status', 'type', 'message', 'error', 'path']);
    expect(envelope).toMatchObject({ status, path });
    if (status === 405) expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${server.url}/v1/anime/1`)).status).toBe(200);
  });

  it('has the app answer them, with its version headers, request id and observers, then closes', async () => {
    const records: RequestRecord[] = [];
    const deprecated = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, deprecation: { sunsetAt: '2027-07-01T00:00:00Z' } });
    const own = await serve(createObservedApp(deprecated, { observers: [(record) => records.push({ ...record })] }), { port: 0 });
    try {
      for (const bytes of ['GET /v1/anime/1 HTTP/1.1\r\n\r\n', 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nexpect: foo\r\n\r\n', 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nhost: y\r\n\r\n', 'GET /v1/anime/1 HTTP/1.1\r\nhost: a b\r\n\r\n']) {
        // The exchange ends when the server closes the connection.
        const answer = parseAnswer(await exchange(own.url, bytes, false));
        expect(answer.status).toBe(400);
        expect(answer.headers.sunset).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.body)).toMatchObject({ status: 400, message: 'Malformed HTTP request', path: '/v1/anime/1' });
      }
      expect(records.map((r) => [r.status, r.route])).toEqual([
        [400, '/v1/anime/:id'],
        [400, '/v1/anime/:id'],
        [400, '/v1/anime/:id'],
        [400, '/v1/anime/:id'],
      ]);
    } finally {
      await own.close();
    }
  });

  it.each([
    ['two Host headers', 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\nhost: x\r\n\r\n', 'A request must have one Host header, not several (RFC 9112 §3.2).'],
    ['two Host headers on HTTP/1.0', 'GET /v1/anime/1 HTTP/1.0\r\nhost: x\r\nHost: y\r\n\r\n', 'A request must have one Host header, not several (RFC 9112 §3.2).'],
    ['a Host with a space', 'GET /v1/anime/1 HTTP/1.1\r\nhost: a b\r\n\r\n', 'The Host header must hold a host name or address and an optional port (RFC 9112 §3.2).'],
    ['a Host with a path', 'GET /v1/anime/1 HTTP/1.1\r\nhost: a/b\r\n\r\n', 'The Host header must hold a host name or address and an optional port (RFC 9112 §3.2).'],
  ])('answers %s with the 400 envelope and closes', async (_, bytes, error) => {
    const answer = parseAnswer(await exchange(server.url, bytes, false));
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    // The exchange reads Latin-1; the envelope is UTF-8 (`§`).
    expect(JSON.parse(Buffer.from(answer.body, 'latin1').toString())).toEqual({ status: 400, type: 'BadRequestException', message: 'Malformed HTTP request', error, path: '/v1/anime/1' });
  });

  it.each(['x', 'example.org:8080', '127.0.0.1:3000', '[::1]:3000', ''])('serves a request with Host %j', async (host) => {
    expect(parseAnswer(await exchange(server.url, `GET /v1/anime/1 HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`, false)).status).toBe(200);
  });

  it('has the app answer a request the parser rejects, with a request id and a record for the observers', async () => {
    const records: RequestRecord[] = [];
    const own = await serve(createObservedApp(app, { observers: [(record) => records.push({ ...record })] }), { port: 0 });
    try {
      const smuggled = 'POST /v1/anime HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n';
      for (const bytes of [smuggled, 'GET /v1/anime/1 HTTP/1.1\nhost: x\n\n', 'GET /v1/top/anime HTTP/1.1\r\nhost: x\r\nx-bad: a\x01b\r\n\r\n']) {
        const answer = parseAnswer(await exchange(own.url, bytes));
        expect(answer.status).toBe(400);
        expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.headers.connection).toBe('close');
        expect(JSON.parse(answer.body)).toMatchObject({ status: 400, type: 'BadRequestException', message: 'Malformed HTTP request', error: 'The request is not valid HTTP/1.1.' });
      }
      expect(records.map((r) => [r.method, r.path, r.status])).toEqual([
        ['POST', '/v1/anime', 400],
        ['GET', '/v1/anime/1', 400],
        ['GET', '/v1/top/anime', 400],
      ]);
      expect(new Set(records.map((r) => r.requestId)).size).toBe(3);
    } finally {
      await own.close();
    }
  });

  it('serves an absolute-form target and an HTTP/1.0 request without Host', async () => {
    expect(parseAnswer(await exchange(server.url, 'GET http://example.org/v1/anime/1 HTTP/1.1\r\nhost: x\r\n\r\n')).status).toBe(200);
    expect(parseAnswer(await exchange(server.url, 'GET /v1/anime/1 HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('keeps serving after a client resets its connection before the answer to CONNECT', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const asked = new Promise<void>((resolve) => (started = resolve));
    const gated: Servable = {
      async handle(request) {
        if (request.method === 'CONNECT') {
          started();
          await gate;
        }
        return { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' }, body: '{}' };
      },
    };
    const own = await serve(gated, { port: 0 });
    try {
      const socket = connect(Number(new URL(own.url).port), '127.0.0.1', () => socket.write('CONNECT example.org:443 HTTP/1.1\r\nhost: example.org:443\r\n\r\n'));
      socket.on('error', () => undefined);
      await asked;
      // The server's write of the 405 then meets a reset connection (ECONNRESET), on a socket
      // Node's server has handed over and no longer listens to for errors.
      socket.resetAndDestroy();
      await closed(socket);
      release();
      await new Promise((resolve) => setImmediate(resolve));
      expect(parseAnswer(await exchange(own.url, 'GET /v1/anime/1 HTTP/1.1\r\nhost: x\r\n\r\n')).status).toBe(405);
    } finally {
      await own.close();
    }
  });

  it('answers OPTIONS * with 204', async () => {
    expect(parseAnswer(await exchange(server.url, 'OPTIONS * HTTP/1.1\r\nhost: x\r\n\r\n')).status).toBe(204);
  });
});

/** Opens a connection that sends nothing; resolves once the server has accepted it. */
async function silent(node: Server['node'], url: string): Promise<Socket> {
  const accepted = new Promise((resolve) => node.once('connection', resolve));
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  await accepted;
  return socket;
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

describe('connection limit and timeouts', () => {
  it('makes room for a new client past maxConnections by closing the oldest silent connection', async () => {
    const capped = await serve(app, { port: 0, maxConnections: 3 });
    try {
      const sockets = [await silent(capped.node, capped.url), await silent(capped.node, capped.url), await silent(capped.node, capped.url)];
      const res = await fetch(`${capped.url}/v1/anime/1`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      await closed(sockets[0]!);
      expect(sockets[1]!.closed || sockets[2]!.closed).toBe(false);
      for (const socket of sockets) socket.destroy();
    } finally {
      await capped.close();
    }
  });

  it('refuses a connection past maxConnections while every connection is being answered', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const slow: Servable = {
      async handle() {
        started++;
        await gate;
        return { status: 200, headers: {}, body: 'done' };
      },
    };
    const capped = await serve(slow, { port: 0, maxConnections: 2 });
    try {
      // The client keeps its side open (a half-closed one would lose a late answer) and asks the server to close.
      const pending = ['/a', '/b'].map((path) => exchange(capped.url, `GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`, false));
      while (started < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      // The third connection is closed without an answer: nothing could make room.
      expect(await exchange(capped.url, 'GET /c HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n', false).catch(() => '')).toBe('');
      release();
      for (const raw of await Promise.all(pending)) expect(parseAnswer(raw)).toMatchObject({ status: 200, body: 'done' });
    } finally {
      await capped.close();
    }
  });

  it('closes a connection that sends no request within headersTimeoutMs, with the 400 envelope', async () => {
    const quick = await serve(app, { port: 0, headersTimeoutMs: 200 });
    try {
      const socket = await silent(quick.node, quick.url);
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      await closed(socket);
      const answer = parseAnswer(received);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 400, type: 'BadRequestException', error: 'The request did not arrive in time.' });
    } finally {
      await quick.close();
    }
  });
});
