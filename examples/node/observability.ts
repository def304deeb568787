/**
 * The example's operations settings from the environment: the access log, Prometheus metrics on a
 * private port, health and readiness, and the version's deprecation headers. `server.ts` wraps its
 * apps with `observe(app)` and mounts `health` beside them.
 *
 * Environment:
 * - `ACCESS_LOG`: `json` (default) writes one JSON line per request to stdout; `off` writes none.
 *   `ACCESS_LOG_SAMPLE`: the share of requests logged, from 0 to 1 (default 1).
 *   `ACCESS_LOG_CLIENT`: how the client is named: `hash` (default, a salted hash stable for the
 *   process), `address` (the IP address) or `none`.
 * - `METRICS_PORT`: serve `GET /metrics` (Prometheus text format) on this port, on `METRICS_HOST`
 *   (default 127.0.0.1), never on the public port. Unset: no metrics are kept.
 * - `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601) and `API_SUCCESSOR_URL`: send `Deprecation`,
 *   `Sunset` and `Link: <…>; rel="successor-version"` on every `/v1` answer.
 * - `TRUST_PROXY` (see `gateway-env.ts`) also says whose `X-Request-Id` is kept; other requests get a new one.
 *
 * `/healthz` (alive) and `/readyz` (200 when the store and the gateway back end answer, else 503)
 * answer on the main port, outside the rate limits, never cached.
 * @module
 */
import { serve, type Server } from '@catalogue-api/adapter-node';
import {
  createCatalogueMetrics,
  createHealthApp,
  createMetricsApp,
  createObservedApp,
  type CatalogueMetrics,
  type CatalogueStore,
  type ClientIdMode,
  type DeprecationOptions,
  type HealthApp,
  type HealthCheck,
  type ObservableApp,
  type ObservedApp,
  type RequestObserver,
  type RequestRecord,
  type TrustProxy,
} from '@catalogue-api/core';

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
   * Wraps the combined app with the access log and the metrics; returns it as it is when both are off.
   * @param app - The combined app.
   */
  observe(app: ObservedApp): ObservedApp;
  /**
   * Starts the metrics server, when configured.
   * @param hostname - Fallback interface.
   */
  start(hostname: string): Promise<void>;
  /** Flushes the log and stops the metrics server. */
  stop(): Promise<void>;
}

/**
 * One access log line: the record as JSON, fields in a fixed order, absent ones left out. Only the
 * path can hold a character JSON must escape; the other texts are fixed words, a route template, a
 * hex client id or a request id of letters, digits and `.:@/+=-`.
 * @param record - The request record.
 * @returns The JSON text and a newline.
 */
export function toLogLine(record: RequestRecord): string {
  let line = `{"level":30,"time":${record.time},"method":"${record.method}","path":${JSON.stringify(record.path)}`;
  if (record.route !== undefined) line += `,"route":"${record.route}"`;
  line += `,"status":${record.status},"bytes":${record.bytes},"durationMs":${record.durationMs}`;
  if (record.tier !== undefined) line += `,"tier":"${record.tier}"`;
  if (record.client !== undefined) line += `,"client":"${record.client}"`;
  if (record.cache !== undefined) line += `,"cache":"${record.cache}"`;
  if (record.limited !== undefined) line += `,"limited":"${record.limited}"`;
  if (record.blocked) line += ',"blocked":true';
  if (record.unavailable) line += ',"unavailable":true';
  if (record.requestId !== undefined) line += `,"requestId":"${record.requestId}"`;
  return `${line}}\n`;
}

/** Log lines gathered into few large writes: see {@link createLineBatcher}. */
export interface LineBatcher {
  /**
   * Adds one complete line (with its newline); it goes out with the next batch.
   * @param line - The line.
   */
  write(line: string): void;
  /** Writes what is waiting now; resolves once everything written so far has reached the stream. */
  flush(): Promise<void>;
}

/** Options of {@link createLineBatcher}. */
export interface LineBatcherOptions {
  /** The longest a line waits before it is written, in milliseconds. @default 50 */
  intervalMs?: number;
  /** Waiting text of this many characters is written at once. @default 65_536 */
  maxChars?: number;
}

/**
 * Gathers log lines and writes them to a stream in one piece per `intervalMs`, or as soon as
 * `maxChars` are waiting: at 10,000 requests/s a write of ~60 KB every 20 ms instead of one per
 * request. A write to a pipe or a terminal costs a system call and a wake-up of its reader
 * whatever its size, and its share of a 3 KB cache hit was most of what the access log cost
 * (`npm run bench -- --only operations`). Lines are written whole, in order; `flush()` (at
 * shutdown) and the process's `exit` leave none behind.
 * @param stream - Where the lines go (`process.stdout`: non-blocking, its own queue for a slow reader).
 * @param options - How long a line may wait, and how much.
 * @returns The batcher.
 * @example
 * ```ts
 * const log = createLineBatcher(process.stdout);
 * log.write('{"msg":"hello"}\n');
 * await log.flush(); // before process.exit()
 * ```
 */
export function createLineBatcher(stream: NodeJS.WritableStream, options: LineBatcherOptions = {}): LineBatcher {
  const intervalMs = options.intervalMs ?? 50;
  const maxChars = options.maxChars ?? 65_536;
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written: Promise<void> = Promise.resolve();
  const writeOut = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    // Writes to one stream finish in order: the last one's callback stands for all before it.
    written = new Promise((resolve) => stream.write(chunk, () => resolve()));
  };
  return {
    write(line) {
      pending += line;
      if (pending.length >= maxChars) writeOut();
      else timer ??= setTimeout(writeOut, intervalMs);
    },
    flush() {
      writeOut();
      return written;
    },
  };
}

function toDate(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (Number.isNaN(Date.parse(value))) throw new Error(`${name} must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "${value}"`);
  return value;
}

/**
 * Reads the operations settings.
 * @param env - The environment (`process.env`).
 * @param trustProxy - The gateway's `TRUST_PROXY` setting, for request ids.
 * @param write - Where log lines go. @default standard output, asynchronously
 * @returns The settings, not yet started.
 * @throws Error when a variable holds something unreadable.
 * @example
 * ```ts
 * const ops = createExampleOperations(process.env, gateway.options.trustProxy ?? false);
 * const app = createCatalogueApp({ store: ops.instrument(store), deprecation: ops.deprecation });
 * ```
 */
export function createExampleOperations(env: Record<string, string | undefined>, trustProxy: TrustProxy, write?: (line: string) => void): ExampleOperations {
  const accessLog = env.ACCESS_LOG ?? 'json';
  if (accessLog !== 'json' && accessLog !== 'off') throw new Error(`ACCESS_LOG must be "json" or "off", not "${accessLog}"`);
  const sample = env.ACCESS_LOG_SAMPLE === undefined || env.ACCESS_LOG_SAMPLE === '' ? 1 : Number(env.ACCESS_LOG_SAMPLE);
  if (!(sample >= 0 && sample <= 1)) throw new Error(`ACCESS_LOG_SAMPLE must be a number from 0 to 1, not "${env.ACCESS_LOG_SAMPLE}"`);
  const clientId = (env.ACCESS_LOG_CLIENT || 'hash') as ClientIdMode;
  if (!['hash', 'address', 'none'].includes(clientId)) throw new Error(`ACCESS_LOG_CLIENT must be "hash", "address" or "none", not "${clientId}"`);
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined;
  if (metricsPort !== undefined && !(Number.isInteger(metricsPort) && metricsPort >= 0 && metricsPort < 65536)) {
    throw new Error(`METRICS_PORT must be a port number, not "${env.METRICS_PORT}"`);
  }
  const deprecatedAt = toDate('API_DEPRECATED_AT', env.API_DEPRECATED_AT);
  const sunsetAt = toDate('API_SUNSET_AT', env.API_SUNSET_AT);
  const successorUrl = env.API_SUCCESSOR_URL || undefined;
  const deprecation = deprecatedAt || sunsetAt || successorUrl ? { deprecatedAt, sunsetAt, successorUrl } : undefined;

  const metrics = metricsPort !== undefined ? createCatalogueMetrics() : undefined;
  if (metrics) {
    metrics.registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', [], () => [[[], process.memoryUsage.rss()]]);
    metrics.registry.gauge('process_start_time_seconds', 'Start time of the process since the epoch, in seconds.', [], () => [
      [[], Math.round(Date.now() / 1000 - process.uptime())],
    ]);
  }

  // The record has fixed fields, so it is written by `toLogLine` rather than by a logger's
  // serializer for any object, which cost about as much as the whole cache hit it logs; the lines
  // go out in batches (see createLineBatcher). Both by `npm run bench -- --only operations`.
  const batcher = accessLog === 'json' && !write ? createLineBatcher(process.stdout) : undefined;
  // A crash still writes what is waiting: a write to a pipe or file is attempted at once.
  if (batcher) process.once('exit', () => void batcher.flush());
  const out = write ?? ((line: string) => batcher!.write(line));
  const observers: RequestObserver[] = [];
  if (accessLog === 'json') {
    const log: RequestObserver = (record) => out(toLogLine(record));
    observers.push(sample >= 1 ? log : (record) => void (Math.random() < sample && log(record)));
  }
  if (metrics) observers.push(metrics.observe);

  let server: Server | undefined;
  return {
    deprecation,
    metrics,
    instrument: (store) => (metrics ? metrics.instrumentStore(store) : store),
    health(checks) {
      const health = createHealthApp({ checks });
      metrics?.watchDependencies(health.state);
      return health;
    },
    observe: (app: ObservableApp & ObservedApp) =>
      observers.length === 0 ? app : createObservedApp(app, { observers, clientId, requestId: { trustProxy } }),
    async start(hostname) {
      if (metrics && metricsPort !== undefined) {
        server = await serve(createMetricsApp(metrics.render), { port: metricsPort, hostname: env.METRICS_HOST || hostname });
        // Not a URL line: the tests and tools that wait for the API's URL take the first one printed.
        console.error(`metrics on port ${new URL(server.url).port} at /metrics`);
      }
    },
    async stop() {
      await server?.close();
      await batcher?.flush();
    },
  };
}
