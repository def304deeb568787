import { createMemoryStatusStore } from '@catalogue-api/core';
import { defineStatusStoreContract } from '@catalogue-api/testkit';

defineStatusStoreContract('memory', { create: async () => createMemoryStatusStore() });
