/**
 * `readOperationsEnv`: the operations settings of a server from its environment variables, read
 * and checked by `readServerEnv` (see `server-env.ts`) so that the example servers on Node, Bun and
 * Deno take the same variables with the same words (see the README's "Environment variables").
 * @module
 */
import type { DeprecationOptions } from './deprecation.js';
import type { TrustProxy } from '../gateway/client-address.js';
import type { ClientIdMode } from './observe.js';
import { parseTrustProxy, readServerEnv, type ServerEnvName } from './server-env.js';

export { parseTrustProxy };

/** The operations settings, as {@link readOperationsEnv} reads them. */
export interface OperationsEnv {
  /** `ACCESS_LOG`: `json` (default) writes one JSON line per request; `off` writes none. */
  accessLog: 'json' | 'off';
  /** `ACCESS_LOG_SAMPLE`: the share of requests logged, from 0 to 1. @default 1 */
  sample: number;
  /** `ACCESS_LOG_CLIENT`: how the record names the client (`createObservedApp`'s `clientId`). @default 'hash' */
  clientId: ClientIdMode;
  /** `REQUEST_ID`: `on` (default) sends an `X-Request-Id` on every answer, whatever the log and metrics settings. */
  requestIds: boolean;
  /** `METRICS_PORT`: the port of `GET /metrics`; undefined when unset (no metrics kept). */
  metricsPort: number | undefined;
  /** `METRICS_HOST`: the interface of the metrics port, `127.0.0.1` unless set, whatever `HOST` is. */
  metricsHost: string;
  /** `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601), `API_SUCCESSOR_URL`; undefined when none is set. */
  deprecation: DeprecationOptions | undefined;
  /** `TRUST_PROXY`: which proxies may set `X-Forwarded-For` and `X-Request-Id`. @default false */
  trustProxy: TrustProxy;
}

/** The variables {@link readOperationsEnv} reads. */
export const OPERATIONS_ENV = [
  'ACCESS_LOG',
  'ACCESS_LOG_SAMPLE',
  'ACCESS_LOG_CLIENT',
  'REQUEST_ID',
  'METRICS_PORT',
  'METRICS_HOST',
  'API_DEPRECATED_AT',
  'API_SUNSET_AT',
  'API_SUCCESSOR_URL',
  'TRUST_PROXY',
] as const satisfies readonly ServerEnvName[];

/**
 * Reads and checks the operations variables: `ACCESS_LOG`, `ACCESS_LOG_SAMPLE`, `ACCESS_LOG_CLIENT`,
 * `REQUEST_ID`, `METRICS_PORT`, `METRICS_HOST`, `API_DEPRECATED_AT`, `API_SUNSET_AT`,
 * `API_SUCCESSOR_URL` and `TRUST_PROXY`. Empty counts as unset.
 * @param env - The environment (`process.env`, `Deno.env.toObject()`, `Bun.env`).
 * @returns The settings.
 * @throws EnvError naming the variable and what it takes, for a value it cannot read: a server
 *   should stop at start rather than run with a setting it did not understand.
 * @example
 * ```ts
 * const ops = readOperationsEnv(process.env);
 * const app = createCatalogueApp({ gateway: { trustProxy: ops.trustProxy }, deprecation: ops.deprecation });
 * ```
 */
export function readOperationsEnv(env: Readonly<Record<string, string | undefined>>): OperationsEnv {
  const read = readServerEnv(env, { only: OPERATIONS_ENV });
  const { API_DEPRECATED_AT: deprecatedAt, API_SUNSET_AT: sunsetAt, API_SUCCESSOR_URL: successorUrl } = read;
  return {
    accessLog: read.ACCESS_LOG,
    sample: read.ACCESS_LOG_SAMPLE,
    clientId: read.ACCESS_LOG_CLIENT,
    requestIds: read.REQUEST_ID,
    metricsPort: read.METRICS_PORT,
    metricsHost: read.METRICS_HOST,
    deprecation: deprecatedAt || sunsetAt || successorUrl ? { deprecatedAt, sunsetAt, successorUrl } : undefined,
    trustProxy: read.TRUST_PROXY,
  };
}
