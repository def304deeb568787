/**
 * The example of packages/redis/README.md; examples.test.ts type-checks it, and runs it when
 * REDIS_URL is set.
 * @module
 */
// #region redis
import { createCatalogueApp } from '@catalogue-api/core';
import { createRedisGateway } from '@catalogue-api/redis';

export const backend = createRedisGateway({ url: process.env.REDIS_URL, prefix: 'catalogue:' });
await backend.ready; // first connection; until then requests get 503 with Retry-After: 1
await backend.addKeys(['a-long-random-server-key']); // stored as fingerprints, shared by every instance
export const app = createCatalogueApp({ gateway: { backend } });
// #endregion redis
