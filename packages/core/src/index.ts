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
export { OPERATIONS_ENV, parseTrustProxy, readOperationsEnv, type OperationsEnv } from './operations-env.js';
export { EnvError, readServerEnv, SERVER_ENV, type EnvValue, type EnvVariable, type ReadServerEnvOptions, type ServerEnv, type ServerEnvName } from './server-env.js';
export { describeError, toStartupFailure, type StartupFailure } from './startup-failure.js';
export {
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
} from './seam/collections.js';
export { compareFields, holds, holdsAll, type Fields } from './seam/evaluate.js';
export { loadCatalogue } from './seam/load.js';
export { createRecordStore } from './seam/record-store.js';
export type { Condition, FieldValue, OrderKey, PluckedJson, PluckQuery, RecordKey, RecordQuery, CatalogueStore, Tally } from './seam/types.js';
export { catalogueOver } from './catalogue/index.js';
export { compareTop, onTopList, TOP_ORDER, topQuery, topRule, type TopEntry, type TopFilter, type TopRule } from './top-order.js';
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
export { ANIME_ORDER_BY, MANGA_ORDER_BY } from './catalogue/kinds.js';
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
// Keeping a catalogue current from an upstream: the shapes sources, ledgers and refresh states implement
// (`MediaKind` is the same union as the store's, exported above).
export type {
  Budget,
  BudgetLedger,
  EntryPart,
  Fetched,
  ListName,
  ListPage,
  MappedRecords,
  RecordWriter,
  RefreshState,
  SourceHealth,
  Task,
  TierBacklog,
  TierName,
  UpstreamLimits,
  UpstreamSource,
  WriteOutcome,
} from './upstream/types.js';
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
// The refresher's own exports come with it (`upstream/refresher.ts`); these two are what `catalogue-api sync` reads.
export type { PassSummary, RefreshEvent } from './upstream/refresher.js';
