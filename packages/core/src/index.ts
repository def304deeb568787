/**
 * The runtime-agnostic core of catalogue-api: a Jikan v4 wire-compatible anime and manga
 * catalogue API under `/v1`, built on Web-standard APIs only.
 * @module @catalogue-api/core
 */
export { createCatalogueApp, type CatalogueApp, type CatalogueAppOptions } from './app.js';
export type { AdmissionLimits, AdmissionOptions } from './internal/admission.js';
export { createBodyMemo, type BodyMemoOptions } from './body-memo.js';
export { ApiError, errorEnvelope, ERROR_TYPES, internalErrorResponse, StoreUnavailableError, type ErrorEnvelope, type ErrorStatus } from './errors.js';
export {
  ALLOWED_METHODS,
  fromWebRequest,
  splitTarget,
  toWebResponse,
  type Middleware,
  type PlainHandler,
  type PlainRequest,
  type PlainResponse,
  type RequestContext,
  type RequestTrace,
  type ServeOptions,
  type Server,
} from './http.js';
export { createObservedApp, type ClientIdMode, type ObservableApp, type ObservedApp, type ObservedAppOptions, type RequestObserver, type RequestRecord } from './observe.js';
export { createLineLogger, formatLogLine, LOG_LEVELS, type LineLogger, type LogBase, type LogLevelName } from './log-line.js';
export { OPERATIONS_ENV, parseTrustProxy, readOperationsEnv, type OperationsEnv } from './operations-env.js';
export { EnvError, readServerEnv, SERVER_ENV, type EnvValue, type EnvVariable, type ReadServerEnvOptions, type ServerEnv, type ServerEnvName } from './server-env.js';
export { describeError, toStartupFailure, type StartupFailure } from './startup-failure.js';
export {
  combineMetrics,
  createCatalogueMetrics,
  createMetricsApp,
  createMetricsRegistry,
  LATENCY_BUCKETS,
  METRICS_CONTENT_TYPE,
  UNMATCHED_ROUTE,
  type CatalogueMetrics,
  type CatalogueMetricsOptions,
  type CounterSeries,
  type Family,
  type GaugeCollector,
  type HistogramSeries,
  type MetricsApp,
  type MetricsRegistry,
  type MetricsRenderer,
} from './metrics.js';
export { createHealthApp, type HealthApp, type HealthAppOptions, type HealthCheck } from './health.js';
export { toDeprecationHeaders, type DeprecationOptions } from './deprecation.js';
export type { Logger } from './internal/pipeline.js';
export { createMemoryStore } from './memory-store.js';
export {
  broadcastDay,
  COLLECTION_NAMES,
  COLLECTIONS,
  collectionKey,
  fieldValues,
  isCollectionName,
  mediaTitles,
  premiere,
  SEASONS,
  WEEKDAYS,
  type CollectionName,
  type CollectionRecord,
  type CollectionSpec,
  type FieldSpec,
  type FieldType,
  type Season,
  type Weekday,
} from './seam/collections.js';
export { compareFields, holds, holdsAll, type Fields } from './seam/evaluate.js';
export { loadCatalogue } from './seam/load.js';
export { createRecordStore } from './seam/record-store.js';
export type { Condition, FieldValue, OrderKey, PluckedJson, PluckQuery, RecordKey, RecordQuery, CatalogueStore, Tally } from './seam/types.js';
export type { ChangeFeed, RecordChange } from './seam/changes.js';
export { createChangeLog, changedOwners, type ChangeLog } from './seam/change-log.js';
export { createCacheKeys, type KeyedRoute } from './gateway/cache-key.js';
export { trackReads, changeTokens, Reads } from './gateway/reads.js';
export { createFreshness, type Freshness, type FreshnessOptions } from './gateway/freshness.js';
export { catalogueOver } from './catalogue/index.js';
export { TOP_ORDER, topQuery, topRule, type TopFilter, type TopRule } from './top-order.js';
export {
  createOpenApiDocument,
  errorEnvelopeSchema,
  OPENAPI_PATH,
  type JsonObject,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi.js';
export {
  createGateway,
  createMemoryGatewayBackend,
  type GatewayCacheOptions,
  type GatewayContext,
  type GatewayOptions,
  type MemoryGatewayBackendOptions,
} from './gateway/gateway.js';
export type {
  BlockPolicy,
  BlockStore,
  CacheStore,
  CachedResponse,
  CounterResult,
  CounterStore,
  CounterWindow,
  GatewayBackend,
  KeyStore,
} from './gateway/back-end.js';
export { createKeyFingerprinter, createStaticKeyStore, type FingerprintSecret, type StaticKeyStoreOptions } from './gateway/keys.js';
export { DEFAULT_BLOCK_POLICY } from './gateway/blocks.js';
export { DEFAULT_LIMITS, type RateLimitOptions, type Tier, type TierLimits } from './gateway/rate-limit.js';
export type { TrustProxy } from './gateway/client-address.js';
export type {
  AiringFilter,
  AnimeOrderBy,
  AnimeSearch,
  Approval,
  Catalogue,
  CatalogueData,
  CharacterSearch,
  EntryParts,
  EntryReviewQuery,
  GenreCategory,
  IdsQuery,
  IdsResult,
  KindMethods,
  MagazineSearch,
  MangaOrderBy,
  MangaSearch,
  MediaSearch,
  MediaKind,
  NamedParts,
  NamedSearch,
  Page,
  Paging,
  PersonSearch,
  PostSearch,
  ProducerSearch,
  RandomQuery,
  RecentRecommendationQuery,
  ReviewQuery,
  ScheduleDay,
  ScheduleQuery,
  SeasonQuery,
  StackSearch,
  TopAnimeQuery,
  TopMangaQuery,
} from './store.js';
export { resolveImagePaths, DEFAULT_CDN_URL } from './image-host.js';
/** The `order_by` values of each kind and the record field each orders by: what `AnimeOrderBy` and `MangaOrderBy` are made of. */
export { ANIME_ORDER_BY, MANGA_ORDER_BY, MEDIA_KINDS } from './catalogue/kinds.js';
export type { DatePeriod } from './query.js';
export type { SfwMode } from './sfw.js';
export type { Anime } from './schemas/anime.js';
// Used by stores and importers outside core, so they validate, classify and fold titles exactly as core does.
export * from './schemas/index.js';
export { sfwClass, type SfwClass } from './sfw.js';
export { normalizeTitle, queryWordEdges, queryWordPatterns } from './search.js';
export type { Broadcast, DateRange, Images, Pagination, Reference, Title, Trailer } from './schemas/common.js';
export { combineApps, type CombinedApp, type MountableApp } from './combine-apps.js';
export { createStatusApp, STATUS_PATH, type StatusApp, type StatusAppOptions } from './status/app.js';
export { STATUS_PAGE_CSP, STATUS_PAGE_PATH, toStatusPage } from './status/page.js';
export { createChecker, type Checker, type CheckerOptions, type CheckRound, type Timers } from './status/checker.js';
export { createMemoryStatusStore } from './status/memory-status-store.js';
export type { MaintenanceInput, MaintenanceManager, MaintenancePatch, TimeInput } from './status/maintenance.js';
export { maintenanceSchema, serviceSchema, statusSnapshotSchema } from './status/schema.js';
export type { CheckRecord, StatusStore } from './status/store.js';
export type {
  CheckOutcome,
  CheckSegment,
  MaintenanceRecord,
  MaintenanceView,
  ServiceCheck,
  ServiceConfig,
  ServiceStatus,
  ServiceView,
  StatusSnapshot,
} from './status/types.js';
export { createBudget, createMemoryLedger, JIKAN_LIMITS, type BudgetOptions } from './upstream/budget.js';
export { createJikanSource, DEFAULT_USER_AGENT, LIBRARY_VERSION, type JikanSourceOptions } from './upstream/jikan-source.js';
export {
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
