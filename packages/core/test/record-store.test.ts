import { createRecordStore } from '../src/entry-store.js';
import { defineStoreContract } from '../../testkit/src/store-contract.js';

// The reference record store over the seam must pass the suite every record store passes.
defineStoreContract('reference (createRecordStore)', () => createRecordStore());
