/**
 * Several instances sharing one Redis (limits, blocks, keys, caches) and one PostgreSQL (the
 * catalogue and the status history). Shown in docs/deploying.md.
 * @module
 */
// #region instance
import { serve } from '@catalogue-api/adapter-node';
import { combineApps, createCatalogueApp, createChecker, createStatusApp, type ServiceConfig } from '@catalogue-api/core';
import { createRedisGateway } from '@catalogue-api/redis';
import { createPostgresStatusStore, createPostgresStore } from '@catalogue-api/store-postgres';

export async function startInstance(env: Record<string, string | undefined>) {
  // The catalogue: one schema, migrated by whichever instance starts first (idempotent).
  const store = createPostgresStore({ url: env.DATABASE_URL, schema: env.CATALOGUE_SCHEMA ?? 'catalogue' });
  await store.migrate();

  // Every limit, block, Server Key and cached answer lives in Redis, so all instances agree.
  // The Server Keys are the whole set, the same on every instance, as is the fingerprint secret.
  const backend = createRedisGateway({
    url: env.REDIS_URL,
    prefix: 'catalogue:',
    keys: env.SERVER_KEYS?.split(',') ?? [],
    fingerprintSecret: env.FINGERPRINT_SECRET,
  });
  await backend.ready;

  const catalogue = createCatalogueApp({
    store,
    gateway: { backend, trustProxy: 1, restrictedRoutes: [] }, // one load balancer in front
  });

  // Status history in PostgreSQL: one checker holds the lease, the others stand by.
  const services: ServiceConfig[] = [{ id: 'api', name: 'Catalogue API', check: { url: `${env.PUBLIC_URL}/v1/random/anime` } }];
  const statusStore = await createPostgresStatusStore({ url: env.DATABASE_URL, schema: env.STATUS_SCHEMA ?? 'catalogue_status' });
  const status = createStatusApp({ services, store: statusStore, page: { name: 'Catalogue status', url: `${env.PUBLIC_URL}/api/status` } });
  const checker = createChecker({ services, store: statusStore });
  checker.start();

  const server = await serve(combineApps(status, catalogue), { port: Number(env.PORT ?? 3000), hostname: '0.0.0.0' });
  return {
    url: server.url,
    async close() {
      await server.close();
      await checker.stop();
      await Promise.all([backend.close(), store.close(), statusStore.close()]);
    },
  };
}
// #endregion instance
