/**
 * The runtime-agnostic core of catalogue-api: a Jikan v4 wire-compatible anime and manga
 * catalogue API under `/v1`, built on Web-standard APIs only. This entry point holds what a host
 * calls (the apps, their doors, the gateway, operations); the response schemas, the store
 * interface and the upstream refresher have entry points of their own: `@catalogue-api/core/schemas`,
 * `@catalogue-api/core/store` and `@catalogue-api/core/upstream`.
 * @module @catalogue-api/core
 */
export { createCatalogueApp, type CatalogueAppOptions } from './app.js';
export type { AdmissionLimits, AdmissionOptions } from './edge/admission.js';
export { createBodyMemo, type BodyMemoOptions } from './edge/body-memo.js';
export { ApiError, errorEnvelope, errorResponse, ERROR_TYPES, internalErrorResponse, StoreUnavailableError, type ErrorEnvelope, type ErrorStatus } from './edge/errors.js';
export {
  ALLOWED_METHODS,
  cacheControl,
  fromWebRequest,
  splitTarget,
  toApp,
  toWebResponse,
  type App,
  type CachePolicy,
  type MatchedRoute,
  type Middleware,
  type PlainHandler,
  type PlainRequest,
  type PlainResponse,
  type RequestContext,
  type RequestTrace,
  type ServeOptions,
  type Server,
} from './edge/http.js';
export { createObservedApp, type ClientIdMode, type ObservedAppOptions, type RequestObserver, type RequestRecord } from './operations/observe.js';
export { createLineLogger, formatLogLine, LOG_LEVELS, type LineLogger, type LogBase, type LogLevelName } from './operations/log-line.js';
export { createAccessLineFormatter } from './operations/access-line.js';
export { OPERATIONS_ENV, parseTrustProxy, readOperationsEnv, type OperationsEnv } from './operations/operations-env.js';
export { EnvError, readServerEnv, SERVER_ENV, type EnvValue, type EnvVariable, type ReadServerEnvOptions, type ServerEnv, type ServerEnvName } from './operations/server-env.js';
export { describeError, toStartupFailure, type StartupFailure } from './operations/startup-failure.js';
export {
  adoptRuntimeMetrics,
  drainOnSignals,
  routeChecks,
  SELF_CHECK_CLIENT,
  selfService,
  startDemoServer,
  type DemoServer,
  type AccessLogSink,
  type DemoServerRuntime,
  type DrainOptions,
  type ListeningServer,
  type ProbedService,
  type RuntimeRegistry,
  type SignalHost,
} from './demo-server.js';
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
  type MetricsRegistry,
  type MetricsRenderer,
} from './operations/metrics.js';
export { createHealthApp, type HealthApp, type HealthAppOptions, type HealthCheck } from './operations/health.js';
export { toDeprecationHeaders, type DeprecationOptions } from './operations/deprecation.js';
export type { Logger } from './edge/pipeline.js';
export { createMemoryStore } from './seam/memory-store.js';
export {
  createOpenApiDocument,
  errorEnvelopeSchema,
  OPENAPI_PATH,
  type JsonObject,
  type OpenApiDocument,
  type OpenApiOptions,
} from './catalogue/openapi.js';
export {
  createGateway,
  createMemoryGatewayBackend,
  type GatewayCacheOptions,
  type GatewayContext,
  type GatewayOptions,
  type MemoryGatewayBackendOptions,
} from './gateway/gateway.js';
export { createKeyFingerprinter, createStaticKeyStore, type FingerprintSecret, type StaticKeyStoreOptions } from './gateway/keys.js';
export { DEFAULT_BLOCK_POLICY } from './gateway/blocks.js';
export { DEFAULT_LIMITS, type RateLimitOptions, type Tier, type TierLimits } from './gateway/rate-limit.js';
export type { TrustProxy } from './gateway/client-address.js';
export { resolveImagePaths, DEFAULT_CDN_URL } from './seam/image-host.js';
export { combineApps } from './edge/combine-apps.js';
export { createStatusApp, STATUS_PATH, type StatusApp, type StatusAppOptions } from './status/app.js';
export { STATUS_PAGE_CSP, STATUS_PAGE_PATH, toStatusPage } from './status/page.js';
export { createChecker, type Checker, type CheckerOptions, type CheckRound, type Timers } from './status/checker.js';
export { createMemoryStatusStore } from './status/memory-status-store.js';
export type { MaintenanceInput, MaintenanceManager, MaintenancePatch, TimeInput } from './status/maintenance.js';
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
