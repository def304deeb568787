/**
 * Contract test suites (vitest) for catalogue-api stores, adapters and deployments, so that
 * third-party implementations can check themselves.
 * @module @catalogue-api/testkit
 */
export { defineStoreContract, type StoreContractOptions } from './store-contract.js';
export { answersOf, type Answer } from './answers.js';
export { defineCatalogueContract, type CatalogueContractOptions } from './catalogue-contract.js';
export {
  compareApps,
  defineDifferentialContract,
  differentialRequests,
  type DifferentialApps,
  type DifferentialContractOptions,
  type DifferentialRequest,
  type FetchHandler,
} from './differential.js';
export { defineStatusStoreContract, type StatusStoreHarness } from './status-store-contract.js';
export { defineHttpContract, type HttpContractOptions, type HttpContractSkips } from './http-contract.js';
export { defineRequestTargetContract, type RequestTargetContractOptions } from './request-target-contract.js';
export { spawnServer, type SpawnedServer, type SpawnServerOptions } from './spawn-server.js';
export { defineGatewayBackendContract, type CacheBounds, type GatewayBackendHarness } from './gateway-contract.js';
export {
  checkRequestLog,
  createFakeUpstream,
  maxInWindow,
  newAnimeLike,
  type FakeBacking,
  type FakeFailure,
  type FakeFailureScope,
  type FakeRecord,
  type FakeRequestRecord,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type RequestLogCheck,
} from './fake-upstream.js';
