/**
 * The old store contract (`@catalogue-api/testkit`) over the record seam: the endpoint methods of
 * `catalogueOver` on the plain record store loaded with the demo data.
 */
import { demoData } from '../../demo-data/src/index.js';
import { defineCatalogueContract } from '../../testkit/src/catalogue-contract.js';
import { catalogueOver } from '../src/catalogue/index.js';
import { loadCatalogue } from '../src/seam/load.js';
import { createRecordStore } from '../src/seam/record-store.js';

defineCatalogueContract('reference record store', () => loadCatalogue(createRecordStore(), demoData));
