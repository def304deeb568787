/**
 * Every option of `createCatalogueApp`, spelled out with its default. Shown in docs/configuration.md.
 * @module
 */
// #region options
import {
  createCatalogueApp,
  createMemoryGatewayBackend,
  createMemoryStore,
  DEFAULT_BLOCK_POLICY,
  DEFAULT_LIMITS,
  type CatalogueAppOptions,
} from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

export const options: CatalogueAppOptions = {
  store: createMemoryStore(demoData), // default: an empty memory store
  now: Date.now, // the clock; inject one in tests
  random: Math.random, // the picks of /v1/random/*
  logger: console, // unexpected failures; clients only ever see the 500 envelope
  middleware: [], // your own stages, run before the gateway and routing
  gateway: {
    backend: createMemoryGatewayBackend({ cacheMaxBytes: 64 * 1024 * 1024 }), // or createRedisGateway()
    keys: ['a-long-random-server-key'], // or a KeyStore; default: none
    restrictedRoutes: ['/v1/top/*'], // 401 without a valid key; default: []
    rateLimit: {
      public: DEFAULT_LIMITS.public, // 4/s, 120/min, 40,000/day, per client address
      server: DEFAULT_LIMITS.server, // 5/s, 300/min, no daily limit, per key
    },
    blocks: DEFAULT_BLOCK_POLICY, // 30 refusals in 60 s → 403 for 10 min, doubling up to 24 h
    cache: { publicTtlMs: 86_400_000, serverTtlMs: 600_000 },
    trustProxy: false, // e.g. 1 behind one load balancer
    timeoutMs: 250, // longest wait for the back end before 503 + Retry-After: 1
  },
};

export const app = createCatalogueApp(options);
// #endregion options

// #region tests
/** In tests: no gateway at all, a fixed clock and fixed random picks. */
export const testApp = createCatalogueApp({
  store: createMemoryStore(demoData),
  gateway: false,
  now: () => Date.UTC(2024, 3, 1),
  random: () => 0.5,
});
// #endregion tests
