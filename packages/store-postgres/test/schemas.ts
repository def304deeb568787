/**
 * Throwaway schemas for the suites that build stores on `DATABASE_URL`: each store gets its own
 * schema, and `cleanup()` drops every schema made so far.
 */
import type { Sql } from 'postgres';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';

/**
 * Makes migrated stores in fresh schemas named `<prefix>_<random>`.
 * @param sql - The client the stores share.
 * @param prefix - The schemas' name prefix.
 */
export function throwawaySchemas(sql: Sql, prefix: string): { fresh(): Promise<PostgresStore>; cleanup(): Promise<void> } {
  const made: string[] = [];
  return {
    async fresh() {
      const schema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
      made.push(schema);
      const store = createPostgresStore({ sql, schema });
      await store.migrate();
      return store;
    },
    async cleanup() {
      for (const schema of made.splice(0)) await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    },
  };
}
