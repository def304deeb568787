/**
 * The database of one `describe` block of the suites that need `DATABASE_URL`: a client, and
 * migrated stores in throwaway schemas ({@link throwawaySchemas}), all gone after the block.
 */
import { afterAll } from 'vitest';
import postgres, { type Sql } from 'postgres';
import type { PostgresStore } from '../src/catalogue-store.js';
import { throwawaySchemas } from './schemas.js';

/**
 * Opens a client on `DATABASE_URL` for the calling `describe` block; after the block's tests, every
 * schema `fresh()` made is dropped and the client ended. The client connects on its first query, so
 * a block skipped for want of `DATABASE_URL` opens nothing.
 * @param prefix - The schemas' name prefix.
 * @param max - Connections in the client's pool.
 * @returns The client, and `fresh()`: a migrated store in a new schema.
 */
export function suiteDatabase(prefix: string, max: number): { sql: Sql; fresh(): Promise<PostgresStore> } {
  const sql = postgres(process.env.DATABASE_URL!, { max, onnotice: () => {} });
  const { fresh, cleanup } = throwawaySchemas(sql, prefix);
  afterAll(async () => {
    await cleanup();
    await sql.end({ timeout: 5 });
  });
  return { sql, fresh };
}
