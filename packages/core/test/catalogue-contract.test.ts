/**
 * The catalogue contract (`@catalogue-api/testkit`) over the plain reference record store: the
 * HTTP answers of the catalogue app over the reference store loaded with the demo data.
 */
import { demoData } from '../../demo-data/src/index.js';
import { defineCatalogueContract } from '../../testkit/src/catalogue-contract.js';
import { loadCatalogue } from '../src/seam/load.js';
import { createRecordStore } from '../src/seam/record-store.js';

defineCatalogueContract('reference record store', () => loadCatalogue(createRecordStore(), demoData));
