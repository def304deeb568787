/**
 * Starting a server the way the example servers do, on any runtime: what the Node, Bun and Deno
 * examples share, written once here (Web-standard APIs only); each example passes in what its
 * runtime does differently (listening, the access log's writer, its signals and timers).
 *
 * - {@link selfService} and {@link routeChecks}: the catalogue watching itself in the status API,
 *   its check answered in-process, and the refresher's upstream answered from its circuit.
 * - {@link adoptRuntimeMetrics}: a runtime's prom-client metrics served beside the catalogue's.
 * - {@link drainOnSignals}: SIGINT and SIGTERM stop the server, answering the requests in flight.
 * - {@link startDemoServer}: the whole of the Bun and Deno examples' start, on a memory store.
 * @module
 */
import { createCatalogueApp } from './app.js';
import { combineApps } from './edge/combine-apps.js';
import { createHealthApp } from './operations/health.js';
import type { App, RequestContext } from './edge/http.js';
import type { LineLogger } from './operations/log-line.js';
import { createMemoryStore } from './seam/memory-store.js';
import { combineMetrics, createCatalogueMetrics, createMetricsApp, type CatalogueMetrics } from './operations/metrics.js';
import { createObservedApp, type RequestObserver } from './operations/observe.js';
import { readOperationsEnv } from './operations/operations-env.js';
import { readServerEnv } from './operations/server-env.js';
import { createChecker } from './status/checker.js';
import { createMemoryStatusStore } from './status/memory-status-store.js';
import { createStatusApp } from './status/app.js';
import type { ServiceConfig } from './status/types.js';
import type { CatalogueData } from './catalogue/queries.js';
import { createRefresherFromEnv, UPSTREAM_ENV, type RefresherFromEnvOptions } from './upstream/start.js';

/** The name the gateway counts the self-check under: an identity it never blocks. */
export const SELF_CHECK_CLIENT = 'status-check';

/**
 * The catalogue's check of itself. It asks for `/v1/random/anime`, which the gateway never caches,
 * so every check reaches the store (a cached path would answer "up" for a day while the store
 * fails); a 429 from its own rate limiter means busy, not down.
 * @param baseUrl - `http://host:port` of the catalogue.
 * @returns The service to monitor.
 * @example
 * ```ts
 * createStatusApp({ services: [selfService('http://127.0.0.1:3000')], store });
 * ```
 */
export function selfService(baseUrl: string): ServiceConfig {
  return {
    id: 'catalogue-api',
    name: 'Catalogue API',
    homepageUrl: `${baseUrl}/v1`,
    logoUrl: '',
    check: { url: `${baseUrl}/v1/random/anime`, timeoutMs: 10_000, degradedAfterMs: 2_000, degradedStatuses: [429] },
  };
}

/** A service whose check is answered in-process (the refresher's upstream, from its circuit). */
export interface ProbedService {
  /** The service, as the status API lists it. */
  readonly service: ServiceConfig;
  /** Answers its check. */
  probe(request: Request): Promise<Response>;
}

/**
 * The checker's `fetch`: the self-check of {@link selfService} goes to the catalogue in-process,
 * under {@link SELF_CHECK_CLIENT}; a probed service's check to its probe; anything else over the
 * network.
 * @param self - The self-check's URL and the catalogue's Web-standard door; none: over the network.
 * @param probed - Services answered in-process.
 * @param network - What sends the other checks. @default globalThis.fetch
 * @returns The `fetch` to give `createChecker`, or `undefined` when nothing is in-process.
 * @example
 * ```ts
 * createChecker({ services, store, fetch: routeChecks({ url: selfService(server.url).check.url, fetch: app.fetch }, []) });
 * ```
 */
export function routeChecks(
  self: { url: string; fetch(request: Request, context: RequestContext): Promise<Response> } | undefined,
  probed: readonly ProbedService[],
  network: typeof fetch = (input, init) => globalThis.fetch(input, init),
): ((input: string, init?: RequestInit) => Promise<Response>) | undefined {
  if (!self && probed.length === 0) return undefined;
  const probes = new Map(probed.map(({ service, probe }) => [service.check.url, probe]));
  return (input, init) => {
    if (self && input === self.url) return self.fetch(new Request(input, init), { internalClient: SELF_CHECK_CLIENT });
    const inProcess = probes.get(input);
    return inProcess ? inProcess(new Request('http://in-process/', init)) : network(input, init);
  };
}

/** A prom-client registry holding a runtime's default metrics (`collectDefaultMetrics`), as far as this uses it. */
export interface RuntimeRegistry {
  /** Drops one metric. */
  removeSingleMetric(name: string): void;
  /** The exposition text. */
  metrics(): Promise<string>;
}

/**
 * Serves a runtime's prom-client metrics beside the catalogue's: drops the gauges prom-client
 * names like counters (`nodejs_active_*_total`, which `promtool check metrics` refuses; `sum()` of
 * the series by `type` gives them), and adds `catalogue_build_info` (always 1) naming the version
 * and the runtime.
 * @param metrics - The catalogue's metrics.
 * @param runtime - The registry `collectDefaultMetrics` filled.
 * @param build - The catalogue-api version and the runtime serving it.
 * @returns What renders both, for `createMetricsApp`.
 * @example
 * ```ts
 * const runtime = new Registry();
 * collectDefaultMetrics({ register: runtime });
 * createMetricsApp(adoptRuntimeMetrics(metrics, runtime, { version, runtime: 'node', runtimeVersion: process.versions.node }));
 * ```
 */
export function adoptRuntimeMetrics(
  metrics: CatalogueMetrics,
  runtime: RuntimeRegistry,
  build: { version: string; runtime: string; runtimeVersion: string },
): () => Promise<string> {
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) runtime.removeSingleMetric(name);
  metrics.registry.gauge('catalogue_build_info', 'The catalogue-api version and the runtime serving it; always 1.', ['version', 'runtime', 'runtime_version'], () => [
    [[build.version, build.runtime, build.runtimeVersion], 1],
  ]);
  return combineMetrics(metrics.render, () => runtime.metrics());
}

/** The runtime's signals and exit, as Node's and Bun's `process` has them. */
export interface SignalHost {
  /** Calls `handler` on the signal (`process.on`, `Deno.addSignalListener`). */
  on(signal: 'SIGINT' | 'SIGTERM', handler: () => void): unknown;
  /** Ends the process. */
  exit(code: number): unknown;
  /** Lets a timer not keep the process alive. @default the timer's own `unref()` (Node, Bun) */
  unrefTimer?(timer: ReturnType<typeof setTimeout>): void;
}

/** What {@link drainOnSignals} stops, and where it says so. */
export interface DrainOptions {
  /** Where the lines go. */
  log: Pick<LineLogger, 'info' | 'error'>;
  /** How long the requests in flight may take, in ms (`SHUTDOWN_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Stops everything: the servers closed once their requests in flight are answered. */
  stop(): Promise<unknown>;
  /** Writes the last line, `stopped`, once `stop` is done. @default `log.info` */
  stopped?(line: string): void;
}

/**
 * On SIGINT or SIGTERM: no new connections, the requests in flight answered, then exit 0; past
 * `timeoutMs` (a client that never reads its answer must not hold the stop open for good), exit 1.
 * A second signal (Ctrl-C twice) exits 1 at once.
 * @param host - The runtime's signals and exit: `process` on Node and Bun.
 * @param options - What stops the server, and where the lines go.
 * @example
 * ```ts
 * drainOnSignals(process, { log, timeoutMs: 8000, stop: () => server.close() });
 * ```
 */
export function drainOnSignals(host: SignalHost, options: DrainOptions): void {
  const { log, timeoutMs } = options;
  const unref = (timer: ReturnType<typeof setTimeout>) =>
    host.unrefTimer ? host.unrefTimer(timer) : (timer as unknown as { unref?(): void }).unref?.();
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    host.on(signal, () => {
      if (stopping) return void host.exit(1);
      stopping = true;
      log.info(`${signal}: stopping; answering the requests in flight (SHUTDOWN_TIMEOUT_MS ${timeoutMs})`);
      unref(
        setTimeout(() => {
          log.error(`Stopped after ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS) with requests still in flight.`);
          host.exit(1);
        }, timeoutMs),
      );
      void options.stop().then(() => {
        (options.stopped ?? ((line: string) => log.info(line)))('stopped');
        host.exit(0);
      });
    });
  }
}

/** A server listening: its URL and how to close it. */
export interface ListeningServer {
  readonly url: string;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/** An access log as {@link DemoServerRuntime.accessLog} opens it. */
export interface AccessLogSink {
  /** Writes one request's record as a line. */
  observe: RequestObserver;
  /** Flushes what is buffered and ends the log. */
  end(): Promise<void>;
}

/** What the runtime does for {@link startDemoServer}. */
export interface DemoServerRuntime {
  /** The runtime's name and version (`catalogue_build_info`, the listening line): `Bun`, `1.2.3`. */
  runtime: { name: string; version: string };
  /** The catalogue-api version (`catalogue_build_info`). */
  version: string;
  /** The environment. */
  variables: Readonly<Record<string, string | undefined>>;
  /** The records served from memory. */
  data: CatalogueData;
  /** The server's own lines (start-up, shutdown, warnings). */
  log: LineLogger;
  /** Apps served before the catalogue, after health and status (the API reference page). */
  apps: readonly App[];
  /** Listens. */
  serve(app: App, options: { port: number; hostname: string }): Promise<ListeningServer>;
  /** A registry of the runtime's default metrics; asked for only with `METRICS_PORT`. */
  runtimeMetrics(): RuntimeRegistry;
  /**
   * The access log with `ACCESS_LOG=json`: an observer writing each record as a line, and how to
   * flush and end it at stop. Lines the log drops for a slow reader are counted by `onDrop`.
   */
  accessLog(onDrop: ((lines: number) => void) | undefined): AccessLogSink;
  /** The refresher's state file at `UPSTREAM_STATE_FILE`, when the runtime may write one. */
  snapshots?(path: string): NonNullable<RefresherFromEnvOptions['snapshots']>;
  /** Lets a timer not keep the process alive. @default the timer's own `unref()` (Node, Bun) */
  unrefTimer?(timer: ReturnType<typeof setInterval>): void;
}

/** A demo server, listening. */
export interface DemoServer {
  /** The catalogue's server. */
  readonly server: ListeningServer;
  /** `SHUTDOWN_TIMEOUT_MS`. */
  readonly shutdownTimeoutMs: number;
  /** Closes the servers (answering the requests in flight), stops the checker and the refresher, ends the access log. */
  stop(): Promise<void>;
}

/** The variables the demo servers read besides the operations settings. */
const DEMO_ENV = ['PORT', 'HOST', 'RATE_LIMIT', 'CACHE', 'SERVER_KEYS', 'RESTRICTED_ROUTES', 'STATUS_INTERVAL_SECONDS', 'SHUTDOWN_TIMEOUT_MS', 'FINGERPRINT_SECRET', ...UPSTREAM_ENV] as const;

/** How often readiness is checked for `catalogue_dependency_up`, in ms. */
const READINESS_POLL_MS = 5_000;

/**
 * Starts the example server of the Bun and Deno examples: the catalogue over a memory store (kept
 * current from `UPSTREAM_URL` when set), the status API watching it, `/healthz` and `/readyz`, the
 * access log and metrics of the operations settings; every variable read and checked
 * (`readServerEnv`, `readOperationsEnv`) before anything listens.
 * @param rt - What the runtime does.
 * @returns The server, listening; stop it with {@link drainOnSignals}.
 * @throws EnvError naming a variable it cannot use; whatever `serve` throws.
 * @example
 * ```ts
 * const demo = await startDemoServer({ runtime: { name: 'Bun', version: Bun.version }, variables: process.env, … });
 * ```
 */
export async function startDemoServer(rt: DemoServerRuntime): Promise<DemoServer> {
  const { log } = rt;
  const env = readServerEnv(rt.variables, { only: [...DEMO_ENV], warn: (line) => log.warn(line) });
  const { PORT: port, HOST: hostname } = env;
  const { accessLog, sample, clientId, requestIds, metricsPort, metricsHost, deprecation, trustProxy } = readOperationsEnv(rt.variables);

  const metrics = metricsPort !== undefined ? createCatalogueMetrics() : undefined;
  const render = metrics && adoptRuntimeMetrics(metrics, rt.runtimeMetrics(), { version: rt.version, runtime: rt.runtime.name.toLowerCase(), runtimeVersion: rt.runtime.version });
  const store = createMemoryStore(rt.data);
  const catalogue = createCatalogueApp({
    store: metrics ? metrics.instrumentStore(store) : store,
    gateway: {
      keys: env.SERVER_KEYS,
      fingerprintSecret: env.FINGERPRINT_SECRET,
      restrictedRoutes: env.RESTRICTED_ROUTES,
      trustProxy,
      ...(env.RATE_LIMIT ? {} : { rateLimit: false }),
      // `CACHE=off`: no response cache (ETags and 304s remain).
      ...(env.CACHE ? {} : { cache: false }),
    },
    deprecation,
  });

  // With UPSTREAM_URL, a refresher keeps the memory store current (docs/fresh-data.md); it starts once the server listens.
  // On standard error, prefixed: standard output carries the URL lines tools wait for, and the access log.
  const refresherLog = (m: string, f?: unknown) => console.error(`refresher: ${m}`, f ?? '');
  const upstream = await createRefresherFromEnv({
    env,
    store,
    snapshots: env.UPSTREAM_STATE_FILE ? rt.snapshots?.(env.UPSTREAM_STATE_FILE) : undefined,
    metrics: metrics?.registry,
    logger: { info: refresherLog, warn: refresherLog, error: refresherLog },
  });
  const probed: ProbedService[] = upstream ? [{ service: upstream.service, probe: () => upstream.probe() }] : [];

  // The status API watches this server's own catalogue; its history stays in memory.
  const statusStore = createMemoryStatusStore();
  const status = createStatusApp({
    services: [selfService(`http://${hostname}:${port}`), ...probed.map((p) => p.service)],
    store: statusStore,
    page: { name: 'catalogue-api status', url: `http://${hostname}:${port}/api/status` },
  });

  // The memory store and gateway have nothing to wait on; a deployment passes its store's and Redis's checks.
  const health = createHealthApp({ checks: {} });
  // `catalogue_dependency_up` moves whether or not anything polls /readyz; the timer never keeps the process alive.
  const poll = metrics ? setInterval(() => void health.check(), READINESS_POLL_MS) : undefined;
  if (poll !== undefined) (rt.unrefTimer ?? ((timer) => (timer as unknown as { unref?(): void }).unref?.()))(poll);
  metrics?.watchDependencies(health.state);

  const observers: RequestObserver[] = [];
  const dropped = metrics?.registry.counter('catalogue_access_log_dropped_lines_total', 'Access log lines dropped because the log reader fell behind.', []).labels();
  const access = accessLog === 'json' ? rt.accessLog(dropped && ((lines) => dropped.inc(lines))) : undefined;
  if (access) observers.push(sample >= 1 ? access.observe : (record) => void (Math.random() < sample && access.observe(record)));
  if (metrics) observers.push(metrics.observe);
  const apps = combineApps(health, status, ...rt.apps, catalogue);
  // With no observer and request ids off, createObservedApp hands the apps back unobserved.
  const app = createObservedApp(apps, { observers, clientId, requestId: requestIds, trustProxy, fingerprintSecret: env.FINGERPRINT_SECRET });
  const server = await rt.serve(app, { port, hostname });
  // Never the public interface by default: HOST=0.0.0.0 must not publish the metrics.
  const metricsServer = render ? await rt.serve(createMetricsApp(render), { port: metricsPort!, hostname: metricsHost }) : undefined;
  const checker = createChecker({
    services: [selfService(server.url), ...probed.map((p) => p.service)],
    store: statusStore,
    intervalSeconds: env.STATUS_INTERVAL_SECONDS ?? 60,
    onCheck: metrics?.recordCheck,
    // The self-check reaches the catalogue in-process, under an identity the gateway never blocks;
    // the upstream's check is answered from its circuit, never by a request upstream.
    fetch: routeChecks({ url: selfService(server.url).check.url, fetch: (request, context) => catalogue.fetch(request, context) }, probed),
  });
  checker.start();
  upstream?.start();
  // Not a URL line: the tests and tools that wait for the API's URL take the first one printed.
  if (metricsServer) log.info(`metrics on port ${new URL(metricsServer.url).port} at /metrics`);
  log.info(`catalogue-api (${rt.runtime.name}) listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

  return {
    server,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    async stop() {
      clearInterval(poll);
      await Promise.all([server.close(), checker.stop(), metricsServer?.close(), upstream?.stop()]);
      await access?.end();
    },
  };
}
