import { createRecordStore } from '../src/index.js';
import { defineRecordStoreContract } from '../../testkit/src/record-store-contract.js';

// The reference record store over the seam must pass the suite every record store passes.
defineRecordStoreContract('reference (createRecordStore)', () => createRecordStore());
