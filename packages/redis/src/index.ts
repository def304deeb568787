/**
 * Redis back ends for catalogue-api's gateway: rate-limit counters, blocks, Server Keys and the
 * response caches, shared by every API instance behind a load balancer.
 *
 * Built on node-redis 6 (`redis`): Redis's own client, maintained by Redis, with automatic
 * reconnection and `disableOfflineQueue` (a command fails at once while disconnected instead of
 * waiting), which the fail-closed 503 needs. Only `sendCommand` is used, so any client with an
 * equivalent (Bun's `RedisClient.send`, Deno's clients) can be plugged in instead.
 * @module @catalogue-api/redis
 */
import type { FingerprintSecret } from '@catalogue-api/core';
import type { GatewayBackend } from '@catalogue-api/core/store';
import { createClient } from 'redis';
import type { SendCommand } from './scripts.js';
import { createRedisBlockStore, createRedisCacheStore, createRedisCounterStore, createRedisKeyStore, type KeySetState } from './stores.js';

export type { SendCommand } from './scripts.js';
export {
  CACHE_ENTRY_OVERHEAD,
  createRedisBlockStore,
  createRedisCacheStore,
  createRedisCounterStore,
  createRedisKeyStore,
  type KeySetState,
  type RedisCacheOptions,
  type RedisCounterOptions,
  type RedisKeyStore,
  type RedisKeyStoreOptions,
} from './stores.js';

/** Options of {@link createRedisGateway}. Give one of `url`, `client` or `sendCommand`. */
export interface RedisGatewayOptions {
  /** Redis URL; the gateway then owns its connection. @default 'redis://127.0.0.1:6379' */
  url?: string;
  /** A node-redis client you own (connected or connecting); the gateway never closes it. */
  client?: {
    /**
     * node-redis's `sendCommand`.
     * @param args - The command and its arguments.
     * @param options - node-redis command options.
     * @returns The reply.
     */
    sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  };
  /** Any other client: a function that sends one command. */
  sendCommand?: SendCommand;
  /** Prefix of every key, so that several deployments or test runs share one Redis. @default 'catalogue-api:' */
  prefix?: string;
  /** Longest wait per command; past it the gateway answers 503 with `Retry-After: 1`. @default 250 */
  timeoutMs?: number;
  /**
   * Bound of the two response caches in Redis together, in bytes (see `createRedisCacheStore`): a
   * number is shared three to one between the public and the Server Key cache; `{ public, server }`
   * sets each. Size Redis's `maxmemory` above it (docs/deploying.md).
   * @default 64 MiB (48 MiB public, 16 MiB Server Key)
   */
  cacheMaxBytes?: number | { public: number; server: number };
  /** Longest cache key (path and query, in characters); longer requests are answered but not cached. @default 2048 */
  cacheMaxKeyLength?: number;
  /**
   * The deployment's Server Keys, as the whole set: written when Redis first answers, replacing
   * whatever set the same secret named (so a key left out is revoked, for every instance), and
   * written again whenever Redis comes back without it (a restart without persistence). The
   * instance started last wins: an instance that finds another configuration's set in Redis stops
   * writing its own (see docs/deploying.md, "Server Keys"). Without it, the set is what `addKeys`
   * and `removeKeys` make it.
   */
  keys?: readonly string[];
  /** How often the managed `keys` are checked (and restored when missing), besides each reconnect of a connection opened from `url`. @default 1000 */
  keyCheckIntervalMs?: number;
  /** Told when the managed set is written, restored, superseded or found missing. */
  onKeySetChange?: (state: KeySetState) => void;
  /**
   * The deployment's secret for Server Key fingerprints (in Redis, in counters, in the access
   * log): give every instance the same. Without one, this process's random secret names a set of
   * its own, so instances share neither keys nor Server Key counters.
   * @default a random secret of this process
   */
  fingerprintSecret?: FingerprintSecret;
  /** Most clients tracked per minute and per day window (see `createRedisCounterStore`). @default 1_000_000 */
  counterMaxClients?: number;
}

/** The Redis back end, with key management and its connection. */
export interface RedisGateway extends GatewayBackend {
  /** Adds Server Keys (stored as fingerprints); with managed `keys`, until the set is next written. */
  addKeys(keys: readonly string[]): Promise<void>;
  /** Revokes Server Keys; with managed `keys`, until the set is next written. */
  removeKeys(keys: readonly string[]): Promise<void>;
  /**
   * A readiness check (`createHealthApp({ checks: { gateway: backend.ping } })`), within the
   * timeout: sends `PING`, or with managed `keys` checks the set (restoring it when it may).
   * @returns Resolves when Redis answered and holds the Server Keys; rejects otherwise.
   */
  ping(): Promise<void>;
  /** Resolves once the first connection is up and managed `keys` have been written once (tried once, for `client` and `sendCommand`). */
  ready: Promise<void>;
  /** Closes a connection opened from `url`; a no-op for a client you passed in. */
  close(): Promise<void>;
}

/**
 * Creates the Redis back end of the gateway. It returns at once: until Redis answers, requests get
 * 503 with `Retry-After: 1`, and they are served again as soon as Redis is back.
 * @param options - Connection, key prefix, timeout and cache bounds.
 * @returns The back end, for `createCatalogueApp({ gateway: { backend } })`.
 * @example
 * ```ts
 * import { createCatalogueApp } from '@catalogue-api/core';
 * import { createRedisGateway } from '@catalogue-api/redis';
 *
 * const backend = createRedisGateway({
 *   url: process.env.REDIS_URL,
 *   prefix: 'catalogue:',
 *   keys: ['s3cret'],
 *   fingerprintSecret: process.env.FINGERPRINT_SECRET,
 * });
 * const app = createCatalogueApp({ gateway: { backend } });
 * ```
 */
export function createRedisGateway(options: RedisGatewayOptions = {}): RedisGateway {
  const prefix = options.prefix ?? 'catalogue-api:';
  const timeoutMs = options.timeoutMs ?? 250;
  let send: SendCommand;
  let connected: Promise<void> = Promise.resolve();
  let closeConnection = async (): Promise<void> => undefined;
  // Bound before the connection exists, as its first 'ready' may come before `keys` is made.
  let keep = (): void => undefined;
  if (options.sendCommand) {
    send = options.sendCommand;
  } else if (options.client) {
    const client = options.client;
    send = (args) => client.sendCommand(args, { timeout: timeoutMs });
  } else {
    const connection = createOwnConnection(options.url ?? 'redis://127.0.0.1:6379', timeoutMs, () => keep());
    connected = connection.ready;
    send = connection.send;
    closeConnection = connection.close;
  }
  const managed = options.keys !== undefined;
  const keys = createRedisKeyStore(send, `${prefix}keys`, {
    keys: options.keys,
    fingerprintSecret: options.fingerprintSecret,
    onChange(state) {
      // Before keyed fingerprints the set was `<prefix>keys`, of plain SHA-256s: gone with the first write.
      if (state === 'written') send(['DEL', `${prefix}keys`]).catch(() => undefined);
      options.onKeySetChange?.(state);
    },
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  let ready = connected;
  if (managed) {
    keep = () => void keys.keep().catch(() => undefined);
    ready = connected.then(() => keys.keep()).then(
      () => undefined,
      () => undefined,
    );
    timer = setInterval(keep, options.keyCheckIntervalMs ?? 1_000);
    // Never what keeps a process alive (Node and Bun; Deno's timers have no `unref`).
    (timer as { unref?: () => void }).unref?.();
  }
  const total = options.cacheMaxBytes ?? 64 * 1024 * 1024;
  const bytes = typeof total === 'number' ? { public: Math.floor((total * 3) / 4), server: Math.floor(total / 4) } : total;
  const maxKeyLength = options.cacheMaxKeyLength;
  return {
    counters: createRedisCounterStore(send, prefix, { maxClients: options.counterMaxClients }),
    blocks: createRedisBlockStore(send, prefix),
    keys,
    // Each cache is one hash tag, so that its Lua trim touches one Redis Cluster slot.
    publicCache: createRedisCacheStore(send, `${prefix}{cache:public}`, { maxBytes: bytes.public, maxKeyLength }),
    serverCache: createRedisCacheStore(send, `${prefix}{cache:server}`, { maxBytes: bytes.server, maxKeyLength }),
    timeoutMs,
    async ping() {
      if (!managed) return void (await send(['PING']));
      if ((await keys.keep()) === 'missing') {
        throw new Error('The Server Key set is missing from Redis; the instances started with the newer SERVER_KEYS restore it');
      }
    },
    addKeys: keys.add,
    removeKeys: keys.remove,
    ready,
    async close() {
      clearInterval(timer);
      await closeConnection();
    },
  };
}

/**
 * A node-redis connection that heals itself. node-redis reconnects when the socket closes, but a
 * half-open socket (a stalled host, a partition that drops packets) never closes: every command
 * then waits behind replies that will not come, and a reconnect whose handshake was lost never
 * becomes ready. So when commands have failed without a single success for a while, the
 * connection is replaced; service resumes by itself once Redis is reachable again.
 */
function createOwnConnection(url: string, timeoutMs: number, onReady: () => void): { send: SendCommand; ready: Promise<void>; close(): Promise<void> } {
  let closed = false;
  const patienceMs = Math.max(1_000, 4 * timeoutMs);
  // The later of the last success and the last replacement: failures are judged from there.
  let lastGood = Date.now();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const open = () => {
    const client = createClient({
      url,
      // Fail at once while disconnected: a queued command would only time out later (fail-closed 503).
      disableOfflineQueue: true,
      socket: { connectTimeout: Math.max(timeoutMs, 1_000), reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 1_000) },
    });
    // Connection errors surface as 503s on requests; an unhandled 'error' event would end the process.
    client.on('error', () => undefined);
    client.once('ready', () => markReady());
    // Each (re)connect: Redis may have come back empty.
    client.on('ready', onReady);
    client.connect().catch(() => undefined);
    return client;
  };
  let client = open();
  const failed = () => {
    if (closed || Date.now() - lastGood <= patienceMs) return;
    lastGood = Date.now();
    const stale = client;
    client = open();
    stale.destroy();
  };
  const send: SendCommand = (args) =>
    new Promise((resolve, reject) => {
      // node-redis's own `timeout` stops counting once a command is written, so a command on a
      // half-open socket would wait forever: keep a deadline of our own.
      const timer = setTimeout(() => {
        failed();
        reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      client.sendCommand(args, { timeout: timeoutMs }).then(
        (reply) => {
          clearTimeout(timer);
          lastGood = Date.now();
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          failed();
          reject(error);
        },
      );
    });
  return {
    send,
    ready,
    close: async () => {
      closed = true;
      client.destroy();
    },
  };
}
