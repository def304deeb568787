/**
 * The refresher: keeps a catalogue current from a Jikan v4-compatible upstream in the schedule's
 * tiers (`schedule.ts`), within the source's budget, writing only through a `RecordWriter`.
 *
 * - **Work** is a set of tasks in the `RefreshState`: one per part of each entry, one per page of
 *   each listing read. The tasks are seeded from the ids the store holds and from what the listings
 *   and `changedIds` reveal; each task completed is rescheduled at once, in the state, so a killed
 *   refresher resumes with nothing lost and nothing done twice needlessly.
 * - **Tiers**: due tasks are taken by tier priority (`new`, `hot`, `stats`, `popular`, `full`), a
 *   few at a time (never more than it can send), and every request takes a slot of the source's
 *   budget. When the budget is short the lowest tier waits first; due work older than its tier's
 *   interval is a shortfall, logged and sent as an event.
 * - **Safe writes**: the writer validates and writes nothing invalid; a failure backs the task off
 *   exponentially; a 404 deletes an entry only when its record answers 404 again at least a day
 *   (scaled) after the first; an entry missing from a listing is never deleted for that.
 * - **One leader**: work is done only under the state's lease (real time, renewed every third of
 *   its life); the moment it is lost, the request in flight is abandoned and nothing more is written.
 *
 * Its parts: `refresher-context.ts` (settings and run state), `refresher-lease.ts`,
 * `refresher-pass.ts` (a pass and the loop), `refresher-work.ts` (one task), `refresher-seed.ts`
 * (the known ids and the tasks seeded from them) and `refresher-tasks.ts` (task shapes and tiers).
 * @module
 */
import type { CatalogueStore } from '../seam/types.js';
import type { MediaKind } from '../catalogue/queries.js';
import { createContext } from './refresher-context.js';
import { giveUpLease } from './refresher-lease.js';
import { loop, pass, type SerialPass } from './refresher-pass.js';
import type { EntryPart, RecordWriter, RefreshState, SourceHealth, TierBacklog, TierName, UpstreamSource } from './types.js';

/** A logger with levels. */
export interface RefresherLogger {
  /** What it did (a lease taken, ids discovered, an entry deleted). */
  info(message: string, fields?: object): void;
  /** What went wrong upstream or fell behind (a failed request, an invalid body, a shortfall). */
  warn(message: string, fields?: object): void;
  /** What went wrong here (the state unreachable, a pass that threw). */
  error(message: string, fields?: object): void;
}

/** What the refresher tells of its work, for metrics and a progress bar. */
export type RefreshEvent =
  /** The upstream answered a task's request (`outcome` as the source gave it). */
  | {
      readonly type: 'fetched';
      readonly tier: TierName;
      readonly task: string;
      readonly outcome: 'ok' | 'unchanged' | 'not-found' | 'failed';
    }
  /** A body changed records. */
  | {
      readonly type: 'written';
      readonly tier: TierName;
      readonly task: string;
      readonly records: number;
    }
  /** A body (or a 304) changed nothing. */
  | {
      readonly type: 'unchanged';
      readonly tier: TierName;
      readonly task: string;
    }
  /** A body was rejected (nothing written). */
  | {
      readonly type: 'invalid';
      readonly tier: TierName;
      readonly task: string;
      readonly reason: string;
    }
  /** A request failed (nothing written; the task backs off). */
  | {
      readonly type: 'failed';
      readonly tier: TierName;
      readonly task: string;
      readonly reason: string;
      readonly failures: number;
    }
  /** The upstream answered 404; `since` is the first 404 of the run. */
  | {
      readonly type: 'not-found';
      readonly tier: TierName;
      readonly task: string;
      readonly since: number;
    }
  /** An entry was deleted after two 404s a day apart. */
  | { readonly type: 'deleted'; readonly kind: MediaKind; readonly id: number }
  /** New ids found upstream. */
  | {
      readonly type: 'discovered';
      readonly kind: MediaKind;
      readonly ids: readonly number[];
    }
  /** A tier's due work is older than its interval: the budget is short of the schedule. */
  | {
      readonly type: 'shortfall';
      readonly tier: TierName;
      readonly due: number;
      readonly lagMs: number;
    }
  /** This refresher took or lost the lease. */
  | { readonly type: 'lease'; readonly leader: boolean }
  /** A pass ended. */
  | { readonly type: 'pass'; readonly summary: PassSummary };

/** What one pass did. */
export interface PassSummary {
  /** Whether it held the lease (a pass without it does nothing). */
  leader: boolean;
  /** When it began and ended (the refresher's clock). */
  startedAt: number;
  endedAt: number;
  /** Requests answered, by tier. */
  fetched: Record<TierName, number>;
  written: number;
  unchanged: number;
  invalid: number;
  failed: number;
  notFound: number;
  deleted: number;
  discovered: number;
  /** Why it ended before everything due was worked, if it did. */
  stopped?: 'lease' | 'aborted' | 'circuit' | 'error' | undefined;
}

/** The refresher now, for the status API and metrics. */
export interface RefresherStatus {
  readonly leader: boolean;
  readonly holder: string;
  readonly source: { readonly name: string; readonly health: SourceHealth };
  /** Due work per tier when last measured (`null` before the first pass). */
  readonly backlog: Record<TierName, TierBacklog> | null;
  /** Tiers whose due work was older than their interval when last measured. */
  readonly shortfall: readonly TierName[];
  readonly lastError?: { readonly message: string; readonly at: number } | undefined;
  readonly lastPass?: PassSummary | undefined;
  /** Requests answered since start, by tier. */
  readonly fetched: Readonly<Record<TierName, number>>;
}

/** How to build a refresher. */
export interface RefresherOptions {
  /** What is served (the ids it holds seed the tasks). */
  store: CatalogueStore;
  source: UpstreamSource;
  state: RefreshState;
  writer: RecordWriter;
  /** The lease id. @default a random UUID */
  holder?: string;
  /** Divides every refresh interval (not the budget, not the lease). @default 1 */
  timeScale?: number;
  /** Tier intervals (ms, before scaling); `discovery`: page 1 of the discovery listings. @default DEFAULT_INTERVALS */
  intervals?: Partial<Record<TierName | 'discovery', number>>;
  /** Parts refreshed in full. @default DEFAULT_PARTS */
  parts?: Partial<Record<MediaKind, readonly EntryPart[]>>;
  /** Parts of a hot entry refreshed with the hot tier. @default DEFAULT_HOT_PARTS */
  hotParts?: Partial<Record<MediaKind, readonly EntryPart[]>>;
  /** How many of the most popular entries of each kind are in the popular tier. @default 1000 */
  popularTop?: number;
  /** @default ['anime', 'manga'] */
  kinds?: readonly MediaKind[];
  /** The lease's life in ms (real time, renewed every third of it). @default 30000 */
  leaseMs?: number;
  /** Requests in flight at once (each waits for its budget slot). @default 2 */
  concurrency?: number;
  /** @default Date.now */
  clock?: () => number;
  /** @default setTimeout, ended early by the signal */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where it logs; default nowhere. */
  logger?: RefresherLogger;
  /** Called with every event, for metrics and a progress bar (a listener that throws is logged, not fatal). */
  onEvent?: (event: RefreshEvent) => void;
}

/** A running refresher. */
export interface Refresher {
  /** Runs until `stop()`: takes the lease (real time), works due tasks within the budget. */
  start(): void;
  /** Abandons the request in flight, keeps the state, gives up the lease. */
  stop(): Promise<void>;
  /** One pass: everything due now (and what it discovers), once. */
  runOnce(options?: { signal?: AbortSignal }): Promise<PassSummary>;
  /** Whether it holds the lease. */
  readonly leader: boolean;
  /** Its state now: leader, backlog per tier, shortfall, last error, the source's health. */
  status(): RefresherStatus;
}

/**
 * Creates a refresher.
 * @param options - The store, source, state and writer, and the schedule's settings.
 * @returns A refresher, not yet started.
 * @example
 * ```ts
 * const refresher = createRefresher({ store, source, state, writer: createRecordWriter(store), timeScale: 1 });
 * refresher.start();
 * // … on shutdown:
 * await refresher.stop();
 * ```
 */
export function createRefresher(options: RefresherOptions): Refresher {
  const ctx = createContext(options);
  const { run } = ctx;
  let running: Promise<void> | undefined;
  let stopper: AbortController | undefined;
  /** Passes of one refresher run one after another (`runOnce` while started waits its turn). */
  let queue: Promise<unknown> = Promise.resolve();
  const serial: SerialPass = (outer, once) => {
    const go = () => pass(ctx, outer, once);
    const next = queue.then(go, go);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    start() {
      if (running) return;
      stopper = new AbortController();
      running = loop(ctx, serial, stopper.signal);
    },
    async stop() {
      stopper?.abort();
      run.passAbort?.abort();
      await running;
      running = undefined;
      await giveUpLease(ctx);
    },
    async runOnce(runOptions) {
      return serial(runOptions?.signal, true);
    },
    get leader() {
      return run.leader;
    },
    status() {
      return {
        leader: run.leader,
        holder: ctx.holder,
        source: { name: ctx.source.name, health: ctx.source.health() },
        backlog: run.backlog,
        shortfall: run.shortfall,
        lastError: run.lastError,
        lastPass: run.lastPass,
        fetched: { ...run.fetched },
      };
    },
  };
}
