/**
 * The example of packages/store-postgres/README.md; examples.test.ts type-checks it, and runs it
 * when DATABASE_URL is set (schema from CATALOGUE_SCHEMA, so a test can use its own).
 * @module
 */
// #region store-postgres
import { createCatalogueApp } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { createPostgresStore } from '@catalogue-api/store-postgres';

export const store = createPostgresStore({ url: process.env.DATABASE_URL, schema: process.env.CATALOGUE_SCHEMA ?? 'catalogue' });
await store.migrate(); // creates or upgrades the schema; safe to run from several processes
await store.seed(demoData); // or your own: await store.upsert('anime', records), then store.analyze()
export const app = createCatalogueApp({ store }); // every endpoint, computed from its records in SQL
// #endregion store-postgres
