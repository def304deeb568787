/**
 * The status API beside the catalogue on one port. Shown in docs/status-api.md.
 * @module
 */
// #region status
import { serve } from '@catalogue-api/adapter-node';
import {
  combineApps,
  createCatalogueApp,
  createChecker,
  createMemoryStatusStore,
  createMemoryStore,
  createStatusApp,
  type ServiceConfig,
} from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

export async function startWithStatus(port = 3000) {
  const catalogue = createCatalogueApp({ store: createMemoryStore(demoData) });
  const services: ServiceConfig[] = [
    { id: 'api', name: 'Catalogue API', check: { url: `http://127.0.0.1:${port}/v1/random/anime`, timeoutMs: 5_000, degradedAfterMs: 2_000 } },
  ];
  const store = createMemoryStatusStore(); // or createPostgresStatusStore() to keep 90 days across restarts
  const status = createStatusApp({ services, store, page: { name: 'Catalogue status', url: 'https://status.example.org' } });
  const checker = createChecker({ services, store, intervalSeconds: 60 });

  const server = await serve(combineApps(status, catalogue), { port });
  checker.start();

  // Maintenance is managed through the library; the HTTP API stays read-only.
  await status.maintenance.add({
    serviceId: 'api',
    title: 'Database upgrade',
    startsAt: '2030-01-01T02:00:00Z',
    endsAt: '2030-01-01T03:00:00Z',
  });
  return { server, status, checker };
}
// #endregion status
