/**
 * Running in production: access log, metrics on a private port, health and readiness, and a
 * deprecated /v1 served beside its successor. Shown in docs/operations.md.
 * @module
 */
// #region observe
import { serve } from '@catalogue-api/adapter-node';
import {
  combineApps,
  createCatalogueApp,
  createCatalogueMetrics,
  createHealthApp,
  createMetricsApp,
  createObservedApp,
  type App,
} from '@catalogue-api/core';
import { createRedisGateway } from '@catalogue-api/redis';
import { createPostgresStore } from '@catalogue-api/store-postgres';
import { pino } from 'pino';

export async function startObserved(env: Record<string, string | undefined>) {
  const store = createPostgresStore({ url: env.DATABASE_URL });
  const backend = createRedisGateway({ url: env.REDIS_URL });
  const metrics = createCatalogueMetrics();
  const catalogue = createCatalogueApp({ store: metrics.instrumentStore(store), gateway: { backend, trustProxy: 1 } });

  // /healthz: the process answers. /readyz: 503 while PostgreSQL or Redis does not answer within 1 s.
  const health = createHealthApp({ checks: { store: () => store.sql`select 1`, gateway: backend.ping } });
  metrics.watchDependencies(health.state);

  // One JSON line per request with pino's fields (pid, hostname, msg; the record's own time), written
  // asynchronously as soon as it is made; the client and X-Request-Id as the load balancer sent them.
  const log = pino({ timestamp: false }, pino.destination({ dest: 1, sync: false }));
  const app = createObservedApp(combineApps(health, catalogue), {
    observers: [(record) => log.info(record, 'request completed'), metrics.observe],
    trustProxy: 1,
  });

  const server = await serve(app, { port: 3000, hostname: '0.0.0.0' });
  // Metrics on a port of their own, on an interface the public cannot reach.
  const scrape = await serve(createMetricsApp(metrics.render), { port: 9464, hostname: '127.0.0.1' });
  return { server, scrape };
}
// #endregion observe

// #region versions
/**
 * Serves `/v2` beside a deprecated `/v1`: every `/v1` answer names its sunset and successor. `v2` is
 * the successor's app: any app whose `owns` takes the `/v2` paths (the catalogue app owns `/v1` only).
 */
export function withSuccessor(v1Options: Parameters<typeof createCatalogueApp>[0], v2: App) {
  const v1 = createCatalogueApp({
    ...v1Options,
    deprecation: {
      deprecatedAt: '2027-01-01T00:00:00Z',
      sunsetAt: '2027-07-01T00:00:00Z',
      successorUrl: 'https://api.example.org/v2',
    },
  });
  // The first app that owns a path answers it: /v2/… goes to v2, /v1/… to v1, and a path neither
  // owns gets v1's 404, without the version's headers: it is no answer of /v1.
  return combineApps(v2, v1);
}
// #endregion versions
