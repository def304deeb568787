/**
 * The store contract of `@catalogue-api/testkit` (the suite the memory store passes) against core's
 * endpoint methods over the PostgreSQL record store (`catalogueOver`) seeded with the demo data.
 * Needs `DATABASE_URL`; each run uses its own schema.
 */
import { describe, it } from 'vitest';
import postgres from 'postgres';
import { catalogueOver } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { defineStoreContract } from '@catalogue-api/testkit';
import { createPostgresStore } from '../src/catalogue-store.js';

const url = process.env.DATABASE_URL;

if (url) {
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  const schema = `pgseam_contract_${Math.random().toString(36).slice(2, 10)}`;
  defineStoreContract(
    'postgres',
    async () => {
      const store = createPostgresStore({ sql, schema });
      await store.migrate();
      await store.seed(demoData);
      return catalogueOver(store);
    },
    {
      async cleanup() {
        await sql.unsafe(`drop schema if exists "${schema}" cascade`);
        await sql.end({ timeout: 5 });
      },
    },
  );
} else {
  // A named skip, not a silent one: without a database there is no store to check.
  describe.skip('CatalogueStore contract: postgres (DATABASE_URL is not set)', () => {
    it('needs DATABASE_URL', () => {});
  });
}
