/**
 * The two store contracts of `@catalogue-api/testkit` against the PostgreSQL store: the seam's
 * methods one by one (`defineStoreContract`, from an empty schema), and every endpoint's HTTP
 * answer from the catalogue app over it (`defineCatalogueContract`, seeded with the demo data).
 * Needs `DATABASE_URL`; each run uses its own schemas.
 */
import { describe, it } from 'vitest';
import postgres from 'postgres';
import { demoData } from '@catalogue-api/demo-data';
import { defineCatalogueContract, defineStoreContract } from '@catalogue-api/testkit';
import { throwawaySchemas } from './schemas.js';

const url = process.env.DATABASE_URL;

if (url) {
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  const { fresh: freshSchema, cleanup } = throwawaySchemas(sql, 'pgseam_contract');
  defineStoreContract('postgres', freshSchema, { cleanup });
  defineCatalogueContract(
    'postgres',
    async () => {
      const store = await freshSchema();
      await store.seed(demoData);
      return store;
    },
    {
      async cleanup() {
        await cleanup();
        await sql.end({ timeout: 5 });
      },
    },
  );
} else {
  // A named skip, not a silent one: without a database there is no store to check.
  describe.skip('store contracts: postgres (DATABASE_URL is not set)', () => {
    it('needs DATABASE_URL', () => {});
  });
}
