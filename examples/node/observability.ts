/**
 * The example's operations settings from the environment: the access log, Prometheus metrics on a
 * private port, health and readiness, and the version's deprecation headers. `server.ts` wraps its
 * apps with `observe(app)` and mounts `health` beside them.
 *
 * Environment:
 * - `ACCESS_LOG`: `json` (default) writes one JSON line per request to stdout; `off` writes none.
 *   `ACCESS_LOG_SAMPLE`: the share of requests logged, from 0 to 1 (default 1).
 *   `ACCESS_LOG_CLIENT`: how the client is named: `hash` (default, a keyed hash under
 *   `FINGERPRINT_SECRET`, see `gateway-env.ts`: the same on every instance that shares it, else
 *   stable for the process), `address` (the IP address) or `none`.
 * - `REQUEST_ID`: `on` (default) sends an `X-Request-Id` on every answer, whatever the log and
 *   metrics settings; `off` sends none.
 * - `METRICS_PORT`: serve `GET /metrics` (Prometheus text format) on this port, on `METRICS_HOST`
 *   (default 127.0.0.1, whatever `HOST` is), never on the public port. Unset: no metrics are kept;
 *   set, readiness is also checked every 5 s for `catalogue_dependency_up`.
 * - `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601) and `API_SUCCESSOR_URL`: send `Deprecation`,
 *   `Sunset` and `Link: <…>; rel="successor-version"` on every `/v1` answer.
 * - `TRUST_PROXY` (see `gateway-env.ts`) also says whose `X-Request-Id` is kept; other requests get a new one.
 *
 * `/healthz` (alive) and `/readyz` (200 when the store and the gateway back end answer, else 503)
 * answer on the main port, outside the rate limits, never cached.
 * @module
 */
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { serve, type Server } from '@catalogue-api/adapter-node';
import { collectDefaultMetrics, Registry } from 'prom-client';
import SonicBoom from 'sonic-boom';
import {
  adoptRuntimeMetrics,
  createAccessLineFormatter,
  createCatalogueMetrics,
  createLineLogger,
  createHealthApp,
  createMetricsApp,
  createObservedApp,
  type CatalogueMetrics,
  type DeprecationOptions,
  type HealthApp,
  type HealthCheck,
  type LineLogger,
  type App,
  type RequestObserver,
  type RequestRecord,
  readOperationsEnv,
} from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';

/** What `server.ts` needs from the environment's operations settings. */
export interface ExampleOperations {
  /** The `/v1` deprecation headers, for `createCatalogueApp({ deprecation })`; undefined when not configured. */
  deprecation: DeprecationOptions | undefined;
  /** The metrics, when `METRICS_PORT` is set. */
  metrics: CatalogueMetrics | undefined;
  /**
   * The store, timed by the metrics when they are on.
   * @param store - The catalogue store.
   */
  instrument<S extends CatalogueStore>(store: S): S;
  /**
   * Builds `/healthz` and `/readyz` over the given checks and reports them in the metrics.
   * @param checks - Readiness checks by dependency name.
   */
  health(checks: Record<string, HealthCheck>): HealthApp;
  /**
   * Wraps the combined app with request ids, the access log and the metrics; returns it as it is
   * when all three are off.
   * @param app - The combined app.
   */
  observe(app: App): App;
  /** Starts the metrics server and checks readiness a first time, when metrics are on; after the gateway announced itself. */
  start(): Promise<void>;
  /** Flushes the log and stops the metrics server. */
  stop(): Promise<void>;
  /**
   * The server's own lines (start-up, shutdown, warnings, errors) in pino's format, as the access
   * log's: `info` on stdout through the access log's writer (never inside one of its lines), the
   * rest on stderr.
   */
  log: LineLogger;
}

// The version of core in use (a JSON import keeps no import attribute through the example's build).
const { version } = createRequire(import.meta.url)('@catalogue-api/core/package.json') as { version: string };

/** The access log's observer: see {@link createLineObserver}. */
export interface LineObserver {
  /** Takes a record; its line is written after the answers of this turn of the event loop. */
  observe: RequestObserver;
  /** Writes the lines of the records still waiting, at once: before the sink is ended or flushed. */
  flush(): void;
}

/**
 * The access log's observer. It keeps each record until the answers of the event loop's current
 * turn have gone out, then writes their lines together: `setImmediate` runs after the poll phase,
 * in which Node's HTTP server reads requests and writes their answers, so no answer of a turn
 * waits on the log lines of those before it. The work is the same, done later, in one go. A record
 * waits one turn at most; the time and duration in its line are those of its answer.
 * @param write - Takes each line, with its newline.
 * @param toLine - Makes a record's line. @default core's access line, with this process's id and host name
 * @returns The observer, and `flush` for a stop.
 * @example
 * ```ts
 * const log = createLineObserver((line) => process.stdout.write(line));
 * const app = createObservedApp(catalogue, { observers: [log.observe] });
 * process.once('exit', () => log.flush());
 * ```
 */
export function createLineObserver(write: (line: string) => void, toLine = createAccessLineFormatter({ pid: process.pid, hostname: hostname() })): LineObserver {
  // The records of this turn are `waiting[0 … count)`. The array is kept from turn to turn: emptied
  // by `splice`, it grew again step by step every turn (~50 ns a request over HTTP).
  const waiting: Array<RequestRecord | undefined> = [];
  let count = 0;
  const flush = () => {
    for (let i = 0; i < count; i++) {
      const record = waiting[i]!;
      waiting[i] = undefined;
      try {
        write(toLine(record));
      } catch {
        // As for any observer (see createObservedApp): a failing log loses its line, never the server.
      }
    }
    count = 0;
  };
  return {
    observe(record) {
      if (count === 0) setImmediate(flush);
      waiting[count++] = record;
    },
    flush,
  };
}

/** The access log's writer: see {@link createLogSink}. */
export interface LogSink {
  /**
   * Adds one whole line (with its newline); it goes out with the next batch.
   * @param line - The line.
   */
  write(line: string): void;
  /** Writes what is waiting, then resolves once all of it has been written and `fd` closed (standard output and error are left open); for a graceful stop. */
  end(): Promise<void>;
  /** Writes what is waiting at once, for the process's `exit`. */
  flushSync(): void;
}

/** Options of {@link createLogSink}. */
export interface LogSinkOptions {
  /** The file descriptor the lines go to. @default 1 (standard output) */
  fd?: number;
  /** The longest a line waits before it is written, in milliseconds. @default 50 */
  intervalMs?: number;
  /** This many bytes of waiting lines are written at once. @default 65_536 */
  batchBytes?: number;
  /** Text not yet written past this many bytes is dropped, and counted, rather than kept. @default 16 MiB */
  maxBytes?: number;
  /**
   * Told how many lines were dropped, each time some are.
   * @param lines - The lines just dropped.
   */
  onDrop?(lines: number): void;
}

/** How often readiness is checked for `catalogue_dependency_up` when metrics are on, in milliseconds. */
const READINESS_POLL_MS = 5_000;

const countLines = (bytes: Buffer): number => {
  let lines = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  return lines;
};

/**
 * The access log's writer. Lines are gathered into one piece per `intervalMs`, or until the next
 * would not fit in `batchBytes`: at 10,000 requests/s a write of ~60 KB every 20 ms instead of one
 * per request. Each piece goes to sonic-boom (pino's own destination), which writes with `fs.write`
 * off the event loop, one write at a time, in order, whatever `fd` is. `process.stdout` writes to
 * a file or a terminal synchronously, and to a pipe without blocking but keeping whatever a slow
 * reader has not taken in memory, without a bound (on Node 20.20, a reader that paused for a
 * second left 12 of 13 MB written waiting). Here a reader `maxBytes` behind loses lines, counted
 * by `onDrop`, rather than the process its memory; a reader gone for good (EPIPE) ends the log,
 * never the server.
 * @param options - Where, how long a line may wait, how much.
 * @returns The sink.
 * @example
 * ```ts
 * const log = createLogSink();
 * log.write('{"msg":"hello"}\n');
 * await log.end(); // before process.exit()
 * ```
 */
export function createLogSink(options: LogSinkOptions = {}): LogSink {
  const intervalMs = options.intervalMs ?? 50;
  const batchBytes = options.batchBytes ?? 65_536;
  const onDrop = options.onDrop;
  const boom = new SonicBoom({ fd: options.fd ?? 1, sync: false, contentMode: 'buffer', maxLength: options.maxBytes ?? 16 * 1024 * 1024 });
  // Its types know only its default (text) mode.
  const writeBytes = boom.write.bind(boom) as unknown as (bytes: Buffer) => boolean;
  let stopped = false;
  boom.on('drop', (data: Buffer) => onDrop?.(countLines(data)));
  boom.on('error', (error: Error) => {
    if (stopped) return;
    stopped = true;
    process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), pid: process.pid, hostname: hostname(), msg: `access log stopped: ${error.message}` })}\n`);
    boom.destroy();
  });
  // Lines are gathered a few at a time (up to 4,096 characters, about a dozen, and at most a quarter
  // of a batch at 3 bytes a character) and encoded into the batch together while their pieces are
  // fresh in the cache: one call into Node's encoder for a dozen lines. Encoded one by one, a line
  // spent ~0.08 µs more; gathered for a whole batch, the lines cost ~0.35 µs each in flattening
  // that string alone (perf, cpu-clock).
  // A batch goes to sonic-boom whole, which keeps it until written: the next one is a new buffer.
  // Bytes, not text: given text, sonic-boom measures the UTF-8 length of all that waits on every
  // write, which cost ~1.6 µs a logged request.
  let batch = Buffer.allocUnsafeSlow(batchBytes);
  let used = 0;
  let pending = '';
  const gatherChars = Math.min(4096, Math.floor(batchBytes / 12));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const encode = () => {
    const text = pending;
    pending = '';
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (used + text.length * 3 > batchBytes) {
      writeOut();
      if (text.length * 3 > batchBytes) return void writeBytes(Buffer.from(text));
    }
    used += batch.write(text, used);
  };
  const writeOut = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending !== '') encode();
    if (used === 0 || stopped) return;
    writeBytes(batch.subarray(0, used));
    batch = Buffer.allocUnsafeSlow(batchBytes);
    used = 0;
  };
  return {
    write(line) {
      if (stopped) return;
      pending += line;
      if (pending.length >= gatherChars) encode();
      timer ??= setTimeout(writeOut, intervalMs);
    },
    end() {
      writeOut();
      if (stopped) return Promise.resolve();
      stopped = true;
      return new Promise((resolve) => {
        boom.once('close', () => resolve());
        boom.end();
      });
    },
    flushSync() {
      writeOut();
      try {
        if (!stopped) boom.flushSync();
      } catch {
        // Nothing more can be written.
      }
    },
  };
}

/**
 * Reads the operations settings.
 * @param env - The environment (`process.env`), read by `readOperationsEnv` (core).
 * @param write - Where log lines go. @default standard output, asynchronously
 * @returns The settings, not yet started.
 * @throws Error when a variable holds something unreadable.
 * @example
 * ```ts
 * const ops = createExampleOperations(process.env);
 * const app = createCatalogueApp({ store: ops.instrument(store), deprecation: ops.deprecation });
 * ```
 */
export function createExampleOperations(env: Record<string, string | undefined>, write?: (line: string) => void): ExampleOperations {
  const { accessLog, sample, clientId, requestIds, metricsPort, metricsHost, deprecation, trustProxy } = readOperationsEnv(env);
  const metrics = metricsPort !== undefined ? createCatalogueMetrics() : undefined;
  // The process and runtime: prom-client's default metrics (CPU seconds, memory and heap, event-loop
  // lag, open handles and file descriptors, GC, `nodejs_version_info`), and which build serves.
  const runtime = metrics ? new Registry() : undefined;
  if (runtime) collectDefaultMetrics({ register: runtime });
  const render = metrics && runtime ? adoptRuntimeMetrics(metrics, runtime, { version, runtime: 'node', runtimeVersion: process.versions.node }) : undefined;

  // The record has fixed fields, so it is written by core's `createAccessLineFormatter` rather than
  // by pino's serializer for any object, which cost about as much as the whole cache hit it logs;
  // the lines go out through pino's destination (see createLogSink). Both by `npm run bench -- --only operations`.
  const dropped = metrics?.registry.counter('catalogue_access_log_dropped_lines_total', 'Access log lines dropped because the log reader fell behind.', []).labels();
  const sink = accessLog === 'json' && !write ? createLogSink({ onDrop: dropped && ((lines) => dropped.inc(lines)) }) : undefined;
  const out = write ?? ((line: string) => sink!.write(line));
  let ended = false;
  const lines = createLineLogger(
    { pid: process.pid, hostname: hostname() },
    write ?? ((line) => (sink && !ended ? sink.write(line) : process.stdout.write(line))),
    (line) => process.stderr.write(line),
  );
  const log = accessLog === 'json' ? createLineObserver(out) : undefined;
  // A crash still writes what is waiting.
  if (log) process.once('exit', () => (log.flush(), sink?.flushSync()));
  const observers: RequestObserver[] = [];
  if (log) observers.push(sample >= 1 ? log.observe : (record) => void (Math.random() < sample && log.observe(record)));
  if (metrics) observers.push(metrics.observe);

  let server: Server | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let firstRound: (() => void) | undefined;
  return {
    log: lines,
    deprecation,
    metrics,
    instrument: (store) => (metrics ? metrics.instrumentStore(store) : store),
    health(checks) {
      const health = createHealthApp({ checks });
      if (metrics) {
        metrics.watchDependencies(health.state);
        // `catalogue_dependency_up` moves whether or not anything polls /readyz (and a first round
        // runs at start: until one has, it reads 1 for every dependency).
        poll = setInterval(() => void health.check(), READINESS_POLL_MS).unref();
        firstRound = () => void health.check();
      }
      return health;
    },
    // With no observer and request ids off, createObservedApp hands the app back unobserved.
    observe: (app: App) => createObservedApp(app, { observers, clientId, requestId: requestIds, trustProxy, fingerprintSecret: env.FINGERPRINT_SECRET || undefined }),
    async start() {
      firstRound?.();
      if (render && metricsPort !== undefined) {
        // Never the public interface by default: HOST=0.0.0.0 must not publish the metrics.
        server = await serve(createMetricsApp(render), { port: metricsPort, hostname: metricsHost });
        // Not a URL: the tests and tools that wait for the API's URL take the first one printed.
        lines.info(`metrics on port ${new URL(server.url).port} at /metrics`);
      }
    },
    async stop() {
      clearInterval(poll);
      await server?.close();
      log?.flush();
      await sink?.end();
      ended = true;
    },
  };
}
