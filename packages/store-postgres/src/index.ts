/**
 * PostgreSQL back ends for catalogue-api (porsager `postgres`).
 * @module @catalogue-api/store-postgres
 */
export {
  createPostgresStatusStore,
  migrateStatusSchema,
  type PostgresStatusStore,
  type PostgresStatusStoreOptions,
} from './status-store.js';
