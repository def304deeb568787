/**
 * The example of packages/redis/README.md; examples.test.ts type-checks it, and runs it when
 * REDIS_URL is set.
 * @module
 */
// #region redis
import { createCatalogueApp } from '@catalogue-api/core';
import { createRedisGateway } from '@catalogue-api/redis';

export const backend = createRedisGateway({
  url: process.env.REDIS_URL,
  prefix: 'catalogue:',
  // The whole set, as keyed fingerprints shared by every instance; written again if Redis loses it.
  keys: ['a-long-random-server-key'],
  fingerprintSecret: process.env.FINGERPRINT_SECRET, // the same on every instance
});
await backend.ready; // connected and the keys written; until then requests get 503 with Retry-After: 1
export const app = createCatalogueApp({ gateway: { backend } });
// #endregion redis
