import { defineGatewayBackendContract } from '@catalogue-api/testkit';
import { describe } from 'vitest';
import { createRedisGateway, type RedisGateway } from '../src/index.js';
import { deletePrefix, REDIS_URL, uniquePrefix } from './helpers.js';

const prefixes = new WeakMap<object, string>();

describe.skipIf(!REDIS_URL)('Redis gateway back end', () => {
  defineGatewayBackendContract('redis', {
    knownKey: 'contract-server-key',
    async create() {
      const prefix = uniquePrefix('contract');
      const backend = createRedisGateway({ url: REDIS_URL, prefix, timeoutMs: 2_000 });
      await backend.ready;
      await backend.addKeys(['contract-server-key']);
      prefixes.set(backend, prefix);
      return backend;
    },
    async createBounded(bounds) {
      const prefix = uniquePrefix('contract-bounded');
      const backend = createRedisGateway({
        url: REDIS_URL,
        prefix,
        timeoutMs: 2_000,
        cacheMaxBytes: { public: bounds.publicMaxBytes, server: bounds.serverMaxBytes },
        cacheMaxKeyLength: bounds.maxKeyLength,
      });
      await backend.ready;
      prefixes.set(backend, prefix);
      return backend;
    },
    async destroy(backend) {
      await deletePrefix(prefixes.get(backend)!);
      await (backend as RedisGateway).close();
    },
  });
});
