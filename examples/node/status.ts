/**
 * The example's status API: configuration from the environment, the store, the checker and the
 * optional status-only port. `server.ts` mounts `status.app` beside the catalogue and calls
 * `status.start(server.url)` once the catalogue listens, so that the checker can watch it.
 *
 * Environment:
 * - `STATUS_PORT`: also serve the status API alone on this port, its page at `/` and `/status` (it is always
 *   at `/api/status` and `/status` on `PORT`).
 * - `STATUS_CONFIG`: path to a JSON file `{ page?, upstreams?, maintenances?, intervalSeconds?,
 *   staleAfterSeconds?, failuresBeforeDown? }`; `upstreams` are `ServiceConfig`s and `maintenances`
 *   are `MaintenanceInput`s (re-added at every start; same id = same record).
 * - `STATUS_UPSTREAMS`: a shorter way to name upstreams, `id=url` pairs separated by commas.
 *   A file that cannot be read, is not JSON, or holds a number the checker refuses stops the
 *   server at start, in one line (`readStatusConfig`).
 * - `STATUS_DATABASE_URL`: keep history in PostgreSQL instead of memory, in the schema
 *   `STATUS_DATABASE_SCHEMA` (default `catalogue_status`). Not `DATABASE_URL`: example servers that tests
 *   start with a catalogue database would otherwise share one status history and one checker lease.
 * - `STATUS_INTERVAL_SECONDS`: seconds between checks (default 60), at most `staleAfterSeconds` (120).
 * - `STORE_TIMEOUT_MS`: longest wait for one status store call (default 5000); past it, or with the
 *   database lost, `/api/status` answers from its last snapshot (503 before the first one) and the
 *   checker keeps its results until the store is back.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { serve, type Server } from '@catalogue-api/adapter-node';
import {
  createChecker,
  createMemoryStatusStore,
  createStatusApp,
  EnvError,
  routeChecks,
  selfService,
  type Checker,
  type Logger,
  type CheckerOptions,
  type RequestContext,
  type MaintenanceInput,
  type ServiceConfig,
  type ServerEnv,
  type App,
  type StatusApp,
  type StatusStore,
} from '@catalogue-api/core';
import { createPostgresStatusStore } from '@catalogue-api/store-postgres';
import { redactUrl } from './gateway-env.js';

/** The status part of the example's configuration. */
export interface ExampleStatusConfig {
  page?: { name: string; url: string };
  upstreams?: ServiceConfig[];
  maintenances?: MaintenanceInput[];
  intervalSeconds?: number;
  staleAfterSeconds?: number;
  failuresBeforeDown?: number;
}

/** How the checker reaches this server's own catalogue, and who hears of check results. */
export interface ExampleStatusHooks {
  /**
   * Answers the self-check in-process instead of over the network. Its requests carry an internal
   * identity that the gateway counts apart from every client and never blocks, so a client that
   * got the local address blocked (or rate limited) never makes the healthy API look down.
   */
  probe?: (request: Request, context: RequestContext) => Promise<Response>;
  /** Told of every check's outcome (for metrics). */
  onCheck?: CheckerOptions['onCheck'];
  /** Wraps the `STATUS_PORT` server's app like the main port's: request ids, access log, metrics. */
  observe?: (app: StatusApp) => App;
  /** Where the status app and the checker log failures. @default console */
  logger?: Logger;
  /**
   * More services answered in-process, after the upstreams: each check of `service.check.url`
   * goes to its `probe` (the refresher's upstream, down while its circuit is open).
   */
  probed?: ReadonlyArray<{ service: ServiceConfig; probe: (request: Request) => Promise<Response> }>;
}

/** The variables `createExampleStatus` reads, as core's `readServerEnv` returns them. */
export type ExampleStatusEnv = Pick<
  ServerEnv,
  'HOST' | 'STATUS_PORT' | 'STATUS_UPSTREAMS' | 'STATUS_DATABASE_URL' | 'STATUS_DATABASE_SCHEMA' | 'STATUS_INTERVAL_SECONDS' | 'STORE_TIMEOUT_MS'
>;

/** The example's status API, before and after it starts. */
export interface ExampleStatus {
  /** Mount it beside the catalogue: `combineApps(status.app, catalogue)`. */
  app: StatusApp;
  /** Starts the checker (watching `catalogueUrl` and the upstreams) and the `STATUS_PORT` server. */
  start(catalogueUrl: string): Promise<void>;
  /** Stops the checker and the status-only server, and closes the store. */
  stop(): Promise<void>;
}

/**
 * Reads `STATUS_CONFIG`, the status configuration file, and checks the numbers the status app and
 * the checker would refuse once the server listens.
 * @param path - The file's path; none gives `{}`.
 * @returns The configuration.
 * @throws EnvError naming `STATUS_CONFIG`, the file and what is wrong, in one line.
 */
export async function readStatusConfig(path: string | undefined): Promise<ExampleStatusConfig> {
  if (!path) return {};
  const refuse = (what: string) => new EnvError('STATUS_CONFIG', `STATUS_CONFIG must be a readable JSON file of the status settings, not "${path}": ${what}`);
  let config: ExampleStatusConfig;
  try {
    config = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw refuse((error as Error).message.split('\n', 1)[0]!);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw refuse('it holds no JSON object');
  const stale = config.staleAfterSeconds ?? 120;
  if (!(typeof stale === 'number' && stale > 0)) throw refuse(`staleAfterSeconds must be a positive number of seconds, not ${JSON.stringify(stale)}`);
  const interval = config.intervalSeconds;
  if (interval !== undefined && !(typeof interval === 'number' && interval > 0 && interval <= stale)) {
    throw refuse(`intervalSeconds must be a number of seconds above 0 and at most staleAfterSeconds (${stale}), not ${JSON.stringify(interval)}`);
  }
  const failures = config.failuresBeforeDown;
  if (failures !== undefined && !(Number.isInteger(failures) && failures > 0)) {
    throw refuse(`failuresBeforeDown must be a positive whole number, not ${JSON.stringify(failures)}`);
  }
  return config;
}

/**
 * Reads the status configuration and opens the store.
 * @param env - The variables, read and checked by core's `readServerEnv`.
 * @param config - The `STATUS_CONFIG` file, from {@link readStatusConfig}.
 * @param host - `http://host:port` the catalogue will listen on; the self-check uses the real URL given to `start`.
 * @param hooks - An in-process probe of the catalogue for the self-check, and a listener for results.
 * @returns The status API, not yet checking.
 * @throws EnvError when the check interval would be longer than `staleAfterSeconds`.
 */
export async function createExampleStatus(env: ExampleStatusEnv, config: ExampleStatusConfig, host: string, hooks: ExampleStatusHooks = {}): Promise<ExampleStatus> {
  const upstreams: ServiceConfig[] = [
    ...(config.upstreams ?? []),
    ...env.STATUS_UPSTREAMS.map(({ id, url }) => ({ id, name: id, homepageUrl: new URL(url).origin, check: { url } })),
    ...(hooks.probed ?? []).map(({ service }) => service),
  ];
  const databaseUrl = env.STATUS_DATABASE_URL;
  const storeTimeoutMs = env.STORE_TIMEOUT_MS;
  const settings = { staleAfterSeconds: config.staleAfterSeconds ?? 120, failuresBeforeDown: config.failuresBeforeDown ?? 2, storeTimeoutMs };
  // The checker refuses an interval past staleAfterSeconds; said now, not once the ports are bound.
  const intervalSeconds = env.STATUS_INTERVAL_SECONDS ?? config.intervalSeconds ?? 60;
  if (intervalSeconds > settings.staleAfterSeconds) {
    throw new EnvError(
      'STATUS_CONFIG',
      `STATUS_CONFIG must set intervalSeconds (or STATUS_INTERVAL_SECONDS) when its staleAfterSeconds (${settings.staleAfterSeconds}) is below the default interval of 60 s`,
    );
  }
  let store: StatusStore & { close?(): Promise<void> };
  try {
    store = databaseUrl
      ? await createPostgresStatusStore({ url: databaseUrl, schema: env.STATUS_DATABASE_SCHEMA, timeoutMs: storeTimeoutMs })
      : createMemoryStatusStore();
  } catch (cause) {
    throw new Error(`PostgreSQL at ${redactUrl(databaseUrl!)} (STATUS_DATABASE_URL)`, { cause });
  }
  const app = createStatusApp({
    services: [selfService(host), ...upstreams],
    store,
    page: config.page ?? { name: 'catalogue-api status', url: `${host}/api/status` },
    logger: hooks.logger,
    ...settings,
  });
  for (const maintenance of config.maintenances ?? []) await app.maintenance.add(maintenance);

  let checker: Checker | undefined;
  let own: Server | undefined;
  return {
    app,
    async start(catalogueUrl) {
      const self = selfService(catalogueUrl);
      checker = createChecker({
        services: [self, ...upstreams],
        store,
        onCheck: hooks.onCheck,
        // The self-check goes to the app in-process (see ExampleStatusHooks.probe); upstreams over the network.
        fetch: routeChecks(hooks.probe && { url: self.check.url, fetch: hooks.probe }, hooks.probed ?? []),
        intervalSeconds,
        logger: hooks.logger,
        ...settings,
      });
      checker.start();
      if (env.STATUS_PORT !== undefined) own = await serve(hooks.observe?.(app) ?? app, { port: env.STATUS_PORT, hostname: env.HOST });
    },
    async stop() {
      await Promise.all([checker?.stop(), own?.close()]);
      await store.close?.();
    },
  };
}
