import { createMemoryStore } from '../src/index.js';
import { demoData } from '../../demo-data/src/index.js';
import { defineStoreContract } from '../../testkit/src/store-contract.js';

defineStoreContract('memory', () => createMemoryStore(demoData));
