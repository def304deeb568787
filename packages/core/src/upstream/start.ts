/**
 * A refresher as the example servers and `catalogue-api sync` run it, from their environment
 * variables (`UPSTREAM_URL`, `UPSTREAM_MAX_PER_SECOND`… in core's `SERVER_ENV`): the Jikan source
 * under a budget over the state's ledger, the record writer, the refresher, and around them what
 * an operator watches: the upstream as a service of the status API (down while its circuit is
 * open), the refresher's metrics, and, for a state in memory, its snapshot saved to a file the
 * host reads and writes.
 *
 * Runtime-agnostic: the host gives the state (PostgreSQL, or none for memory), the file's
 * reading and writing, and the metrics registry.
 * @module
 */
import { cacheControl } from '../edge/http.js';
import type { MetricsRegistry } from '../operations/metrics.js';
import type { CatalogueStore } from '../seam/types.js';
import type { ServerEnv, ServerEnvName } from '../operations/server-env.js';
import type { ServiceConfig } from '../status/types.js';
import { createBudget } from './budget.js';
import { createJikanSource } from './jikan-source.js';
import { createMemoryRefreshState, type MemoryRefreshState } from './memory-state.js';
import { createRefresherMetrics } from './refresh-metrics.js';
import { createRefresher, type Refresher, type RefresherLogger, type RefreshEvent } from './refresher.js';
import type { RefreshState, SourceHealth, TierName, UpstreamLimits, UpstreamSource } from './types.js';
import { createRecordWriter } from './writer.js';

/** The variables of core's `SERVER_ENV` a refresher reads; add them to `readServerEnv`'s `only`. */
export const UPSTREAM_ENV = [
  'UPSTREAM_URL',
  'UPSTREAM_MAX_PER_SECOND',
  'UPSTREAM_MAX_PER_MINUTE',
  'UPSTREAM_TIME_SCALE',
  'UPSTREAM_STATE_FILE',
  'REFRESH_DISCOVERY_MINUTES',
  'REFRESH_NEW_MINUTES',
  'REFRESH_HOT_HOURS',
  'REFRESH_STATS_HOURS',
  'REFRESH_POPULAR_DAYS',
  'REFRESH_FULL_DAYS',
] as const satisfies readonly ServerEnvName[];

/** The refresher's variables, as `readServerEnv` returns them. */
export type UpstreamEnv = Pick<ServerEnv, (typeof UPSTREAM_ENV)[number]>;

/** An upstream's settings, from {@link readUpstreamSettings}. */
export interface UpstreamSettings {
  /** The Jikan v4-compatible base URL. */
  baseUrl: string;
  /** The budget, real time. */
  limits: UpstreamLimits;
  /** Divides every refresh interval (not the budget, not the lease). */
  timeScale: number;
  /** The intervals set, in ms before scaling; the others keep the schedule's defaults. */
  intervals: Partial<Record<TierName | 'discovery', number>>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The upstream's settings from its variables, or `undefined` when `UPSTREAM_URL` is not set (no refresher).
 * @param env - The variables, read and checked by `readServerEnv`.
 * @returns The settings.
 */
export function readUpstreamSettings(env: UpstreamEnv): UpstreamSettings | undefined {
  if (!env.UPSTREAM_URL) return undefined;
  const intervals: Partial<Record<TierName | 'discovery', number>> = {};
  const set = (name: TierName | 'discovery', value: number | undefined, unit: number) => {
    if (value !== undefined) intervals[name] = Math.round(value * unit);
  };
  set('discovery', env.REFRESH_DISCOVERY_MINUTES, MINUTE_MS);
  set('new', env.REFRESH_NEW_MINUTES, MINUTE_MS);
  set('hot', env.REFRESH_HOT_HOURS, HOUR_MS);
  set('stats', env.REFRESH_STATS_HOURS, HOUR_MS);
  set('popular', env.REFRESH_POPULAR_DAYS, DAY_MS);
  set('full', env.REFRESH_FULL_DAYS, DAY_MS);
  return {
    baseUrl: env.UPSTREAM_URL,
    limits: { perSecond: env.UPSTREAM_MAX_PER_SECOND, perMinute: env.UPSTREAM_MAX_PER_MINUTE },
    timeScale: env.UPSTREAM_TIME_SCALE,
    intervals,
  };
}

/** Where a state in memory is kept between runs: the host reads and writes the file. */
export interface SnapshotFile {
  /** The file's text, or `undefined` when there is none yet. */
  read(): Promise<string | undefined>;
  /** Replaces the file's text (write a temporary file and rename it, so that a crash never leaves half a file). */
  write(text: string): Promise<void>;
}

/** Options of {@link createRefresherFromEnv}. */
export interface RefresherFromEnvOptions {
  /** The variables, read and checked by `readServerEnv`. */
  env: UpstreamEnv;
  /** The store served and written (`createPostgresStore`, `createMemoryStore`). */
  store: CatalogueStore;
  /**
   * A state shared by every instance on one database (`createPostgresRefreshState`). Without it,
   * a state in memory: one process refreshes, and its state is saved to `snapshots` when given.
   */
  state?: RefreshState;
  /** Where a state in memory is saved (`UPSTREAM_STATE_FILE`); unused with `state`. */
  snapshots?: SnapshotFile;
  /** How often a state in memory is saved, in ms (and once more at `stop()`). @default 60000 */
  saveEveryMs?: number;
  /** Declares the refresher's metrics there (`createCatalogueMetrics().registry`). */
  metrics?: MetricsRegistry;
  /** Where the refresher logs. @default console */
  logger?: RefresherLogger;
  /** Told of every refresher event, after the metrics. */
  onEvent?: (event: RefreshEvent) => void;
  /** The `fetch` the source sends with. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** The `User-Agent` the source sends. @default the library's */
  userAgent?: string;
  /** This instance's lease id. @default a random UUID */
  holder?: string;
  /** Real time, ms since the epoch. @default Date.now */
  clock?: () => number;
}

/** A refresher built from the environment, not yet started. */
export interface UpstreamRefresh {
  readonly refresher: Refresher;
  readonly source: UpstreamSource;
  readonly state: RefreshState;
  readonly settings: UpstreamSettings;
  /**
   * The upstream as a monitored service of the status API. Its check is answered in-process by
   * {@link UpstreamRefresh.probe} (route `service.check.url` to it in the checker's `fetch`): the
   * status checker never spends the upstream's budget.
   */
  readonly service: ServiceConfig;
  /**
   * Answers the service's check from the circuit of the instance that refreshes (shared through
   * the state): 503 while the circuit is open (down), 429 while a `Retry-After` pauses the source
   * (degraded), else 200; the body says which, as JSON.
   */
  probe(request?: Request): Promise<Response>;
  /** Starts refreshing in the background: never waits, so a server answers from its first second. */
  start(): void;
  /** Stops the refresher (the request in flight abandoned, the lease given up) and saves a state in memory. */
  stop(): Promise<void>;
}

/** The status API's id of the upstream service. */
export const UPSTREAM_SERVICE_ID = 'upstream';

/**
 * Where the upstream service's check goes: answered in-process by `probe`, never fetched (a URL no
 * `fetch` can send, so that a checker without the probe sees a failure rather than spend the budget).
 */
export const UPSTREAM_CHECK_URL = 'urn:catalogue-api:upstream-circuit';

/** The cursor the leader keeps its source's health in, for the other instances' status checks. */
const HEALTH_CURSOR = 'upstream:health';
/** How often the leader writes it. */
const HEALTH_EVERY_MS = 15_000;
/** A health older than this is the last word of a leader gone: the local source's is used. */
const HEALTH_FRESH_MS = 4 * HEALTH_EVERY_MS;

interface PublishedHealth extends SourceHealth {
  readonly at: number;
}

/**
 * Builds a refresher from the environment, or `undefined` when `UPSTREAM_URL` is not set. With a
 * `state` every instance on the database shares the lease, the work and the budget; without one,
 * the state is kept in memory and, with `snapshots`, read back at start and saved every
 * `saveEveryMs` and at `stop()`.
 * @param options - The variables, the store, the state or snapshot file, metrics, logger.
 * @returns The refresher and the status service, not yet started.
 * @throws RangeError when a setting is refused by the budget or the schedule.
 * @example
 * ```ts
 * const env = readServerEnv(process.env);
 * const upstream = await createRefresherFromEnv({ env, store, state });
 * // … once the server listens:
 * upstream?.start();
 * // on shutdown:
 * await upstream?.stop();
 * ```
 */
export async function createRefresherFromEnv(options: RefresherFromEnvOptions): Promise<UpstreamRefresh | undefined> {
  const settings = readUpstreamSettings(options.env);
  if (!settings) return undefined;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? console;
  let memory: MemoryRefreshState | undefined;
  let state = options.state;
  if (!state) {
    memory = await restore(options.snapshots, logger);
    state = memory;
  }
  const shared = options.state !== undefined;
  const budget = createBudget(state, settings.limits, { clock });
  const source = createJikanSource({ baseUrl: settings.baseUrl, budget, limits: settings.limits, userAgent: options.userAgent, fetch: options.fetch, clock });
  const writer = createRecordWriter(options.store);
  let metrics: ReturnType<typeof createRefresherMetrics> | undefined;
  const refresher = createRefresher({
    store: options.store,
    source,
    state,
    writer,
    holder: options.holder,
    timeScale: settings.timeScale,
    intervals: settings.intervals,
    clock,
    logger,
    onEvent: (event) => {
      metrics?.onEvent(event);
      options.onEvent?.(event);
    },
  });
  const kept = state;
  if (options.metrics) metrics = createRefresherMetrics({ registry: options.metrics, refresher, state: kept, source, limits: settings.limits, clock });

  const save = async () => {
    if (!memory || !options.snapshots) return;
    try {
      await options.snapshots.write(JSON.stringify(memory.snapshot()));
    } catch (error) {
      logger.error('The refresher state could not be saved (UPSTREAM_STATE_FILE)', { error: (error as Error).message });
    }
  };
  // The leader tells the others how its source is doing: only it sends requests, so only its
  // circuit knows; any instance may run the status check.
  const publish = async () => {
    if (!shared || !refresher.leader) return;
    try {
      const published: PublishedHealth = { ...source.health(), at: clock() };
      await kept.setCursor(HEALTH_CURSOR, JSON.stringify(published));
    } catch {
      // The state is unreachable: the refresher logs that; the next round tries again.
    }
  };
  const health = async (): Promise<SourceHealth> => {
    if (!shared || refresher.leader) return source.health();
    try {
      const text = await kept.getCursor(HEALTH_CURSOR);
      const published = text === undefined ? undefined : (JSON.parse(text) as PublishedHealth);
      if (published && published.at >= clock() - HEALTH_FRESH_MS) return published;
    } catch {
      // Unreadable: this instance's own view below.
    }
    return source.health();
  };

  let timers: Array<ReturnType<typeof setInterval>> = [];
  let started = false;
  const origin = new URL(settings.baseUrl).origin;
  return {
    refresher,
    source,
    state: kept,
    settings,
    service: {
      id: UPSTREAM_SERVICE_ID,
      name: `Upstream (${source.name})`,
      homepageUrl: origin,
      logoUrl: '',
      check: { url: UPSTREAM_CHECK_URL, degradedStatuses: [429], timeoutMs: 10_000 },
    },
    async probe() {
      const now = clock();
      const { circuit, until, lastError } = await health();
      let pausedUntil = 0;
      try {
        pausedUntil = (await kept.usage(now)).pausedUntil;
      } catch {
        // The ledger is unreachable: the circuit alone says.
      }
      const status = circuit === 'open' ? 503 : pausedUntil > now ? 429 : 200;
      const body = { source: source.name, circuit, paused_until: pausedUntil > now ? new Date(pausedUntil).toISOString() : null, until: until ?? null, last_error: lastError ?? null };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': cacheControl('no-store') } });
    },
    start() {
      if (started) return;
      started = true;
      refresher.start();
      metrics?.start();
      timers = [setInterval(() => void publish(), HEALTH_EVERY_MS)];
      if (memory && options.snapshots) timers.push(setInterval(() => void save(), options.saveEveryMs ?? 60_000));
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      timers = [];
      metrics?.stop();
      if (started) await refresher.stop();
      started = false;
      await save();
    },
  };
}

/** A state in memory from its snapshot file, or a new one when there is none or it cannot be read. */
async function restore(snapshots: SnapshotFile | undefined, logger: RefresherLogger): Promise<MemoryRefreshState> {
  let text: string | undefined;
  try {
    text = await snapshots?.read();
  } catch (error) {
    logger.warn('The refresher state file could not be read; starting afresh', { error: (error as Error).message });
  }
  if (text === undefined) return createMemoryRefreshState();
  try {
    return createMemoryRefreshState(JSON.parse(text));
  } catch (error) {
    // Resumable work, not data: the catalogue is intact, and the schedule is rebuilt from it.
    logger.warn('The refresher state file holds no state this version reads; starting afresh', { error: (error as Error).message });
    return createMemoryRefreshState();
  }
}
