/**
 * The Node adapter's own duties (STYLE: Node owns HEAD, client abort, sync throw → 500): the same
 * runtime suite as Bun and Deno (client address, graceful close) in a child process, and
 * `toNodeHandler` edge cases in-process.
 */
import { createServer, request, type Server as HttpServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { PlainRequest, PlainResponse } from '@catalogue-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAdapterSuite } from '../../adapter-bun/test/shared.js';
import { toNodeHandler } from '../src/index.js';

/** What the adapter serves: an app's plain door, and `owns` when it has one. */
type Servable = Parameters<typeof toNodeHandler>[0];

defineAdapterSuite('node', {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('fixture.ts', import.meta.url))],
});

describe('toNodeHandler', () => {
  const seen: PlainRequest[] = [];
  const app: Servable = {
    owns: (path) => path.startsWith('/v1'),
    async handle(request): Promise<PlainResponse> {
      seen.push(request);
      if (request.path === '/v1/throw') throw new Error('secret detail');
      if (request.path === '/v1/large') return { status: 200, headers: {}, body: `${request.query}ナルト`.repeat(2000) };
      if (request.path === '/v1/bytes') return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([1, 2, 3]) };
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `ü ${request.method} ${request.path} ${request.query}` };
    },
  };
  const handler = toNodeHandler(app);
  let host: HttpServer;
  let base: string;
  beforeAll(async () => {
    host = createServer((req, res) => handler(req, res, () => res.writeHead(418).end('next')));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => host.close(resolve)));

  it('gives the app method, path, raw query, header lookup and socket address', async () => {
    const res = await fetch(`${base}/v1/echo?q=a%20b&x=1`, { headers: { 'x-server-key': 'k' } });
    expect(await res.text()).toBe('ü GET /v1/echo q=a%20b&x=1');
    const request = seen.at(-1)!;
    expect(request.header('x-server-key')).toBe('k');
    expect(request.header('absent')).toBeUndefined();
    expect(request.clientAddress).toBe('127.0.0.1');
  });

  it('looks headers up case-insensitively and joins repeated fields with a comma', async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () => {
        socket.end('GET /v1/echo HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\nx-forwarded-for: 10.0.0.1\r\nIf-None-Match: "abc"\r\nConnection: close\r\n\r\n');
      });
      socket.on('error', reject).on('close', () => resolve()).resume();
    });
    const request_ = seen.at(-1)!;
    expect(request_.header('x-forwarded-for')).toBe('203.0.113.7, 10.0.0.1');
    expect(request_.header('if-none-match')).toBe('"abc"');
    expect(request_.header('x-server-key')).toBeUndefined();
  });

  it('frames string and byte bodies with a Content-Length in bytes, not chunked', async () => {
    for (const [path, length] of [['/v1/text', Buffer.byteLength('ü GET /v1/text ')], ['/v1/bytes', 3]] as const) {
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('content-length')).toBe(String(length));
      expect(res.headers.get('transfer-encoding')).toBeNull();
    }
  });

  it('sends large non-Latin-1 bodies byte-exact, also when they repeat or have the same length', async () => {
    for (const query of ['a', 'b', 'a', 'c', 'b']) {
      const res = await fetch(`${base}/v1/large?${query}`);
      const expected = `${query}ナルト`.repeat(2000);
      expect(await res.text()).toBe(expected);
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(expected)));
    }
  });

  it('turns a rejected handle() into the 500 envelope with CORS and no internals', async () => {
    const res = await fetch(`${base}/v1/throw`);
    expect(res.status).toBe(500);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toMatchObject({ status: 500, type: 'InternalServerErrorException', path: '/v1/throw' });
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('passes paths the app does not own to next(), and keeps owned ones', async () => {
    expect(await (await fetch(`${base}/health`)).text()).toBe('next');
    expect((await fetch(`${base}/v1/x`)).status).toBe(200);
  });

  it('reads an absolute-form request target (from a proxy) as its path and query', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const port = (host.address() as AddressInfo).port;
      const req = request({ host: '127.0.0.1', port, path: `http://example.org/v1/abs?y=2` }, (res) => {
        let data = '';
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => resolve(data));
      });
      req.on('error', reject);
      req.end();
    });
    expect(text).toBe('ü GET /v1/abs y=2');
  });
});
