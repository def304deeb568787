/**
 * What the parts of a refresher (`refresher.ts`) share: its collaborators and settings, made whole
 * from its options, and what changes while it runs.
 * @module
 */
import type { MediaKind } from '../catalogue/queries.js';
import type { CatalogueStore } from '../seam/types.js';
import type { PassSummary, RefreshEvent, RefresherLogger, RefresherOptions } from './refresher-types.js';
import { createSchedule, scaled, type Schedule } from './schedule.js';
import type { RecordWriter, RefreshState, TierBacklog, TierName, UpstreamSource } from './types.js';

/** The shortest discovery interval, whatever the time scale (ms). */
const MIN_DISCOVERY = 5_000;

/** What is kept in memory while leader, read again from the state's cursors at each new lease. */
export interface Loaded {
  known: Map<MediaKind, Set<number>>;
  hot: Map<MediaKind, Set<number>>;
  popular: Map<MediaKind, Set<number>>;
}

/** What changes while a refresher runs: what `status()` tells, and the pass to abort on `stop()`. */
export interface RefresherRun {
  leader: boolean;
  /** The cursors in memory, while leader. */
  loaded: Loaded | undefined;
  lastError: { message: string; at: number } | undefined;
  lastPass: PassSummary | undefined;
  backlog: Record<TierName, TierBacklog> | null;
  /** When the backlog was last measured. */
  backlogAt: number;
  shortfall: TierName[];
  /** Requests answered since start, by tier. */
  readonly fetched: Record<TierName, number>;
  /** Aborts the current pass. */
  passAbort: AbortController | undefined;
}

/** A refresher's collaborators and settings, with its options' defaults applied, and its run. */
export interface RefresherContext {
  readonly store: CatalogueStore;
  readonly source: UpstreamSource;
  readonly state: RefreshState;
  readonly writer: RecordWriter;
  /** The lease id. */
  readonly holder: string;
  readonly timeScale: number;
  readonly schedule: Schedule;
  readonly clock: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Gives the event loop a turn (a zero timer), so refresh work never holds it for long and the
   * API's requests are answered between records. Skipped under an injected `sleep` (a virtual
   * clock's), whose turns are its own.
   */
  readonly pause: () => Promise<void>;
  readonly leaseMs: number;
  /** How often the lease is renewed: every third of its life. */
  readonly renewMs: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  readonly logger: RefresherLogger | undefined;
  /** Tells the options' listener of an event (a listener that throws is logged, not fatal). */
  readonly emit: (event: RefreshEvent) => void;
  /** A tier's interval (or the discovery interval), scaled. */
  readonly interval: (tier: TierName | 'discovery') => number;
  readonly run: RefresherRun;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * A count of zero for every tier.
 * @returns A new record.
 */
export const zeroTiers = (): Record<TierName, number> => ({
  new: 0,
  hot: 0,
  stats: 0,
  popular: 0,
  full: 0,
});

/**
 * Applies the defaults of a refresher's options.
 * @param options - The refresher's options.
 * @returns Its context, not yet leader.
 * @throws {RangeError} When `timeScale` is not positive.
 */
export function createContext(options: RefresherOptions): RefresherContext {
  const holder = options.holder ?? crypto.randomUUID();
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError(`timeScale must be positive, got ${timeScale}`);
  const schedule: Schedule = createSchedule({
    intervals: options.intervals,
    parts: options.parts,
    hotParts: options.hotParts,
    popularTop: options.popularTop,
    kinds: options.kinds,
  });
  const leaseMs = options.leaseMs ?? 30_000;
  const logger = options.logger;
  return {
    store: options.store,
    source: options.source,
    state: options.state,
    writer: options.writer,
    holder,
    timeScale,
    schedule,
    clock: options.clock ?? Date.now,
    sleep: options.sleep ?? defaultSleep,
    pause: options.sleep ? () => Promise.resolve() : () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    leaseMs,
    renewMs: Math.max(1, Math.floor(leaseMs / 3)),
    concurrency: Math.max(1, options.concurrency ?? 2),
    logger,
    emit: (event) => {
      try {
        options.onEvent?.(event);
      } catch (error) {
        logger?.error('A refresh event listener threw', { error: String(error) });
      }
    },
    interval: (tier) =>
      tier === 'discovery'
        ? // Page 1 of six listings at an hour a second would take the whole budget: never more often than every few seconds.
          Math.max(Math.min(schedule.intervals.discovery, MIN_DISCOVERY), scaled(schedule.intervals.discovery, timeScale))
        : scaled(schedule.intervals[tier], timeScale),
    run: {
      leader: false,
      loaded: undefined,
      lastError: undefined,
      lastPass: undefined,
      backlog: null,
      backlogAt: Number.NEGATIVE_INFINITY,
      shortfall: [],
      fetched: zeroTiers(),
      passAbort: undefined,
    },
  };
}

/**
 * Notes what went wrong last, for `status()`.
 * @param ctx - The refresher's context.
 * @param message - What went wrong.
 */
export function noteError(ctx: RefresherContext, message: string): void {
  ctx.run.lastError = { message, at: ctx.clock() };
}
