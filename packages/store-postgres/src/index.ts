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
export { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from './catalogue-store.js';
export {
  createSnapshotSink,
  formatIssues,
  importFile,
  ImportInterruptedError,
  readRecords,
  toStoreSink,
  type ImportOptions,
  type ImportProgress,
  type ImportSink,
  type ImportSummary,
  type Rejection,
  type SourceRecord,
} from './import.js';
export { isResourceName, recordKey, RESOURCE_NAMES, RESOURCES, type RecordSchema, type ResourceDefinition, type ResourceName } from './resources.js';
