/**
 * Metrics in the Prometheus text exposition format (version 0.0.4): a small registry of counters,
 * gauges and histograms, and the catalogue's own metrics fed from request records.
 *
 * Written here rather than taken from prom-client: core runs on Node, Bun, Deno and workers and
 * may not import `node:` modules, which prom-client does; and the hot path needs series that are
 * looked up once per route and then bumped in place, with no label object or string per request.
 * @module
 */
import { ApiError, errorResponse } from '../edge/errors.js';
import { cacheControl, toApp, type App, type PlainRequest, type PlainResponse } from '../edge/http.js';
import { monotonicClock } from '../internal/clock.js';
import type { RequestObserver, RequestRecord } from './observe.js';
import type { CheckOutcome } from '../status/types.js';
import type { CatalogueStore } from '../seam/types.js';

/** The content type of {@link MetricsRegistry.render}'s text. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** One labelled counter series. */
export interface CounterSeries {
  /**
   * Adds to the counter.
   * @param by - How much; must not be negative. @default 1
   */
  inc(by?: number): void;
}

/** One labelled histogram series. */
export interface HistogramSeries {
  /**
   * Records one observation.
   * @param value - The value, in the metric's unit (seconds, bytes…).
   */
  observe(value: number): void;
}

/** A metric family with labels: `labels(…values)` gives the series, created once and then reused. */
export interface Family<S> {
  /**
   * The series for these label values, in the order the label names were given.
   * @param values - One value per label name.
   * @returns The series; the same object for the same values.
   */
  labels(...values: string[]): S;
}

/** A gauge read when metrics are rendered: the collector returns each series' labels and value. */
export type GaugeCollector = () => Iterable<readonly [labelValues: readonly string[], value: number]>;

/** A set of metrics rendered together. */
export interface MetricsRegistry {
  /**
   * Declares a counter (its name should end in `_total`).
   * @param name - Metric name.
   * @param help - One line saying what it counts.
   * @param labelNames - Its label names.
   * @returns The family.
   */
  counter(name: string, help: string, labelNames?: readonly string[]): Family<CounterSeries>;
  /**
   * Declares a histogram.
   * @param name - Metric name, with its unit (`_seconds`).
   * @param help - One line.
   * @param labelNames - Its label names.
   * @param buckets - Upper bounds, ascending; `+Inf` is added.
   * @returns The family.
   */
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Family<HistogramSeries>;
  /**
   * Declares a gauge whose values are read at render time.
   * @param name - Metric name.
   * @param help - One line.
   * @param labelNames - Its label names.
   * @param collect - Reads the current values.
   */
  gauge(name: string, help: string, labelNames: readonly string[], collect: GaugeCollector): void;
  /** @returns Every metric in the Prometheus text format. */
  render(): string;
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function formatNumber(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function toLabelText(names: readonly string[], values: readonly string[], extra?: string): string {
  const parts = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

/**
 * Creates an empty registry.
 * @returns The registry.
 * @throws TypeError when a metric or label name is not a valid Prometheus name, or a name is declared twice.
 * @example
 * ```ts
 * const registry = createMetricsRegistry();
 * const hits = registry.counter('cache_hits_total', 'Cache hits.', ['tier']);
 * hits.labels('public').inc();
 * registry.render(); // '# HELP cache_hits_total Cache hits.\n# TYPE cache_hits_total counter\ncache_hits_total{tier="public"} 1\n'
 * ```
 */
export function createMetricsRegistry(): MetricsRegistry {
  const renderers: Array<() => string> = [];
  const names = new Set<string>();
  const declare = (name: string, labelNames: readonly string[]) => {
    if (!NAME.test(name) || names.has(name)) throw new TypeError(`metric name "${name}" is invalid or taken`);
    for (const label of labelNames) if (!LABEL.test(label) || label === 'le') throw new TypeError(`label name "${label}" is invalid`);
    names.add(name);
  };
  const header = (name: string, help: string, type: string) => `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;

  function family<S>(make: () => S): { labels(...values: string[]): S; entries: Map<string, [string[], S]> } {
    const entries = new Map<string, [string[], S]>();
    return {
      entries,
      labels(...values) {
        const key = values.join('\u0000');
        let entry = entries.get(key);
        if (!entry) entries.set(key, (entry = [values, make()]));
        return entry[1];
      },
    };
  }

  return {
    counter(name, help, labelNames = []) {
      declare(name, labelNames);
      const f = family(() => {
        const series = { value: 0, inc: (by = 1) => void (series.value += by) };
        return series;
      });
      renderers.push(() => {
        let text = header(name, help, 'counter');
        for (const [values, series] of f.entries.values()) text += `${name}${toLabelText(labelNames, values)} ${formatNumber(series.value)}\n`;
        return text;
      });
      return { labels: f.labels };
    },
    histogram(name, help, labelNames, buckets) {
      declare(name, labelNames);
      const bounds = [...buckets].sort((a, b) => a - b);
      const f = family(() => {
        const counts = new Array<number>(bounds.length + 1).fill(0);
        const series = {
          counts,
          sum: 0,
          observe(value: number) {
            let i = 0;
            while (i < bounds.length && value > bounds[i]!) i++;
            counts[i]!++;
            series.sum += value;
          },
        };
        return series;
      });
      renderers.push(() => {
        let text = header(name, help, 'histogram');
        for (const [values, series] of f.entries.values()) {
          let cumulative = 0;
          for (let i = 0; i <= bounds.length; i++) {
            cumulative += series.counts[i]!;
            const le = `le="${i < bounds.length ? formatNumber(bounds[i]!) : '+Inf'}"`;
            text += `${name}_bucket${toLabelText(labelNames, values, le)} ${cumulative}\n`;
          }
          text += `${name}_sum${toLabelText(labelNames, values)} ${formatNumber(series.sum)}\n`;
          text += `${name}_count${toLabelText(labelNames, values)} ${cumulative}\n`;
        }
        return text;
      });
      return { labels: f.labels };
    },
    gauge(name, help, labelNames, collect) {
      declare(name, labelNames);
      renderers.push(() => {
        let text = header(name, help, 'gauge');
        for (const [values, value] of collect()) text += `${name}${toLabelText(labelNames, values)} ${formatNumber(value)}\n`;
        return text;
      });
    },
    render: () => renderers.map((render) => render()).join(''),
  };
}

/** Latency buckets in seconds: a cache hit takes well under a millisecond, a slow search a second. */
export const LATENCY_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label value of requests no route matched: raw paths never become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The catalogue's metrics: fed by request records, the store, the checker and readiness. */
export interface CatalogueMetrics {
  /** The registry, to add metrics of your own or render. */
  registry: MetricsRegistry;
  /** Feed it every request record (`createObservedApp({ observers: [metrics.observe] })`). */
  observe: RequestObserver;
  /**
   * Times every call of a catalogue store: `catalogue_store_query_duration_seconds` by method,
   * failures in `catalogue_store_errors_total`, calls in flight in `catalogue_store_queries_in_flight`.
   * @param store - The store.
   * @returns A store with the same methods.
   */
  instrumentStore<S extends CatalogueStore>(store: S): S;
  /**
   * Counts one status check (`createChecker({ onCheck })`).
   * @param serviceId - The service.
   * @param outcome - Its outcome.
   */
  recordCheck(serviceId: string, outcome: CheckOutcome): void;
  /**
   * Reports a dependency's health as `catalogue_dependency_up` (1 or 0) when rendered.
   * @param read - The current state per dependency (`health.state()` of `createHealthApp`).
   */
  watchDependencies(read: () => Readonly<Record<string, boolean>>): void;
  /** @returns The text for `GET /metrics`. */
  render(): string;
}

/** Options of {@link createCatalogueMetrics}. */
export interface CatalogueMetricsOptions {
  /** A monotonic clock in milliseconds, for store timings. @default performance.now */
  clock?: () => number;
  /** Latency buckets in seconds. @default {@link LATENCY_BUCKETS} */
  buckets?: readonly number[];
}

/** The `CatalogueStore` methods (bounded label values). */
const STORE_METHODS: readonly (keyof CatalogueStore)[] = ['get', 'getMany', 'query', 'pluck', 'pluckJson', 'selectJson', 'tally', 'upsert', 'delete'];

interface RouteSeries {
  duration: HistogramSeries;
  bytes: CounterSeries;
  /** The statuses this route has answered, and their counters at the same index: a few, scanned. */
  statuses: number[];
  counts: CounterSeries[];
}

/**
 * Creates the catalogue's metrics. Label values are bounded: route templates (never raw paths or
 * queries), status codes, tiers, windows, store method names and configured service ids.
 * @param options - Clock and buckets.
 * @returns The metrics; serve `render()` where the public cannot reach it.
 * @example
 * ```ts
 * const metrics = createCatalogueMetrics();
 * const app = createObservedApp(combineApps(status, createCatalogueApp({ store: metrics.instrumentStore(store) })), {
 *   observers: [metrics.observe],
 * });
 * // GET /metrics on a private port: new Response(metrics.render(), { headers: { 'content-type': METRICS_CONTENT_TYPE } })
 * ```
 */
export function createCatalogueMetrics(options: CatalogueMetricsOptions = {}): CatalogueMetrics {
  const clock = options.clock ?? monotonicClock();
  const buckets = options.buckets ?? LATENCY_BUCKETS;
  const registry = createMetricsRegistry();
  const requests = registry.counter('catalogue_http_requests_total', 'HTTP requests answered, by route template and status.', ['route', 'status']);
  const duration = registry.histogram(
    'catalogue_http_request_duration_seconds',
    'Time from a request reaching the app to its answer being ready, by route template.',
    ['route'],
    buckets,
  );
  const responseBytes = registry.counter('catalogue_http_response_bytes_total', 'Response body bytes sent, by route template.', ['route']);
  const cache = registry.counter('catalogue_cache_requests_total', 'Gateway cache outcomes: hit, miss, bypass (not cacheable), not_modified (304).', [
    'tier',
    'result',
  ]);
  const limited = registry.counter('catalogue_rate_limited_total', 'Requests refused with 429, by tier and the window that was full.', ['tier', 'window']);
  const blocked = registry.counter('catalogue_blocked_requests_total', 'Requests refused with 403 because their client is temporarily blocked.');
  const unavailable = registry.counter(
    'catalogue_gateway_unavailable_total',
    'Requests answered 503 because the gateway back end (Redis) did not answer in time.',
  );
  const storeDuration = registry.histogram('catalogue_store_query_duration_seconds', 'Catalogue store calls, by method.', ['method'], buckets);
  const storeErrors = registry.counter('catalogue_store_errors_total', 'Catalogue store calls that failed, by method.', ['method']);
  let inFlight = 0;
  registry.gauge('catalogue_store_queries_in_flight', 'Catalogue store calls started and not yet settled.', [], () => [[[], inFlight]]);
  const checks = registry.counter('catalogue_status_checks_total', 'Status checks run by this instance, by service and outcome.', ['service', 'outcome']);
  const dependencyReaders: Array<() => Readonly<Record<string, boolean>>> = [];
  registry.gauge('catalogue_dependency_up', 'Whether a dependency answered its last readiness check (1) or not (0).', ['dependency'], function* () {
    for (const read of dependencyReaders) for (const [name, up] of Object.entries(read())) yield [[name], up ? 1 : 0] as const;
  });

  const routes = new Map<string, RouteSeries>();
  // At `tier * 4 + result`, the indexes compared rather than looked up: neither a joined label key
  // nor two property reads by a key that varies (V8's keyed lookups go generic once a second key
  // is seen) per request.
  const cacheSeries: Array<CounterSeries | undefined> = [];
  // Present (at 0) from the start, so that rate() and absent() work before the first event.
  const blockedSeries = blocked.labels();
  const unavailableSeries = unavailable.labels();

  const observe: RequestObserver = (record: RequestRecord) => {
    const route = record.route ?? UNMATCHED_ROUTE;
    let series = routes.get(route);
    if (!series) routes.set(route, (series = { duration: duration.labels(route), bytes: responseBytes.labels(route), statuses: [], counts: [] }));
    const status = record.status;
    const statuses = series.statuses;
    let i = 0;
    while (i < statuses.length && statuses[i] !== status) i++;
    if (i === statuses.length) {
      statuses.push(status);
      series.counts.push(requests.labels(route, String(status)));
    }
    series.counts[i]!.inc();
    series.duration.observe(record.durationMs / 1000);
    if (record.bytes > 0) series.bytes.inc(record.bytes);
    const result = record.cache;
    if (result !== undefined) {
      const server = record.tier === 'server';
      const at = (server ? 4 : 0) + (result === 'hit' ? 0 : result === 'miss' ? 1 : result === 'bypass' ? 2 : 3);
      (cacheSeries[at] ??= cache.labels(server ? 'server' : 'public', result)).inc();
    }
    if (record.limited !== undefined) limited.labels(record.tier ?? 'public', record.limited).inc();
    if (record.blocked) blockedSeries.inc();
    if (record.unavailable) unavailableSeries.inc();
  };

  function instrumentStore<S extends CatalogueStore>(store: S): S {
    const timed = Object.create(store) as Record<string, unknown>;
    // The CatalogueStore methods only (a store's own extras, such as a SQL client, stay as they are).
    for (const name of STORE_METHODS) {
      const method = (store as unknown as Record<string, unknown>)[name];
      if (typeof method !== 'function') continue;
      // Series appear on a method's first call: a store has dozens of methods, most rarely used.
      let histogram: HistogramSeries | undefined;
      let errors: CounterSeries | undefined;
      timed[name] = function (this: unknown, ...args: unknown[]) {
        const started = clock();
        const done = () => {
          inFlight--;
          (histogram ??= storeDuration.labels(name)).observe((clock() - started) / 1000);
        };
        inFlight++;
        let result: unknown;
        try {
          result = (method as (...a: unknown[]) => unknown).apply(store, args);
        } catch (error) {
          done();
          (errors ??= storeErrors.labels(name)).inc();
          throw error;
        }
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              done();
              return value;
            },
            (error: unknown) => {
              done();
              (errors ??= storeErrors.labels(name)).inc();
              throw error;
            },
          );
        }
        done();
        return result;
      };
    }
    return timed as unknown as S;
  }

  return {
    registry,
    observe,
    instrumentStore,
    recordCheck: (serviceId, outcome) => checks.labels(serviceId, outcome).inc(),
    watchDependencies: (read) => void dependencyReaders.push(read),
    render: () => registry.render(),
  };
}

/** Renders metrics in the Prometheus text format, at once or asynchronously (prom-client's `registry.metrics()`). */
export type MetricsRenderer = () => string | Promise<string>;

/**
 * The collector hook: one renderer that renders several in turn and joins their text, so that the
 * catalogue's metrics and a runtime's process metrics (prom-client's `collectDefaultMetrics` on
 * Node, Bun and Deno, or a collector of one's own) are served at one `/metrics`. Core stays free
 * of any runtime's API: the host brings its collectors. The families' names must not repeat.
 * @param renderers - e.g. `metrics.render` and `() => processRegistry.metrics()`.
 * @returns A renderer for {@link createMetricsApp}.
 * @example
 * ```ts
 * import { collectDefaultMetrics, Registry } from 'prom-client';
 * const runtime = new Registry();
 * collectDefaultMetrics({ register: runtime });
 * await serve(createMetricsApp(combineMetrics(metrics.render, () => runtime.metrics())), { port: 9464 });
 * ```
 */
export function combineMetrics(...renderers: readonly MetricsRenderer[]): () => Promise<string> {
  return async () => {
    const texts = await Promise.all(renderers.map((render) => render()));
    return texts.map((text) => (text === '' || text.endsWith('\n') ? text : `${text}\n`)).join('');
  };
}

/**
 * Serves `render()` as `GET /metrics` (or `path`) in the Prometheus text format, never cached. Serve
 * it on a port of its own that the public cannot reach, not beside the API.
 * @param render - Renders the metrics (`metrics.render`, or several joined by {@link combineMetrics}).
 * @param path - Where. @default '/metrics'
 * @returns The app, for any adapter's `serve`.
 * @example
 * ```ts
 * await serve(createMetricsApp(metrics.render), { port: 9464, hostname: '127.0.0.1' });
 * ```
 */
export function createMetricsApp(render: MetricsRenderer, path = '/metrics'): App {
  async function handle(request: PlainRequest): Promise<PlainResponse> {
    if (request.path !== path) return errorResponse(new ApiError(404, `No endpoint at ${request.path}`, `Metrics are at ${path}.`), request.path);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(new ApiError(405, `Method ${request.method} is not allowed`, 'Use GET.', { allow: 'GET, HEAD' }), path);
    }
    let text: string;
    try {
      text = await render();
    } catch (error) {
      return errorResponse(new ApiError(500, 'Metrics could not be collected', (error as Error).message), path);
    }
    return { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': cacheControl('no-store') }, body: request.method === 'HEAD' ? null : text };
  }
  return toApp(handle, (p) => p === path);
}
