/**
 * The example's gateway settings from the environment: Server Keys, restricted routes, Redis,
 * rate limits and trusted proxies. `server.ts` passes `gateway.options` to `createCatalogueApp`.
 *
 * Environment:
 * - `SERVER_KEYS`: Server Keys, comma-separated (e.g. `key-one,key-two`): the whole set, so a key
 *   left out is refused. With `REDIS_URL` they replace the Redis key set at start (for every
 *   instance: the instance started last decides) and are written again whenever Redis comes back
 *   without them; `/readyz` answers 503 while they are missing.
 * - `FINGERPRINT_SECRET`: the deployment's secret for the keyed fingerprints of Server Keys (in
 *   Redis, counters and the access log) and the access log's client hashes; the same on every
 *   instance. Unset: a random secret of the process (with `REDIS_URL`, a warning: instances then
 *   keep separate key sets and Server Key limits).
 * - `RESTRICTED_ROUTES`: path patterns that need a Server Key, comma-separated; `:name` matches one
 *   segment and a final `*` the rest (e.g. `/v1/top/*,/v1/anime/:id/full`).
 * - `REDIS_URL`: keep limits, blocks, keys and the response cache in this Redis, shared by every
 *   instance (e.g. `redis://127.0.0.1:6379`); `REDIS_PREFIX` names its keys (default `catalogue-api:`).
 * - `RATE_LIMIT=off`: no rate limits and so no blocks. For benchmarks only; limits are on by default.
 * - `CACHE=off`: no response cache (ETags and 304s remain).
 * - `TRUST_PROXY`: which proxies may set `X-Forwarded-For`: a number of hops (`1` behind one load
 *   balancer), `true` (every hop), or addresses and CIDR ranges, comma-separated (`10.0.0.0/8,::1`).
 *   Unset: none, the socket address is the client.
 * @module
 */
import { readServerEnv, type GatewayOptions, type LineLogger } from '@catalogue-api/core';
import { createRedisGateway, type KeySetState } from '@catalogue-api/redis';

/** The gateway options and what must be closed at shutdown. */
export interface ExampleGateway {
  options: GatewayOptions;
  /** Resolves when the gateway back end answers and holds the Server Keys (at once without Redis), rejects when it does not. */
  ping(): Promise<void>;
  /**
   * Waits up to `ms` for the back end's first answer; when none comes, says plainly on stderr that
   * the API answers 503 until it is back, and again once it is.
   * @param ms - How long to wait before warning.
   */
  announce(ms?: number): Promise<void>;
  /** Closes the Redis connection, when there is one. */
  close(): Promise<void>;
}

/** The variables this file reads, checked by core's `readServerEnv` as every example's are. */
const GATEWAY_ENV = ['SERVER_KEYS', 'RESTRICTED_ROUTES', 'RATE_LIMIT', 'CACHE', 'TRUST_PROXY', 'REDIS_URL', 'REDIS_PREFIX', 'FINGERPRINT_SECRET'] as const;

// What an operator is told when the key set in Redis changes under this instance ('written' at
// start and 'current' when it stays so need no line).
const KEY_SET_LINES: Partial<Record<KeySetState, string>> = {
  restored: 'Server Keys were missing from Redis at $REDIS (restarted empty?); written again from SERVER_KEYS.',
  superseded: 'Another instance wrote other SERVER_KEYS to Redis at $REDIS; this instance now accepts that set (the instance started last decides).',
  missing: 'Server Keys are missing from Redis at $REDIS; this instance waits for an instance with the newer SERVER_KEYS to write them (/readyz: 503).',
  current: 'The Server Keys in Redis at $REDIS are this instance\'s SERVER_KEYS again.',
};

/**
 * A connection URL without its password, for messages.
 * @param url - e.g. `redis://:secret@10.0.0.5:6379`.
 * @returns e.g. `redis://:***@10.0.0.5:6379`.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/**
 * Builds the example's gateway from the environment.
 * @param env - The environment (`process.env`).
 * @param log - Where its lines go (pino's JSON, see `server.ts`). @default plain lines on stderr
 * @returns The options for `createCatalogueApp({ gateway })` and a `close` for shutdown.
 * @throws EnvError when one of its variables holds something it cannot use (`RATE_LIMIT=maybe`,
 *   a `RESTRICTED_ROUTES` entry that matches no route, a `REDIS_URL` that is not a Redis URL).
 * @example
 * ```ts
 * const gateway = createExampleGateway(process.env);
 * const app = createCatalogueApp({ store, gateway: gateway.options });
 * ```
 */
export function createExampleGateway(
  variables: Record<string, string | undefined>,
  log: Pick<LineLogger, 'info' | 'warn'> = { info: (line) => console.error(line), warn: (line) => console.error(line) },
): ExampleGateway {
  // Warnings (restricted routes without keys) are the server's to print, once, when it reads every variable.
  const env = readServerEnv(variables, { only: GATEWAY_ENV, warn: () => undefined });
  const keys = env.SERVER_KEYS;
  const fingerprintSecret = env.FINGERPRINT_SECRET;
  const options: GatewayOptions = {
    restrictedRoutes: env.RESTRICTED_ROUTES,
    trustProxy: env.TRUST_PROXY,
  };
  if (!env.RATE_LIMIT) options.rateLimit = false;
  if (!env.CACHE) options.cache = false;
  if (!env.REDIS_URL) {
    options.keys = keys;
    options.fingerprintSecret = fingerprintSecret;
    return { options, ping: async () => undefined, announce: async () => undefined, close: async () => undefined };
  }
  if (fingerprintSecret === undefined) {
    log.warn(
      'FINGERPRINT_SECRET is not set: Server Keys are fingerprinted with a random secret of this process, so instances ' +
        'sharing this Redis keep separate key sets and Server Key limits; set the same FINGERPRINT_SECRET on every instance.',
    );
  }
  const where = redactUrl(env.REDIS_URL);
  const backend = createRedisGateway({
    url: env.REDIS_URL,
    prefix: env.REDIS_PREFIX,
    keys,
    fingerprintSecret,
    onKeySetChange: (state) => {
      const line = KEY_SET_LINES[state];
      if (line) log.warn(line.replace('$REDIS', () => where));
    },
  });
  options.backend = backend;
  return {
    options,
    ping: backend.ping,
    async announce(ms = 2_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      const up = await Promise.race([backend.ready.then(() => true as const), late]);
      clearTimeout(timer);
      if (up) return;
      // Fail closed stays: requests get 503 with Retry-After until Redis answers.
      log.warn(
        `Gateway back end unreachable: no answer from Redis at ${where} within ${ms} ms. ` +
          'The API answers 503 (Retry-After: 1) to every /v1 request until it is back; check REDIS_URL.',
      );
      void backend.ready.then(() => log.info(`Gateway back end reachable: Redis at ${where} answers; the API serves requests again.`));
    },
    close: () => backend.close(),
  };
}
