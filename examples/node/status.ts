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
 * - `STATUS_DATABASE_URL`: keep history in PostgreSQL instead of memory, in the schema
 *   `STATUS_DATABASE_SCHEMA` (default `catalogue_status`). Not `DATABASE_URL`: example servers that tests
 *   start with a catalogue database would otherwise share one status history and one checker lease.
 * - `STATUS_INTERVAL_SECONDS`: seconds between checks (default 60).
 * - `STORE_TIMEOUT_MS`: longest wait for one status store call (default 5000); past it, or with the
 *   database lost, `/api/status` answers 503 and the checker keeps its results until the store is back.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { serve, type NodeServable, type Server } from '@catalogue-api/adapter-node';
import {
  createChecker,
  createMemoryStatusStore,
  createStatusApp,
  type Checker,
  type CheckerOptions,
  type RequestContext,
  type MaintenanceInput,
  type ServiceConfig,
  type StatusApp,
  type StatusStore,
} from '@catalogue-api/core';
import { createPostgresStatusStore } from '@catalogue-api/store-postgres';

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
  observe?: (app: StatusApp) => NodeServable;
}

/** The name the gateway counts the self-check under. */
export const SELF_CHECK_CLIENT = 'status-check';

/** The example's status API, before and after it starts. */
export interface ExampleStatus {
  /** Mount it beside the catalogue: `combineApps(status.app, catalogue)`. */
  app: StatusApp;
  /** Starts the checker (watching `catalogueUrl` and the upstreams) and the `STATUS_PORT` server. */
  start(catalogueUrl: string): Promise<void>;
  /** Stops the checker and the status-only server, and closes the store. */
  stop(): Promise<void>;
}

const SELF_ID = 'catalogue-api';

/**
 * The catalogue's check of itself. It asks for `/v1/random/anime`, which the gateway never caches,
 * so every check reaches the store (a cached path would answer "up" for a day while the store
 * fails); a 429 from its own rate limiter means busy, not down.
 * @param baseUrl - `http://host:port` of the catalogue.
 * @returns The service to monitor.
 */
export function toSelf(baseUrl: string): ServiceConfig {
  return {
    id: SELF_ID,
    name: 'Catalogue API',
    homepageUrl: `${baseUrl}/v1`,
    logoUrl: '',
    check: { url: `${baseUrl}/v1/random/anime`, timeoutMs: 10_000, degradedAfterMs: 2_000, degradedStatuses: [429] },
  };
}

function parseUpstreams(list: string | undefined): ServiceConfig[] {
  if (!list) return [];
  return list.split(',').map((pair) => {
    const at = pair.indexOf('=');
    const id = pair.slice(0, at).trim();
    const url = pair.slice(at + 1).trim();
    if (at < 1 || !/^https?:\/\//.test(url)) throw new Error(`STATUS_UPSTREAMS: expected id=url, got "${pair}"`);
    return { id, name: id, homepageUrl: new URL(url).origin, check: { url } };
  });
}

/**
 * Reads the status configuration and opens the store.
 * @param env - The environment (`process.env`).
 * @param host - `http://host:port` the catalogue will listen on; the self-check uses the real URL given to `start`.
 * @param hooks - An in-process probe of the catalogue for the self-check, and a listener for results.
 * @returns The status API, not yet checking.
 */
export async function createExampleStatus(env: NodeJS.ProcessEnv, host: string, hooks: ExampleStatusHooks = {}): Promise<ExampleStatus> {
  const config: ExampleStatusConfig = env.STATUS_CONFIG ? JSON.parse(await readFile(env.STATUS_CONFIG, 'utf8')) : {};
  const upstreams = [...(config.upstreams ?? []), ...parseUpstreams(env.STATUS_UPSTREAMS)];
  const databaseUrl = env.STATUS_DATABASE_URL;
  const storeTimeoutMs = env.STORE_TIMEOUT_MS ? Number(env.STORE_TIMEOUT_MS) : undefined;
  const store: StatusStore & { close?(): Promise<void> } = databaseUrl
    ? await createPostgresStatusStore({ url: databaseUrl, schema: env.STATUS_DATABASE_SCHEMA ?? 'catalogue_status', timeoutMs: storeTimeoutMs })
    : createMemoryStatusStore();
  const settings = { staleAfterSeconds: config.staleAfterSeconds ?? 120, failuresBeforeDown: config.failuresBeforeDown ?? 2, storeTimeoutMs };
  const app = createStatusApp({
    services: [toSelf(host), ...upstreams],
    store,
    page: config.page ?? { name: 'catalogue-api status', url: `${host}/api/status` },
    ...settings,
  });
  for (const maintenance of config.maintenances ?? []) await app.maintenance.add(maintenance);

  let checker: Checker | undefined;
  let own: Server | undefined;
  return {
    app,
    async start(catalogueUrl) {
      const self = toSelf(catalogueUrl);
      const probe = hooks.probe;
      const selfUrl = self.check.url;
      checker = createChecker({
        services: [self, ...upstreams],
        store,
        onCheck: hooks.onCheck,
        // The self-check goes to the app in-process (see ExampleStatusHooks.probe); upstreams over the network.
        fetch: probe
          ? (input, init) => (input === selfUrl ? probe(new Request(input, init), { internalClient: SELF_CHECK_CLIENT }) : fetch(input, init))
          : undefined,
        intervalSeconds: Number(env.STATUS_INTERVAL_SECONDS ?? config.intervalSeconds ?? 60),
        ...settings,
      });
      checker.start();
      if (env.STATUS_PORT) own = await serve(hooks.observe?.(app) ?? app, { port: Number(env.STATUS_PORT), hostname: env.HOST ?? '127.0.0.1' });
    },
    async stop() {
      await Promise.all([checker?.stop(), own?.close()]);
      await store.close?.();
    },
  };
}
