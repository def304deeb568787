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
export {
  createSnapshotSink,
  detectResource,
  formatIssues,
  importFile,
  ImportInputError,
  ImportInterruptedError,
  KEPT_REJECTIONS,
  MAX_DOCUMENT_BYTES,
  MAX_LINE_BYTES,
  MAX_NESTING,
  readRecords,
  storageIssues,
  toStoreSink,
  type Detection,
  type ImportOptions,
  type ImportProgress,
  type ImportSink,
  type ImportSummary,
  type ReadOptions,
  type Rejection,
  type SourceRecord,
} from './import.js';
export { isResourceName, recordKey, RESOURCE_NAMES, RESOURCES, type RecordSchema, type ResourceDefinition, type ResourceName } from './resources.js';
export { createFolderFileDrop, type FolderFileDropOptions } from './file-drop.js';
export { mismatchHint, parseRequest, REQUESTS, resourcesOf, type EntryRequest, type ImportKind } from './resources.js';
