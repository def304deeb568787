/**
 * The refresher's public types: its options, its logger and events, what a pass and `status()`
 * tell, and the `Refresher` itself (`refresher.ts` makes one; its parts read these too).
 * @module
 */
import type { CatalogueStore } from '../seam/types.js';
import type { MediaKind } from '../catalogue/queries.js';
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
