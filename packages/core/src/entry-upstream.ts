/**
 * Keeping the catalogue fresh from an upstream Jikan v4 API: the refresher, its schedule, budget
 * and state, the Jikan source, file drops and the record writer.
 * @module @catalogue-api/core/upstream
 */
export { createBudget, createMemoryLedger, JIKAN_LIMITS, type BudgetOptions } from './upstream/budget.js';
export { createJikanSource, DEFAULT_USER_AGENT, LIBRARY_VERSION, type JikanSourceOptions } from './upstream/jikan-source.js';
export {
  checkDroppedFiles,
  createUrlFileDrop,
  formatDropCursor,
  parseDropCursor,
  parseDroppedText,
  type ApplyDroppedFile,
  type DroppedFile,
  type DroppedRecord,
  type FileDrop,
  type FileDropResult,
  type UrlFileDropOptions,
} from './upstream/file-drop.js';
export { mapEntryPart, mapListItem, MappingError, PART_COLLECTIONS, partsOf, type MappedPart } from './upstream/mapping.js';
export { canonicalJson, createRecordWriter, type RecordWriterOptions } from './upstream/writer.js';
export {
  createRefresher,
  type PassSummary,
  type Refresher,
  type RefresherLogger,
  type RefresherOptions,
  type RefresherStatus,
  type RefreshEvent,
} from './upstream/refresher.js';
export { createMemoryRefreshState, type MemoryRefreshSnapshot, type MemoryRefreshState } from './upstream/memory-state.js';
export {
  createSchedule,
  DEFAULT_HOT_PARTS,
  DEFAULT_INTERVALS,
  DEFAULT_PARTS,
  DEFAULT_POPULAR_TOP,
  FULL_SCALE,
  scheduleDemand,
  TIERS,
  type Demand,
  type Intervals,
  type KindSize,
  type Schedule,
} from './upstream/schedule.js';
export type * from './upstream/types.js';
export {
  createRefresherFromEnv,
  readUpstreamSettings,
  UPSTREAM_CHECK_URL,
  UPSTREAM_ENV,
  UPSTREAM_SERVICE_ID,
  type RefresherFromEnvOptions,
  type SnapshotFile,
  type UpstreamEnv,
  type UpstreamRefresh,
  type UpstreamSettings,
} from './upstream/start.js';
export { createRefresherMetrics, type RefresherMetrics, type RefresherMetricsOptions } from './upstream/refresh-metrics.js';
