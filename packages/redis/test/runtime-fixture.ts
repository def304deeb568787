/**
 * Run by `runtimes.test.ts` under Bun and Deno: the catalogue app with the Redis gateway, five
 * public requests in one second and one with a Server Key, printed as one JSON line.
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { createRedisGateway } from '../src/index.ts';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const prefix = env.REDIS_PREFIX!;
const backend = createRedisGateway({ url: env.REDIS_URL, prefix, timeoutMs: 2_000 });
await backend.ready;
await backend.addKeys(['runtime-key']);
const T0 = Date.UTC(2026, 8, 1, 12, 0, 0, 100);
const app = createCatalogueApp({ store: createMemoryStore({ anime: [] }), now: () => T0, logger: { error: () => undefined }, gateway: { backend } });
const statuses: number[] = [];
for (let i = 0; i < 5; i++) statuses.push((await app.fetch(new Request(`http://api.test/v1/anime?q=r${i}`), { clientAddress: '198.51.100.70' })).status);
const keyed = await app.fetch(new Request('http://api.test/v1/anime', { headers: { 'x-server-key': 'runtime-key' } }), { clientAddress: '198.51.100.70' });
console.log(JSON.stringify({ statuses, keyed: keyed.status, limit: keyed.headers.get('ratelimit-limit') }));
await backend.close();
