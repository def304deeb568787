import { createMemoryGatewayBackend, createStaticKeyStore } from '@catalogue-api/core';
import { defineGatewayBackendContract } from '../src/gateway-contract.js';

// The memory back end carries no key store of its own (the gateway's `keys` option supplies one),
// so the static key store rides along here: the contract's key tests then run rather than skip.
defineGatewayBackendContract('memory', {
  knownKey: 'contract-server-key',
  create: async () => ({ ...createMemoryGatewayBackend(), keys: createStaticKeyStore(['contract-server-key']) }),
  createBounded: async (bounds) =>
    createMemoryGatewayBackend({ cacheMaxBytes: { public: bounds.publicMaxBytes, server: bounds.serverMaxBytes }, cacheMaxKeyLength: bounds.maxKeyLength }),
});
