import { createMemoryGatewayBackend } from '@catalogue-api/core';
import { defineGatewayBackendContract } from '../src/gateway-contract.js';

defineGatewayBackendContract('memory', { create: async () => createMemoryGatewayBackend() });
