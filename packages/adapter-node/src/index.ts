/**
 * Serve a catalogue-api app on Node's `http` server, or mount it in Express, Connect or any
 * `(req, res, next)` host. Requests go through the app's plain door: no Web `Request` or `Response`
 * is built per request, which on Node 20 would cost most of the throughput.
 * @module @catalogue-api/adapter-node
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  ApiError,
  createBodyMemo,
  errorResponse,
  internalErrorResponse,
  type App,
  type PlainRequest,
  type PlainResponse,
  type ServeOptions as CoreServeOptions,
  type Server as CoreServer,
} from '@catalogue-api/core';

/** A Node request handler that is also Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

const ABSOLUTE_FORM = /^https?:\/\//i;

function toPlainRequest(req: IncomingMessage, receivedAt?: number): PlainRequest {
  let target = req.url ?? '/';
  // Absolute-form targets (`GET http://host/v1/anime`, RFC 9112 §3.2.2) come from proxies. One
  // that does not parse (`http://[::1`, a port out of range), like `*` or `host:443`, goes to the
  // app as it is, which answers it with the 400 envelope. Dot segments are the app's to resolve.
  if (target.charCodeAt(0) !== 47 /* '/' */ && ABSOLUTE_FORM.test(target)) {
    try {
      const url = new URL(target);
      target = url.pathname + url.search;
    } catch {
      // Not a URL: passed on as it is.
    }
  }
  const q = target.indexOf('?');
  const raw = req.rawHeaders;
  return {
    method: req.method ?? 'GET',
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    header: headerReader(raw),
    clientAddress: req.socket.remoteAddress,
    receivedAt,
    // Present from the start, so that `createObservedApp` setting it keeps the object's shape.
    trace: undefined,
  };
}

/**
 * The `header` of a request: an unnamed closure, returned rather than written as a property, so
 * that a source transform keeping function names (tsx, which `npm start` runs the sources with)
 * adds no `Object.defineProperty` to every request: that alone was ~0.8 µs of a cache hit.
 */
function headerReader(raw: readonly string[]): PlainRequest['header'] {
  return (name) => headerOf(raw, name);
}

/**
 * One header from Node's raw list, repeated fields joined with `, ` (RFC 9110 §5.3). Reading
 * `req.headers` instead makes Node build an object of every header on each request, which the
 * pipeline's two or three lookups do not need.
 */
function headerOf(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

function send(res: ServerResponse, response: PlainResponse): void {
  // A client that went away gets nothing; writing to a destroyed socket only raises errors.
  if (res.destroyed || res.headersSent) return;
  const { headers } = response;
  const body = typeof response.body === 'string' ? encode(response.body) : response.body;
  // A flat [name, value, …] list goes to Node's header writer as it is; an object would be
  // copied to add the length, then walked by Object.keys.
  const fields: string[] = [];
  let framed = body === null;
  for (const name in headers) {
    fields.push(name, headers[name]!);
    if (name === 'content-length') framed = true;
  }
  // writeHead() fixes the framing at once: without a Content-Length, Node would send the body
  // chunked. One write with a known length is cheaper, and lets clients detect truncation.
  if (!framed) fields.push('content-length', String(body!.byteLength));
  res.writeHead(response.status, fields);
  res.end(body ?? undefined);
}

/**
 * UTF-8 bytes of a string body. Node writes a large string that holds any non-Latin-1 character
 * (a Japanese title is enough) several times slower than the same bytes: on a 73 KB page,
 * `res.end(string)` served 0.1× the requests/s of `res.end(buffer)`, and `Buffer.from` costs 3×
 * this exact-size write (bench/http-adapters.mjs). Recently sent bodies of 1,024 characters and
 * more are remembered (newest first, at most 8 MiB), because a cached answer comes back as the same
 * string: a lookup costs one comparison, where encoding costs ~4 µs for a 3 KB detail page and
 * ~100 µs for a 30 KB one.
 */
const encode = createBodyMemo(
  (text) => {
    const bytes = Buffer.allocUnsafe(Buffer.byteLength(text));
    bytes.write(text);
    return bytes;
  },
  (bytes) => bytes.byteLength,
);

function crash(res: ServerResponse, path: string): void {
  send(res, internalErrorResponse(path));
}

/**
 * Sends an app's answer. One Node refuses to write (a header value with a character HTTP forbids,
 * from a misconfigured app) gets the 500 envelope instead: thrown in a promise reaction, Node's
 * error would end the process.
 */
function answer(res: ServerResponse, response: PlainResponse, path: string): void {
  try {
    send(res, response);
  } catch {
    crash(res, path);
  }
}

/**
 * A Host field value (RFC 9112 §3.2: `uri-host [ ":" port ]`, RFC 3986 §3.2.2): an IP literal in
 * brackets, or a registered name or IPv4 address of unreserved, sub-delims and percent-encoded
 * characters (none at all when the target has no authority), then an optional port.
 */
const HOST_VALUE = /^(?:\[[\w.:~!$&'()*+,;=-]+\]|[\w.~!$&'()*+,;=%-]*)(?::\d*)?$/;

/**
 * Why a request's Host header breaks RFC 9112 §3.2, which has it answered 400: missing from an
 * HTTP/1.1 request, sent more than once, or not a host. `undefined` when it is fine. One pass over
 * Node's raw header list, as `headerOf` does.
 */
function hostFaultOf(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === 4 && key.toLowerCase() === 'host') {
      if (value !== undefined) return 'A request must have one Host header, not several (RFC 9112 §3.2).';
      value = raw[i + 1]!;
    }
  }
  if (value === undefined) {
    return req.httpVersionMinor === 1 && req.httpVersionMajor === 1 ? 'An HTTP/1.1 request must have a Host header (RFC 9112 §3.2).' : undefined;
  }
  return HOST_VALUE.test(value) ? undefined : 'The Host header must hold a host name or address and an optional port (RFC 9112 §3.2).';
}

/** The 400 envelope for a request that is not valid HTTP/1.1 although Node parsed it; the connection closes. */
function badRequest(res: ServerResponse, error: string, path: string): void {
  const response = malformed(error, path);
  send(res, { ...response, headers: { ...response.headers, connection: 'close' } });
}

/** The 400 envelope of a request that is not valid HTTP/1.1, when the app could not answer it. */
function malformed(error: string, path: string): PlainResponse {
  return errorResponse(new ApiError(400, 'Malformed HTTP request', error), path);
}

/** The path of a parsed request for an envelope: its origin-form path when printable, else `/`. */
function targetPath(req: IncomingMessage): string {
  return pathOf(Buffer.from(`X ${req.url ?? '/'} `, 'latin1'));
}

/**
 * Wraps an app as a Node request handler.
 * @param app - A catalogue or status app: its plain door, and `owns` (when it has one) to pass other paths on.
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
export function toNodeHandler(app: Pick<App, 'handle'> & Partial<App>): NodeHandler {
  return (req, res, next) => dispatch(app, req, res, next, undefined);
}

/** Hands a request to the app and its answer to Node; `receivedAt` as in `PlainRequest`. */
function dispatch(app: Pick<App, 'handle'> & Partial<App>, req: IncomingMessage, res: ServerResponse, next: ((error?: unknown) => void) | undefined, receivedAt: number | undefined): void {
  let plain: PlainRequest;
  try {
    plain = toPlainRequest(req, receivedAt);
    if (next && app.owns && !app.owns(plain.path)) return next();
  } catch {
    return crash(res, req.url ?? '/');
  }
  app.handle(plain).then(
    (response) => answer(res, response, plain.path),
    () => crash(res, plain.path),
  );
}

/**
 * What the client did wrong, by Node's parser error code. Every one is the spec's 400
 * `BadRequestException` ("request malformed"): its Errors table has no 408 or 431.
 */
function clientErrorDetail(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return 'The request headers exceed the server limit (16 KiB by default).';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'The request did not arrive in time.';
  return 'The request is not valid HTTP/1.1.';
}

/**
 * The path of a request Node could not parse, read from its request line when that is readable
 * (`GET /v1/anime?q=x HTTP/1.1` gives `/v1/anime`), else `/`.
 */
function pathOf(packet: Buffer | undefined): string {
  if (!packet) return '/';
  const line = packet.toString('latin1', 0, Math.min(packet.length, 2048)).split('\r\n', 1)[0]!;
  const target = line.split(' ')[1] ?? '';
  const path = target.split('?', 1)[0]!;
  // Only a printable origin-form path goes back into the envelope.
  return /^\/[\x21-\x7e]{0,1023}$/.test(path) ? path : '/';
}

/** A request line's method, when it is an HTTP token (RFC 9110 §9.1); else `GET`. */
function methodOf(packet: Buffer | undefined): string {
  const method = packet ? packet.toString('latin1', 0, Math.min(packet.length, 32)).split(' ', 1)[0]! : '';
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,16}$/.test(method) ? method : 'GET';
}

/**
 * Answers a request Node's HTTP parser rejected (bad request line, invalid header characters,
 * headers over `maxHeaderSize`, a request that timed out) with the app's 400 envelope instead of
 * Node's bare `400 Bad Request`, then closes the connection: after a parse error the rest of its
 * bytes cannot be framed. The app answers it like `refuse` does (`malformed` set), so that it has
 * a request id and an access-log line: smuggling attempts (RFC 9112 §6.3, §11.2) leave a trace.
 * None of its headers is read (a client address from `X-Forwarded-For`, a Server Key): they are
 * what the parser refused. An answer still in progress on the connection is finished first.
 */
function answerClientError(app: Pick<App, 'handle'> & Partial<App>, error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // A good request before the bad one (both in one packet) is still being answered: the error
  // follows its answer. Node's `_httpMessage` is the answer in progress on this connection.
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (current && !current.writableFinished) {
    current.once('close', () => (socket.writable ? answerClientError(app, error, socket) : socket.destroy()));
    return;
  }
  const detail = clientErrorDetail(error.code);
  const path = pathOf(error.rawPacket);
  const request: PlainRequest = {
    method: methodOf(error.rawPacket),
    path,
    query: '',
    header: () => undefined,
    clientAddress: (socket as Socket).remoteAddress,
    trace: undefined,
    malformed: detail,
  };
  const fallback = () => writeRaw(socket, malformed(detail, path));
  let answered: Promise<PlainResponse>;
  try {
    answered = app.handle(request);
  } catch {
    return fallback();
  }
  answered.then((response) => writeRaw(socket, response), fallback);
}

/**
 * Writes an answer straight onto a connection that Node's server no longer frames (a parse error,
 * CONNECT), then closes it.
 */
function writeRaw(socket: Duplex, response: PlainResponse): void {
  if (!socket.writable) return void socket.destroy();
  const body = typeof response.body === 'string' ? Buffer.from(response.body) : (response.body ?? new Uint8Array());
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  for (const name in response.headers) if (name !== 'content-length') head += `${name}: ${response.headers[name]}\r\n`;
  head += `connection: close\r\ncontent-length: ${body.byteLength}\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  // A client that never reads the answer must not hold the socket.
  const timer = setTimeout(() => socket.destroy(), 5_000).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * What `serve` keeps per connection (one object per socket, none per request): the answers it has
 * handed to the app and not yet finished, and the requests held back until they are fewer.
 */
interface Connection {
  /** Answers in progress, oldest first: dispatched to the app, not yet written out. */
  readonly answers: ServerResponse[];
  /** Requests parsed but not dispatched, oldest first, while `answers` is at its bound. */
  readonly held: Array<[IncomingMessage, ServerResponse]>;
  /** Whether `serve` has stopped reading the socket until the held requests are dispatched. */
  paused: boolean;
  /** When the socket last emptied its write buffer, or connected (`performance.now()`). */
  drainedAt: number;
}

const CONNECTION = Symbol('catalogue-api.connection');

/** A server socket with the adapter's per-connection record. */
type TrackedSocket = Socket & { [CONNECTION]?: Connection; _httpMessage?: unknown };

/** Answers a CONNECT request (the app's 405) straight onto its connection, then closes it. */
function answerConnect(app: Pick<App, 'handle'>, req: IncomingMessage, socket: Duplex): void {
  // Node's server has stopped listening for this socket's errors: a client that resets the
  // connection would otherwise raise an unhandled 'error' (ECONNRESET) and end the process.
  socket.on('error', () => socket.destroy());
  const request: PlainRequest = { method: 'CONNECT', path: req.url ?? '/', query: '', header: (name) => headerOf(req.rawHeaders, name), clientAddress: req.socket.remoteAddress };
  app.handle(request).then(
    (response) => writeRaw(socket, response),
    () => socket.destroy(),
  );
}

/** How long a connection may go without emptying its write buffer before it may make room for a new one. */
const STALLED_MS = 500;

/**
 * Caps the connections open at once. Past the cap, the oldest connection with no answer in
 * progress (`_httpMessage`, Node's answer on that connection) makes room: it has sent nothing,
 * is idle between keep-alive requests, or is still sending headers. Failing that, the connection
 * whose client has not read its answer for the longest (bytes waiting in its write buffer, none
 * taken for `STALLED_MS` or more) makes room: a client that does not read must not keep a slot
 * from one that does. When every connection is answering a client that reads, the new one is
 * closed instead. Node's own `maxConnections` would close the new one always, which leaves a
 * server full of silent connections refusing every client.
 */
function limitConnections(node: HttpServer, max: number, now: () => number): void {
  if (!(Number.isInteger(max) && max > 0)) throw new RangeError(`maxConnections must be a positive integer, not ${max}`);
  const open = new Set<TrackedSocket>();
  function forget(this: TrackedSocket): void {
    open.delete(this);
  }
  node.on('connection', (socket: TrackedSocket) => {
    open.add(socket);
    socket.once('close', forget);
    if (open.size <= max) return;
    let stalled: TrackedSocket | undefined;
    let stalledSince = now() - STALLED_MS;
    for (const other of open) {
      if (other === socket) continue;
      if (!other._httpMessage) return evict(other);
      const drainedAt = other[CONNECTION]?.drainedAt;
      if (drainedAt !== undefined && drainedAt <= stalledSince && other.writableLength > 0) {
        stalled = other;
        stalledSince = drainedAt;
      }
    }
    evict(stalled ?? socket);
  });
  function evict(socket: TrackedSocket): void {
    open.delete(socket);
    socket.destroy();
  }
}

/** `value` when it is a positive integer; a RangeError naming the option otherwise. */
function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, not ${value}`);
  return value;
}

/** Request work one event-loop turn may do before further requests wait for the next turn. */
const TURN_BUDGET_MS = 10;

/** Options of {@link serve}. */
export interface ServeOptions extends CoreServeOptions {
  /**
   * Most connections open at once. A connection past it closes the oldest one with no request in
   * progress (silent, idle keep-alive, or still sending its headers), else is itself closed: a
   * flood of silent connections cannot lock new clients out, nor exhaust file descriptors. Keep
   * it below the process's descriptor limit (`ulimit -n`) less what the store and logs need.
   * @default 1024
   */
  maxConnections?: number;
  /**
   * How long a client may take to send a request's headers, from connecting or from the end of
   * its previous answer; a connection past it gets the 400 envelope and is closed. @default 10_000
   */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open; above a load balancer's idle timeout. @default 65_000 */
  idleTimeoutMs?: number;
  /**
   * Most requests one connection may have outstanding (received and not yet answered in full). A
   * client that pipelines more waits: the adapter stops reading its socket, holds the requests
   * already read (at most one read's worth, 64 KiB), and dispatches them as earlier answers are
   * written, as RFC 9112 §9.3.2 lets a server do. One connection cannot make the server build and
   * queue answers faster than its client reads them. @default 16
   */
  maxPipelinedRequests?: number;
  /**
   * Most bytes of answers one connection may have waiting to be written (its socket's write
   * buffer and the answers Node queues behind it) before the adapter dispatches no further request
   * of it; the next waits until they are below it again. An answer's size is known once it is
   * built, so the requests already dispatched (at most `maxPipelinedRequests`) are still answered:
   * a connection holds at most about this plus that many answers. @default 1_048_576 (1 MiB)
   */
  maxQueuedBytes?: number;
  /**
   * How long an answer may wait for its client to read it: a connection whose write buffer
   * holds bytes that the client has not taken for this long is closed, and frees its
   * `maxConnections` slot. A client that reads slowly but steadily is not cut off (each write
   * that completes starts the time anew). @default 10_000
   */
  sendTimeoutMs?: number;
}

/** A running server. */
export interface Server extends CoreServer {
  /** The underlying Node server. */
  node: HttpServer;
}

/**
 * Serves an app on Node's http server.
 * @param app - The app.
 * @param options - Port, hostname, an abort signal, the connection and pipelining limits, and timeouts.
 * @returns The running server, once it listens.
 * @throws RangeError when `maxConnections`, `maxPipelinedRequests`, `maxQueuedBytes` or
 *   `sendTimeoutMs` is not a positive integer.
 * @example
 * ```ts
 * const server = await serve(app, { port: 3000, maxConnections: 512 });
 * console.log(`${server.url}/v1`);
 * ```
 */
export async function serve(app: Pick<App, 'handle'> & Partial<App>, options: ServeOptions = {}): Promise<Server> {
  const maxPipelined = positiveInteger('maxPipelinedRequests', options.maxPipelinedRequests ?? 16);
  const maxQueuedBytes = positiveInteger('maxQueuedBytes', options.maxQueuedBytes ?? 1_048_576);
  const sendTimeoutMs = positiveInteger('sendTimeoutMs', options.sendTimeoutMs ?? 10_000);
  let inFlight = 0;
  let closing: Promise<void> | undefined;
  // One listener for every response ('close' fires once per response): no closure per request.
  function release(this: ServerResponse): void {
    const conn = (this.req.socket as TrackedSocket | null)?.[CONNECTION];
    if (conn) {
      const { answers } = conn;
      // Answers finish in order: the first one, but for a connection destroyed mid-answer.
      if (answers[0] === this) answers.shift();
      else {
        const i = answers.indexOf(this);
        if (i >= 0) answers.splice(i, 1);
      }
      if (conn.held.length > 0) pump(this.req.socket as TrackedSocket, conn);
    }
    // Once draining, the last in-flight answer releases every connection still open.
    if (--inFlight === 0 && closing) node.closeAllConnections();
  }
  // Node accepts one pending connection per event-loop turn (libuv's poll phase), while a turn
  // handles every request that arrived on the accepted ones. Under saturation a turn of 64
  // one-millisecond searches took ~64 ms, so connections opened during a burst waited seconds in
  // the kernel's accept queue with their first request: the ~1 % of answers after 1.2 s (see
  // bench/tail-server.ts). So a turn does at most TURN_BUDGET_MS of request work; later requests
  // wait, in arrival order, for the following turns, each of which also accepts a connection. A
  // following turn takes as many of them as its budget allows: taking one each, the server fell to
  // a request per turn once a single slow turn had started a queue, and stayed there while 64
  // keep-alive connections kept it full (in a profile under wrk -c64, 38.6 % of the time went to
  // the following turns, against 0.5 % once each takes what its budget allows).
  let turnStart = -1;
  let scheduled = false;
  // Read once: on Node 20 the global is an accessor, a third of a clock read's instructions
  // (as in core's default clock, packages/core/src/internal/clock.ts).
  const perf = performance;
  const waiting: Array<[IncomingMessage, ServerResponse, number]> = [];
  const nextTurn = () => {
    scheduled = false;
    turnStart = -1;
    if (waiting.length === 0) return;
    turnStart = perf.now();
    let taken = 0;
    do {
      const [req, res, receivedAt] = waiting[taken++]!;
      dispatch(app, req, res, undefined, receivedAt);
    } while (taken < waiting.length && perf.now() - turnStart < TURN_BUDGET_MS);
    waiting.splice(0, taken);
    // The turn after this one starts afresh, also when nothing is left waiting.
    schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(nextTurn);
  };
  // A request Node parsed but HTTP/1.1 forbids: the app answers its 400 (so that it has the version's
  // headers, a request id and a log line like every other answer), then the connection closes.
  const refuse = (req: IncomingMessage, res: ServerResponse, detail: string) => {
    let plain: PlainRequest;
    try {
      plain = { ...toPlainRequest(req), malformed: detail };
    } catch {
      return badRequest(res, detail, targetPath(req));
    }
    app.handle(plain).then(
      (response) => answer(res, { ...response, headers: { ...response.headers, connection: 'close' } }, plain.path),
      () => badRequest(res, detail, targetPath(req)),
    );
  };
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const node = createServer(
    {
      noDelay: true,
      keepAliveTimeout: options.idleTimeoutMs ?? 65_000,
      headersTimeout,
      // No request has a body (spec, "Endpoints"): the whole request is its headers.
      requestTimeout: headersTimeout,
      // Node looks for expired headers this often (30 s by default, which let silent connections live 90 s).
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      // Node's own answer to a missing Host is a bare 400; `badRequest` answers it below.
      requireHostHeader: false,
    },
    listener,
  );
  // The pipelining bound (RFC 9112 §9.3.2). A connection with `maxPipelined` answers in progress,
  // or `maxQueuedBytes` of them unwritten, has its further requests held, and its socket stops
  // being read until they are dispatched: otherwise one connection writing 100,000 requests in
  // one go and never reading had the server build all 100,000 answers and queue them in memory
  // (75 MB, with every other client waiting seconds). Node's own pause (its `_paused`, once the
  // queued answers pass the socket's high-water mark) comes too late for answers built later, in
  // a promise reaction or a later turn.
  const queued = (conn: Connection) => {
    // An unfinished answer's writableLength is what it has not handed to the kernel yet: its own
    // buffer while queued behind another, plus the socket's buffer once it is being written.
    let bytes = 0;
    for (const res of conn.answers) bytes += res.writableLength;
    return bytes;
  };
  const mayDispatch = (conn: Connection) =>
    conn.answers.length === 0 || (conn.answers.length < maxPipelined && conn.held.length === 0 && queued(conn) < maxQueuedBytes);
  const pump = (socket: TrackedSocket, conn: Connection) => {
    if (socket.destroyed) return void (conn.held.length = 0);
    while (conn.held.length > 0 && conn.answers.length < maxPipelined && (conn.answers.length === 0 || queued(conn) < maxQueuedBytes)) {
      const [req, res] = conn.held.shift()!;
      admit(conn, req, res);
    }
    if (conn.held.length === 0 && conn.paused) {
      conn.paused = false;
      socket.resume();
    }
  };
  // Node resumes a socket of its own accord (its drain handling, each request's end): while
  // requests are held, it is paused again at once, before any read can happen.
  function keepPaused(this: TrackedSocket): void {
    if (this[CONNECTION]?.paused) this.pause();
  }
  function drained(this: TrackedSocket): void {
    const conn = this[CONNECTION];
    if (conn) conn.drainedAt = perf.now();
  }
  function listener(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as TrackedSocket;
    const conn = socket[CONNECTION];
    if (conn === undefined) return admit(undefined, req, res);
    if (mayDispatch(conn)) return admit(conn, req, res);
    conn.held.push([req, res]);
    if (!conn.paused) {
      conn.paused = true;
      socket.pause();
    }
  }
  function admit(conn: Connection | undefined, req: IncomingMessage, res: ServerResponse): void {
    inFlight++;
    conn?.answers.push(res);
    res.on('close', release);
    const hostFault = hostFaultOf(req);
    if (hostFault !== undefined) return refuse(req, res, hostFault);
    const now = perf.now();
    if (turnStart < 0) turnStart = now;
    schedule();
    // The clock read for the budget is also the request's arrival, for the access log.
    if (waiting.length > 0 || now - turnStart >= TURN_BUDGET_MS) waiting.push([req, res, now]);
    else dispatch(app, req, res, undefined, now);
  }
  node.on('connection', (socket: TrackedSocket) => {
    socket[CONNECTION] = { answers: [], held: [], paused: false, drainedAt: perf.now() };
    socket.on('resume', keepPaused);
    socket.on('drain', drained);
  });
  // Node's socket timeout counts time without reads or completed writes, and is suspended while a
  // large write makes progress (net's Socket#_onTimeout). With it at `sendTimeoutMs` while an
  // answer is in progress (Node sets the keep-alive timeout instead between requests), a socket
  // that times out with bytes still waiting in its write buffer has a client that does not read.
  // One whose answer the app is still working on has nothing waiting, and stays.
  node.timeout = sendTimeoutMs;
  node.on('timeout', (socket: Socket) => {
    if (socket.writableLength > 0) socket.destroy();
  });
  node.on('clientError', (error: Error, socket: Duplex) => answerClientError(app, error, socket));
  // Node answers an Expect other than 100-continue with a bare 417; the spec's Errors table has none.
  node.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    refuse(req, res, 'The Expect header may only hold 100-continue (RFC 9110 §10.1.1).');
  });
  // CONNECT is a method like any other the API does not accept: the app answers 405 (Node would close the connection).
  node.on('connect', (req: IncomingMessage, socket: Duplex) => answerConnect(app, req, socket));
  limitConnections(node, options.maxConnections ?? 1024, () => perf.now());
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
