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
export { createPostgresRefreshState, migrateRefreshSchema, type PostgresRefreshState, type PostgresRefreshStateOptions } from './refresh-state.js';
// The importer, whole: reading and checking records, detecting a file's resource, writing them to a store.
export * from './import.js';
export { isResourceName, recordKey, RESOURCE_NAMES, RESOURCES, type RecordSchema, type ResourceDefinition, type ResourceName } from './resources.js';
export { createFolderFileDrop, type FolderFileDropOptions } from './file-drop.js';
export { mismatchHint, parseRequest, REQUESTS, resourcesOf, type EntryRequest, type ImportKind } from './resources.js';
