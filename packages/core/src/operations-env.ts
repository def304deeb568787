/**
 * `readOperationsEnv`: the operations settings of a server from its environment variables, read
 * and checked once here so that the example servers on Node, Bun and Deno take the same variables
 * with the same words (see the README's "Environment variables").
 * @module
 */
import { parseIsoDate, type DeprecationOptions } from './deprecation.js';
import type { TrustProxy } from './gateway/client-address.js';
import type { ClientIdMode } from './observe.js';

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

/**
 * Reads `TRUST_PROXY`: a hop count (`1`), `true`, or addresses and CIDR ranges, comma-separated.
 * @param value - The variable's value.
 * @returns What the gateway's `trustProxy` option takes; `false` when unset.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function toDate(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (parseIsoDate(value) === undefined) throw new Error(`${name} must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "${value}"`);
  return value;
}

/**
 * Reads and checks the operations variables: `ACCESS_LOG`, `ACCESS_LOG_SAMPLE`, `ACCESS_LOG_CLIENT`,
 * `REQUEST_ID`, `METRICS_PORT`, `METRICS_HOST`, `API_DEPRECATED_AT`, `API_SUNSET_AT`,
 * `API_SUCCESSOR_URL` and `TRUST_PROXY`. Empty counts as unset.
 * @param env - The environment (`process.env`, `Deno.env.toObject()`, `Bun.env`).
 * @returns The settings.
 * @throws Error naming the variable and what it takes, for a value it cannot read: a server
 *   should stop at start rather than run with a setting it did not understand.
 * @example
 * ```ts
 * const ops = readOperationsEnv(process.env);
 * const app = createCatalogueApp({ gateway: { trustProxy: ops.trustProxy }, deprecation: ops.deprecation });
 * ```
 */
export function readOperationsEnv(env: Readonly<Record<string, string | undefined>>): OperationsEnv {
  const accessLog = env.ACCESS_LOG || 'json';
  if (accessLog !== 'json' && accessLog !== 'off') throw new Error(`ACCESS_LOG must be "json" or "off", not "${accessLog}"`);
  const sample = env.ACCESS_LOG_SAMPLE ? Number(env.ACCESS_LOG_SAMPLE) : 1;
  if (!(sample >= 0 && sample <= 1)) throw new Error(`ACCESS_LOG_SAMPLE must be a number from 0 to 1, not "${env.ACCESS_LOG_SAMPLE}"`);
  const clientId = env.ACCESS_LOG_CLIENT || 'hash';
  if (clientId !== 'hash' && clientId !== 'address' && clientId !== 'none') {
    throw new Error(`ACCESS_LOG_CLIENT must be "hash", "address" or "none", not "${clientId}"`);
  }
  const requestIds = env.REQUEST_ID || 'on';
  if (requestIds !== 'on' && requestIds !== 'off') throw new Error(`REQUEST_ID must be "on" or "off", not "${requestIds}"`);
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined;
  if (metricsPort !== undefined && !(Number.isInteger(metricsPort) && metricsPort >= 0 && metricsPort < 65536)) {
    throw new Error(`METRICS_PORT must be a port number, not "${env.METRICS_PORT}"`);
  }
  const deprecatedAt = toDate('API_DEPRECATED_AT', env.API_DEPRECATED_AT);
  const sunsetAt = toDate('API_SUNSET_AT', env.API_SUNSET_AT);
  const successorUrl = env.API_SUCCESSOR_URL || undefined;
  return {
    accessLog,
    sample,
    clientId,
    requestIds: requestIds === 'on',
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    deprecation: deprecatedAt || sunsetAt || successorUrl ? { deprecatedAt, sunsetAt, successorUrl } : undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}
