/**
 * The example Deno server on the embedded demo dataset: the catalogue API at `/v1` (its reference
 * page at `/v1/docs`) and the status API at `/api/status` (its page at `/status`), served by
 * `Deno.serve` through `@catalogue-api/adapter-deno`.
 *
 * Run from the repository root with `npm run start:deno` (it builds the packages first). The
 * imports are `npm:` specifiers (see `deno.json`) that Deno resolves through the repository's
 * `node_modules` to each package's built `dist/`; see README.md.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits,
 * for load tests and contract runs), `CACHE=off` (no response cache; ETags and 304s remain), `STATUS_INTERVAL_SECONDS` (default 60), `SERVER_KEYS` and
 * `RESTRICTED_ROUTES` (comma-separated, as in the Node example: `/v1/top/*,/v1/anime/:id/full`),
 * `FINGERPRINT_SECRET` (the keyed fingerprints of Server Keys and clients, as in the Node example),
 * `TRUST_PROXY` (which proxies may set `X-Forwarded-For`: a number of hops, `true`, or addresses
 * and CIDR ranges, comma-separated; unset: none), and the operations settings of the Node example
 * (`examples/node/observability.ts`):
 * - `ACCESS_LOG`: `json` (default) writes one JSON line per request to stdout, through a small
 *   batched, asynchronous writer; `off` writes none. `ACCESS_LOG_SAMPLE`: the share of requests
 *   logged, from 0 to 1 (default 1). `ACCESS_LOG_CLIENT`: how the client is named: `hash` (default, a keyed
 *   hash stable for the process), `address` (the IP address) or `none`.
 * - `REQUEST_ID`: `on` (default) sends an `X-Request-Id` on every answer, whatever the log and
 *   metrics settings; `off` sends none. `TRUST_PROXY` also says whose `X-Request-Id` is kept;
 *   other requests get a new one.
 * - `METRICS_PORT`: serve `GET /metrics` (Prometheus text format) on this port, on `METRICS_HOST`
 *   (default 127.0.0.1, whatever `HOST` is), never on the public port. Unset: no metrics are kept;
 *   set, readiness is also checked every 5 s for `catalogue_dependency_up`.
 * - `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601) and `API_SUCCESSOR_URL`: send `Deprecation`,
 *   `Sunset` and `Link: <…>; rel="successor-version"` on every `/v1` answer.
 *
 * `UPSTREAM_URL` and the other refresher variables (see docs/fresh-data.md) keep the memory store
 * current from a Jikan v4-compatible API (the state in memory only);
 * the upstream is a service of the status API.
 *
 * Every variable is read and checked by core's `readServerEnv` before anything listens: a value it
 * cannot use, or a start-up that fails (a port taken), stops the server with one line on stderr and
 * exit code 2 (configuration) or 1 (anything else). SIGTERM and SIGINT drain: no new connections,
 * requests in flight are answered, the access log is flushed; within `SHUTDOWN_TIMEOUT_MS` (default
 * 8000), else it exits anyway (code 1). A second signal exits at once. Every line it writes is
 * pino's JSON (core's `formatLogLine` and `createAccessLineFormatter`): start-up and shutdown on
 * stdout with the access log, warnings and errors on stderr. With `METRICS_PORT`, prom-client's
 * process and runtime metrics are served beside the catalogue's.
 * `/healthz` and `/readyz` answer on `PORT`, outside the rate limits, never cached.
 * @module
 */
import { serve } from '@catalogue-api/adapter-deno';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import corePackage from '@catalogue-api/core/package.json' with { type: 'json' };
import { createAccessLineFormatter, createLineLogger, drainOnSignals, startDemoServer, toStartupFailure } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The host name for pino's `hostname` field: `Deno.hostname()` needs --allow-sys, which the
 * example does not ask for (nor the --allow-all that /proc/sys/kernel/hostname takes); then
 * `/etc/hostname`, which --allow-read reads (the host's name on Debian, and a container's in
 * Docker), then `HOSTNAME`.
 */
function hostName(): string {
  for (const read of [
    // Asked only when granted: in a terminal, Deno would otherwise stop to prompt for it.
    () => (Deno.permissions.querySync({ name: 'sys', kind: 'hostname' }).state === 'granted' ? Deno.hostname() : ''),
    () => Deno.readTextFileSync('/etc/hostname').trim(), () => Deno.env.get('HOSTNAME') ?? '',
  ]) {
    try {
      const name = read();
      if (name) return name;
    } catch {
      // Not allowed or not there: the next.
    }
  }
  return 'unknown';
}
const base = { pid: Deno.pid, hostname: hostName() };
const encoder = new TextEncoder();
// Info lines go through the access log's writer once it exists (below), so that the two never interleave.
const writeStdout = (line: string) => void Deno.stdout.writeSync(encoder.encode(line));
let writeOut: (line: string) => void = writeStdout;
const log = createLineLogger(base, (line) => writeOut(line), (line) => void Deno.stderr.writeSync(encoder.encode(line)));

// Until it listens, whatever stops the start (a bad variable, a port taken) is one line on stderr, not a stack trace.
const refuseToStart = (event: ErrorEvent | PromiseRejectionEvent) => {
  event.preventDefault();
  const { line, exitCode } = toStartupFailure('reason' in event ? event.reason : event.error);
  log.fatal(line);
  Deno.exit(exitCode);
};
globalThis.addEventListener('error', refuseToStart);
globalThis.addEventListener('unhandledrejection', refuseToStart);

/**
 * Access log lines to stdout, batched: each line is encoded, as it comes, into a 64 KiB piece,
 * and a piece is written once full or once a line has waited 20 ms, by `Deno.stdout.write`
 * (asynchronous: a slow reader never holds up the server), one write at a time, in order. Each
 * write is an operation handed to another thread: a piece of 4 KiB per timer turn, about a dozen
 * lines, made the writes ~12 % of a cache hit's CPU (`deno run --cpu-prof`); lines joined into one
 * long string to encode at once cost as much again in garbage collection. A reader `maxBytes`
 * behind loses lines, counted by `onDrop`, rather than the server its memory; a write that fails
 * (a reader gone: broken pipe) ends the log, never the server. Not pino here: it reads the host
 * name when it loads, which Deno allows only with --allow-sys.
 */
function createLineWriter(maxBytes: number, onDrop?: (lines: number) => void): { write(line: string): void; end(): Promise<void> } {
  const PIECE = 65_536;
  const encoder = new TextEncoder();
  let piece = new Uint8Array(PIECE);
  let used = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const queue: Uint8Array[] = [];
  let queued = 0;
  let writing: Promise<void> | undefined;
  const drain = async () => {
    while (queue.length > 0 && !stopped) {
      const bytes = queue[0]!;
      try {
        for (let written = 0; written < bytes.length; ) written += await Deno.stdout.write(bytes.subarray(written));
      } catch (error) {
        stopped = true;
        log.error(`access log stopped: ${(error as Error).message}`);
      }
      queue.shift();
      queued -= bytes.length;
    }
    writing = undefined;
  };
  const push = (bytes: Uint8Array) => {
    if (queued + bytes.length > maxBytes) {
      let lines = 0;
      for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
      onDrop?.(lines);
      return;
    }
    queue.push(bytes);
    queued += bytes.length;
    writing ??= drain();
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (used === 0 || stopped) return;
    push(piece.subarray(0, used));
    piece = new Uint8Array(PIECE);
    used = 0;
  };
  return {
    write(line) {
      if (stopped) return;
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      if (used + line.length * 3 > PIECE) {
        flush();
        if (line.length * 3 > PIECE) return push(encoder.encode(line));
      }
      used += encoder.encodeInto(line, piece.subarray(used)).written;
      timer ??= setTimeout(flush, 20);
    },
    async end() {
      flush();
      await writing;
    },
  };
}

const demo = await startDemoServer({
  runtime: { name: 'Deno', version: Deno.version.deno },
  version: corePackage.version,
  variables: Deno.env.toObject(),
  data: demoData,
  log,
  apps: [createApiReferenceApp()],
  // Deno's own message (`Address already in use (os error 98)`) names neither the address nor the variable.
  serve: (app, options) =>
    serve(app, options).catch((cause: unknown) => {
      throw new Error(`listening on ${options.hostname}:${options.port} (HOST, PORT)`, { cause });
    }),
  // The process and runtime: prom-client's default metrics, as far as Deno gives them (no GC series).
  runtimeMetrics() {
    const runtime = new Registry();
    collectDefaultMetrics({ register: runtime });
    return runtime;
  },
  accessLog(onDrop) {
    const writer = createLineWriter(16 * 1024 * 1024, onDrop);
    writeOut = (line) => writer.write(line);
    // The line of the Bun example: pino's fields, the record, `msg` last.
    const toLine = createAccessLineFormatter(base);
    return {
      observe: (record) => writer.write(toLine(record)),
      async end() {
        await writer.end();
        // The access log's writer has ended: the last lines go straight out.
        writeOut = writeStdout;
      },
    };
  },
  // No state file: it needs --allow-write, which `npm run start:deno` does not grant (the state stays in memory).
  unrefTimer: Deno.unrefTimer,
});

// Serving: an error from now on is a bug, with its stack.
globalThis.removeEventListener('error', refuseToStart);
globalThis.removeEventListener('unhandledrejection', refuseToStart);
const host = { on: Deno.addSignalListener, exit: Deno.exit, unrefTimer: Deno.unrefTimer };
drainOnSignals(host, { log, timeoutMs: demo.shutdownTimeoutMs, stop: demo.stop });
