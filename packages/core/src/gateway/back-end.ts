/**
 * The back-end interfaces of the gateway: where rate-limit counters, blocks, Server Keys and cached
 * responses live. The memory back end is the default; `@catalogue-api/redis` shares them across instances.
 *
 * Every method may answer synchronously (the memory back end does, so it costs no promise or timer)
 * or with a promise; the gateway bounds promises with a timeout and turns a failure into 503.
 * @module
 */

/** One fixed window of a tier's rate limit, as the counter store sees it. */
export interface CounterWindow {
  /** Store key of this window's counter; unique per tier, client and window start. */
  key: string;
  /** Requests allowed in the window. */
  limit: number;
  /** When the window ends (ms since the epoch, on the gateway's clock). */
  resetAt: number;
  /**
   * The window's length in milliseconds, when the windows follow one another back to back (as the
   * gateway's do). A store may use it to forget a longer window that the shorter ones keep from
   * ever filling before it ends.
   */
  spanMs?: number;
}

/** What a counter store answers for one request. */
export interface CounterResult {
  /** Whether every window had room; when true, every counter was incremented. */
  allowed: boolean;
  /**
   * The count of each window, in the order given: after the increment when allowed, and the
   * unchanged count when refused (a refused request consumes no window).
   */
  counts: number[];
}

/**
 * Counts requests in fixed windows. `hit` must be atomic over all the windows it is given: either
 * every window has room and all are incremented, or none is.
 */
export interface CounterStore {
  /**
   * Counts one request against all windows of a tier, atomically.
   * @param windows - The tier's windows for this client, shortest first.
   * @param now - The gateway's clock (ms since the epoch).
   * @returns Whether the request is allowed, and the counts.
   */
  hit(windows: readonly CounterWindow[], now: number): CounterResult | Promise<CounterResult>;
}

/** When a client is blocked after ignoring rate limits (docs/specification.md: Blocks). */
export interface BlockPolicy {
  /** Rate-limited responses that trigger a block. @default 30 */
  threshold: number;
  /** …within this many milliseconds. @default 60_000 */
  windowMs: number;
  /** Length of a first block. @default 600_000 (10 minutes) */
  durationMs: number;
  /** Longest block; each repeat doubles the previous length up to this. @default 86_400_000 (24 hours) */
  maxDurationMs: number;
  /** A block that starts within this long after the previous one ended is a repeat. @default 86_400_000 */
  repeatWithinMs: number;
}

/** Temporary blocks of public-tier clients, with the rejections that lead to them. */
export interface BlockStore {
  /**
   * @param id - The client id (address or /64 prefix).
   * @param now - The gateway's clock.
   * @returns When the client's block ends (ms since the epoch), or `null` when it is not blocked.
   */
  blockedUntil(id: string, now: number): number | null | Promise<number | null>;
  /**
   * Records one rate-limited response to the client and, when that makes `threshold` within
   * `windowMs`, starts a block (doubling a repeat's length), atomically. While a block is active a
   * rejection is ignored: it neither extends the block nor starts another.
   * @param id - The client id.
   * @param now - The gateway's clock.
   * @param policy - The block policy.
   * @returns When the block that this rejection started ends, or `null` when none started.
   */
  recordRejection(id: string, now: number, policy: BlockPolicy): number | null | Promise<number | null>;
}

/** Where Server Keys are looked up. Implementations must not log keys or leak them through timing. */
export interface KeyStore {
  /**
   * @param key - The `X-Server-Key` value as sent.
   * @returns A stable, non-secret id for the key (used to name its counters), or `null` when the
   *   key is not recognized.
   */
  verify(key: string): string | null | Promise<string | null>;
}

/** A stored 2xx response, with what HTTP caching needs to describe it. */
export interface CachedResponse {
  /** The HTTP status (2xx; only those are cached). */
  status: number;
  /** The route's headers (content type and the like); the gateway adds the caching ones. */
  headers: Record<string, string>;
  /** The body text. */
  body: string;
  /** Strong entity tag over the body, quoted. */
  etag: string;
  /** When it was stored (ms since the epoch, gateway clock). */
  storedAt: number;
  /** When it stops being served. */
  expiresAt: number;
  /**
   * When what it says last changed, for `Last-Modified` (ms since the epoch): its `storedAt`, or
   * that of the entry it replaced when the body is the same. @default storedAt
   */
  lastModified?: number | undefined;
  /** The store's change-feed position it was made at (see `CatalogueStore.changes`); absent without a feed. */
  seq?: number | undefined;
  /** The id of that feed, when it has one. */
  feed?: string | undefined;
  /** What it depends on (dependency tokens); absent: any change after `seq` makes it stale. */
  deps?: readonly string[] | undefined;
}

/** A response cache. The gateway keeps two: public and Server Key. */
export interface CacheStore {
  /**
   * @param key - Request key (path and query).
   * @param now - The gateway's clock; entries with `expiresAt <= now` are misses.
   * @returns The entry, or `undefined` on a miss.
   */
  get(key: string, now: number): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  /**
   * Stores an entry until its `expiresAt`.
   * @param key - Request key.
   * @param entry - The response.
   */
  set(key: string, entry: CachedResponse): void | Promise<void>;
}

/** Everything the gateway keeps outside the request: one object so that a deployment swaps it whole. */
export interface GatewayBackend {
  /** The rate-limit counters. */
  counters: CounterStore;
  /** The temporary blocks and the refusals that lead to them. */
  blocks: BlockStore;
  /** Server Keys; when absent, the gateway's `keys` option (or no keys) applies. */
  keys?: KeyStore | undefined;
  /** The public response cache. */
  publicCache: CacheStore;
  /** The separate Server Key response cache. */
  serverCache: CacheStore;
  /** The timeout this back end suggests for each call, in milliseconds. */
  timeoutMs?: number | undefined;
}
