/**
 * Serve a catalogue-api app on Node's `http` server, or mount it in Express, Connect or any
 * `(req, res, next)` host. Requests go through the app's plain door: no Web `Request` or `Response`
 * is built per request, which on Node 20 would cost most of the throughput.
 * @module @catalogue-api/adapter-node
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorEnvelope, type PlainRequest, type PlainResponse } from '@catalogue-api/core';

/** What the adapter needs of an app: its plain door, and optionally which paths it owns. */
export interface NodeServable {
  handle(request: PlainRequest): Promise<PlainResponse>;
  /** Whether a path belongs to the app; others fall through to `next()` when mounted as middleware. */
  owns?(path: string): boolean;
}

/** A Node request handler that is also Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

function toPlainRequest(req: IncomingMessage): PlainRequest {
  let target = req.url ?? '/';
  // Absolute-form targets (`GET http://host/v1/anime`, RFC 9112 §3.2.2) come from proxies.
  if (target.charCodeAt(0) !== 47 /* '/' */) {
    const url = new URL(target, 'http://x');
    target = url.pathname + url.search;
  }
  const q = target.indexOf('?');
  const headers = req.headers;
  return {
    method: req.method ?? 'GET',
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    header: (name) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    clientAddress: req.socket.remoteAddress,
  };
}

function send(res: ServerResponse, response: PlainResponse): void {
  // A client that went away gets nothing; writing to a destroyed socket only raises errors.
  if (res.destroyed || res.headersSent) return;
  const { headers } = response;
  const body = typeof response.body === 'string' ? encode(response.body) : response.body;
  // writeHead() fixes the framing at once: without a Content-Length, Node would send the body
  // chunked. One write with a known length is cheaper, and lets clients detect truncation.
  const framed = body === null || 'content-length' in headers ? headers : { ...headers, 'content-length': String(body.byteLength) };
  res.writeHead(response.status, framed);
  res.end(body ?? undefined);
}

// Bodies at least this long are remembered once encoded; shorter ones cost little to encode again.
const MEMO_MIN_CHARS = 4096;
const MEMO_MAX_BYTES = 8 * 1024 * 1024;
const memo = new Map<string, Buffer>();
let memoBytes = 0;

/**
 * UTF-8 bytes of a string body. Node writes a large string that holds any non-Latin-1 character
 * (a Japanese title is enough) several times slower than the same bytes: on a 73 KB page,
 * `res.end(string)` served 0.1× the requests/s of `res.end(buffer)`, and `Buffer.from` costs 3×
 * this exact-size write (bench/http-adapters.mjs). Recently sent large bodies are remembered
 * (newest first, at most 8 MiB), because a cached answer comes back as the same string: a lookup
 * costs one comparison, where encoding costs ~100 µs.
 */
function encode(text: string): Buffer {
  const known = text.length >= MEMO_MIN_CHARS ? memo.get(text) : undefined;
  if (known) return known;
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text));
  bytes.write(text);
  if (text.length >= MEMO_MIN_CHARS && bytes.byteLength <= MEMO_MAX_BYTES / 4) {
    memo.set(text, bytes);
    memoBytes += bytes.byteLength;
    for (const [oldest, old] of memo) {
      if (memoBytes <= MEMO_MAX_BYTES) break;
      memo.delete(oldest);
      memoBytes -= old.byteLength;
    }
  }
  return bytes;
}

function crash(res: ServerResponse, path: string): void {
  const body = JSON.stringify(errorEnvelope(500, 'Internal server error', 'Unexpected server failure. Please try again later.', path));
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'access-control-allow-origin': '*' };
  send(res, { status: 500, headers, body });
}

/**
 * Wraps an app as a Node request handler.
 * @param app - A catalogue or status app (anything with `handle`).
 * @returns A handler for `http.createServer`, or middleware for Express/Connect: paths the app
 *   does not own go to `next()` when a `next` is given.
 * @example
 * ```ts
 * import express from 'express';
 * import { toNodeHandler } from '@catalogue-api/adapter-node';
 *
 * const server = express();
 * server.use('/catalogue', toNodeHandler(app)); // serves /catalogue/v1/anime…
 * ```
 */
export function toNodeHandler(app: NodeServable): NodeHandler {
  return (req, res, next) => {
    let plain: PlainRequest;
    try {
      plain = toPlainRequest(req);
      if (next && app.owns && !app.owns(plain.path)) return next();
    } catch {
      return crash(res, req.url ?? '/');
    }
    app.handle(plain).then(
      (response) => send(res, response),
      () => crash(res, plain.path),
    );
  };
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
  /** Aborting it closes the server gracefully. */
  signal?: AbortSignal;
}

/** A running server. */
export interface Server {
  /** The base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
  /** The underlying Node server. */
  node: HttpServer;
}

/**
 * Serves an app on Node's http server.
 * @param app - The app.
 * @param options - Port, hostname and an abort signal.
 * @returns The running server, once it listens.
 * @example
 * ```ts
 * const server = await serve(app, { port: 3000 });
 * console.log(`${server.url}/v1`);
 * ```
 */
export async function serve(app: NodeServable, options: ServeOptions = {}): Promise<Server> {
  const handler = toNodeHandler(app);
  let inFlight = 0;
  let closing: Promise<void> | undefined;
  const node = createServer({ noDelay: true, keepAliveTimeout: 65_000 }, (req, res) => {
    inFlight++;
    res.once('close', () => {
      // Once draining, the last in-flight answer releases every connection still open.
      if (--inFlight === 0 && closing) node.closeAllConnections();
    });
    handler(req, res);
  });
  const hostname = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    node.once('error', reject);
    node.listen(options.port ?? 3000, hostname, () => {
      node.off('error', reject);
      resolve();
    });
  });
  const address = node.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      node.close(() => resolve());
      // Keep-alive and half-open connections would hold close() open; requests in flight finish first.
      if (inFlight === 0) node.closeAllConnections();
      else node.closeIdleConnections();
    }));
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://${host}:${address.port}`, close, node };
}
