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
 * @module
 */
import type { CatalogueStore } from '../seam/types.js';
import type { MediaKind } from '../catalogue/queries.js';
import { createSchedule, currentSeasons, DAY, DISCOVERY_LISTS, phase, scaled, TIERS, WALKED_LISTS, type Schedule } from './schedule.js';
import type { EntryPart, ListName, ListPage, RecordWriter, RefreshState, SourceHealth, Task, TierBacklog, TierName, UpstreamSource } from './types.js';

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

/** A 304 or a 200 counts as success; the first failure waits this long (scaled, at least a second), doubling up to the tier's interval. */
const RETRY_BASE = 60_000;
/** How much earlier than the last call `changedIds` asks from (clocks of two hosts differ). */
const CHANGES_OVERLAP = 60_000;
/** Pages of `newest` or `upcoming` followed past page 1 while every entry on them is new. */
const MAX_FOLLOW_PAGES = 20;
/** Listings whose pages past 1 are read once, when page 1 was all new. */
const FOLLOWED: readonly ListName[] = ['newest', 'upcoming'];
/** How often the whole task set is checked against the store's ids (scaled). */
const RECONCILE_EVERY = 60 * 60_000;
/** Tasks written at once when seeding. */
const PUT_BATCH = 5_000;
/** Tasks a running pass works before it ends and the next begins (bounds what a pass remembers). */
const PASS_TASKS = 1_000;
/** The shortest discovery interval, whatever the time scale (ms). */
const MIN_DISCOVERY = 5_000;
/** At most how often the backlog is measured while running (real time). */
const BACKLOG_EVERY = 10_000;

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

const zeroTiers = (): Record<TierName, number> => ({
  new: 0,
  hot: 0,
  stats: 0,
  popular: 0,
  full: 0,
});

/** Encodes a set of ids as sorted base-36 deltas (`"k,1,3"`): a cursor of 70k ids stays near 150 KB. */
function encodeIds(ids: Iterable<number>): string {
  const sorted = [...ids].sort((a, b) => a - b);
  let last = 0;
  return sorted
    .map((id) => {
      const d = id - last;
      last = id;
      return d.toString(36);
    })
    .join(',');
}

function decodeIds(text: string | undefined): Set<number> {
  const out = new Set<number>();
  if (!text) return out;
  let last = 0;
  for (const d of text.split(',')) {
    last += Number.parseInt(d, 36);
    out.add(last);
  }
  return out;
}

/** What is kept in memory while leader, read again from the state's cursors at each new lease. */
interface Loaded {
  known: Map<MediaKind, Set<number>>;
  hot: Map<MediaKind, Set<number>>;
  popular: Map<MediaKind, Set<number>>;
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
  const { store, source, state, writer } = options;
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
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const leaseMs = options.leaseMs ?? 30_000;
  /**
   * Gives the event loop a turn (a zero timer), so refresh work never holds it for long and the
   * API's requests are answered between records. Skipped under an injected `sleep` (a virtual
   * clock's), whose turns are its own.
   */
  const pause = options.sleep ? () => Promise.resolve() : () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const renewMs = Math.max(1, Math.floor(leaseMs / 3));
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const logger = options.logger;
  const emit = (event: RefreshEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger?.error('A refresh event listener threw', { error: String(error) });
    }
  };
  const interval = (tier: TierName | 'discovery') =>
    tier === 'discovery'
      ? // Page 1 of six listings at an hour a second would take the whole budget: never more often than every few seconds.
        Math.max(Math.min(schedule.intervals.discovery, MIN_DISCOVERY), scaled(schedule.intervals.discovery, timeScale))
      : scaled(schedule.intervals[tier], timeScale);

  let leader = false;
  let loaded: Loaded | undefined;
  let lastError: { message: string; at: number } | undefined;
  let lastPass: PassSummary | undefined;
  let backlog: Record<TierName, TierBacklog> | null = null;
  let backlogAt = Number.NEGATIVE_INFINITY;
  let shortfall: TierName[] = [];
  const fetchedTotal = zeroTiers();
  let running: Promise<void> | undefined;
  let stopper: AbortController | undefined;
  /** Aborts the current pass when the lease is lost. */
  let passAbort: AbortController | undefined;

  const setLeader = (value: boolean) => {
    if (value === leader) return;
    leader = value;
    if (!value) loaded = undefined;
    emit({ type: 'lease', leader: value });
    logger?.info(value ? 'Refresher took the lease' : 'Refresher does not hold the lease', { holder });
  };
  const noteError = (message: string) => {
    lastError = { message, at: clock() };
  };

  // ---- cursors ----
  async function load(): Promise<Loaded> {
    const l: Loaded = { known: new Map(), hot: new Map(), popular: new Map() };
    for (const kind of schedule.kinds) {
      l.known.set(kind, decodeIds(await state.getCursor(`known:${kind}`)));
      l.hot.set(kind, decodeIds(await state.getCursor(`hot:${kind}`)));
      l.popular.set(kind, decodeIds(await state.getCursor(`popular:${kind}`)));
    }
    return l;
  }
  const saveSet = (name: 'known' | 'hot' | 'popular', kind: MediaKind, ids: Set<number>) => state.setCursor(`${name}:${kind}`, encodeIds(ids));

  // ---- classification ----
  const seasonOf = (r: Record<string, unknown>): string | null => {
    if (typeof r.season === 'string' && typeof r.year === 'number') return `${r.year}-${r.season}`;
    const from = (r.aired as { from?: unknown } | undefined)?.from;
    if (typeof from !== 'string' || from.length < 7) return null;
    return `${from.slice(0, 4)}-${['winter', 'spring', 'summer', 'fall'][Math.floor((Number(from.slice(5, 7)) - 1) / 3)]}`;
  };
  /** Whether an entry (a record or a listing item) is hot and whether it is popular. */
  const classify = (kind: MediaKind, value: unknown, now: number): { hot: boolean; popular: boolean } => {
    if (!value || typeof value !== 'object') return { hot: false, popular: false };
    const r = value as Record<string, unknown>;
    let hot: boolean;
    if (kind === 'anime') {
      const season = seasonOf(r);
      hot = r.airing === true || (season !== null && currentSeasons(now).includes(season));
    } else hot = r.publishing === true;
    const rank = r.popularity;
    return {
      hot: hot && schedule.hotParts[kind].length > 0,
      popular: typeof rank === 'number' && rank > 0 && rank <= schedule.popularTop,
    };
  };
  const tierOfPart = (kind: MediaKind, part: EntryPart, c: { hot: boolean; popular: boolean }): TierName =>
    c.hot && schedule.hotParts[kind].includes(part) ? 'hot' : c.popular ? 'popular' : 'full';

  // ---- task shapes ----
  const entryKey = (kind: MediaKind, id: number, part: EntryPart) => `${kind}:${id}:${part}`;
  const listKey = (kind: MediaKind, list: ListName, page: number) => `${kind}:${list}:${page}`;
  const listTier = (kind: MediaKind, list: ListName, page: number): TierName =>
    page === 1 && DISCOVERY_LISTS[kind].includes(list) ? 'new' : WALKED_LISTS[kind][list] ?? 'new';
  /** The interval a task recurs at: discovery for the recurring `new` tasks (listings, changes). */
  const intervalOf = (task: Pick<Task, 'tier' | 'id'>) => (task.tier === 'new' && task.id === undefined ? interval('discovery') : interval(task.tier));
  const entryTask = (kind: MediaKind, id: number, part: EntryPart, tier: TierName, dueAt: number): Task => ({
    key: entryKey(kind, id, part),
    tier,
    dueAt,
    kind,
    id,
    part,
    failures: 0,
  });
  const listTask = (kind: MediaKind, list: ListName, page: number, dueAt: number): Task => ({
    key: listKey(kind, list, page),
    tier: listTier(kind, list, page),
    dueAt,
    kind,
    list,
    page,
    failures: 0,
  });
  /** A task due somewhere in its interval, the same place for the same key (so seeded work is spread evenly). */
  const spread = (task: Task, now: number): Task => ({
    ...task,
    dueAt: now + Math.floor(phase(task.key) * intervalOf(task)),
  });

  // ---- seeding ----
  async function reconcile(l: Loaded, now: number): Promise<void> {
    const all = { offset: 0, limit: Number.MAX_SAFE_INTEGER };
    for (const kind of schedule.kinds) {
      const ids = (await store.pluck(kind, 'mal_id', all)) as number[];
      const hotIds = new Set<number>();
      if (schedule.hotParts[kind].length > 0) {
        if (kind === 'anime') {
          for (const id of (await store.pluck(kind, 'mal_id', {
            where: [{ field: 'airing', op: 'eq', value: true }],
            ...all,
          })) as number[])
            hotIds.add(id);
          const seasons = currentSeasons(now);
          for (const id of (await store.pluck(kind, 'mal_id', {
            where: [{ field: 'season', op: 'in', values: seasons }],
            ...all,
          })) as number[])
            hotIds.add(id);
        } else {
          for (const id of (await store.pluck(kind, 'mal_id', {
            where: [{ field: 'publishing', op: 'eq', value: true }],
            ...all,
          })) as number[])
            hotIds.add(id);
        }
      }
      const popularIds = new Set(
        (await store.pluck(kind, 'mal_id', {
          where: [
            { field: 'popularity', op: 'lte', value: schedule.popularTop },
            { field: 'popularity', op: 'gt', value: 0 },
          ],
          ...all,
        })) as number[]
      );
      const known = l.known.get(kind)!;
      const hot = l.hot.get(kind)!;
      const popular = l.popular.get(kind)!;
      const tasks: Task[] = [];
      let seeded = 0;
      for (const id of ids) {
        const c = { hot: hotIds.has(id), popular: popularIds.has(id) };
        if (!known.has(id)) {
          seeded++;
          for (const part of schedule.parts[kind]) tasks.push(spread(entryTask(kind, id, part, tierOfPart(kind, part, c), 0), now));
          known.add(id);
          continue;
        }
        // Promotions now; demotions when the task next completes (from the record then).
        if (c.hot && !hot.has(id)) for (const part of schedule.hotParts[kind]) tasks.push(spread(entryTask(kind, id, part, 'hot', 0), now));
        if (c.popular && !popular.has(id)) {
          for (const part of schedule.parts[kind])
            if (tierOfPart(kind, part, c) === 'popular') tasks.push(spread(entryTask(kind, id, part, 'popular', 0), now));
        }
      }
      l.hot.set(kind, hotIds);
      l.popular.set(kind, popularIds);
      // Listings: page 1 of each, once; their other pages come from walking them.
      const lists = new Set<ListName>([...DISCOVERY_LISTS[kind], ...(Object.keys(WALKED_LISTS[kind]) as ListName[])]);
      for (const list of lists) {
        if ((await state.getCursor(`pages:${kind}:${list}`)) !== undefined) continue;
        tasks.push(listTask(kind, list, 1, now));
        await state.setCursor(`pages:${kind}:${list}`, '1');
      }
      if (source.changedIds && (await state.getCursor(`changes:${kind}`)) === undefined) {
        tasks.push({
          key: `${kind}:changes`,
          tier: 'new',
          dueAt: now + interval('discovery'),
          kind,
          failures: 0,
        });
        await state.setCursor(`changes:${kind}`, String(now));
      }
      // In batches, so that a store-backed state writes a whole catalogue's tasks (≈ 850k) in pieces.
      for (let i = 0; i < tasks.length; i += PUT_BATCH) await state.put(tasks.slice(i, i + PUT_BATCH));
      await saveSet('known', kind, known);
      await saveSet('hot', kind, hotIds);
      await saveSet('popular', kind, popularIds);
      if (seeded > 0)
        logger?.info('Refresher seeded tasks from the store', {
          kind,
          entries: seeded,
        });
    }
    await state.setCursor('reconciledAt', String(now));
  }

  /** New ids: every part due now in the `new` tier. */
  async function discover(l: Loaded, kind: MediaKind, ids: readonly number[], dueAt: number, summary: PassSummary): Promise<void> {
    const known = l.known.get(kind)!;
    const fresh = [...new Set(ids)].filter((id) => !known.has(id));
    if (fresh.length === 0) return;
    await state.put(fresh.flatMap((id) => schedule.parts[kind].map((part) => entryTask(kind, id, part, 'new', dueAt))));
    for (const id of fresh) known.add(id);
    await saveSet('known', kind, known);
    summary.discovered += fresh.length;
    emit({ type: 'discovered', kind, ids: fresh });
    logger?.info('Refresher discovered new ids', { kind, ids: fresh });
  }

  /**
   * Ids first seen on a walked listing (the sweep of a mirror that starts empty, a long-running
   * show): their records are written already; their parts are seeded in their tier, spread over
   * its interval, as the store's own ids are (not `new`, which would hold every other tier back).
   */
  async function adopt(l: Loaded, kind: MediaKind, items: readonly unknown[], now: number): Promise<void> {
    const known = l.known.get(kind)!;
    const tasks: Task[] = [];
    const sets = { hot: false, popular: false };
    for (const item of items) {
      const id = (item as { mal_id?: unknown } | null)?.mal_id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0 || known.has(id)) continue;
      const c = classify(kind, item, now);
      for (const part of schedule.parts[kind]) tasks.push(spread(entryTask(kind, id, part, tierOfPart(kind, part, c), 0), now));
      known.add(id);
      if (c.hot) sets.hot = l.hot.get(kind)!.add(id) !== undefined;
      if (c.popular) sets.popular = l.popular.get(kind)!.add(id) !== undefined;
    }
    if (tasks.length === 0) return;
    await state.put(tasks);
    await saveSet('known', kind, known);
    if (sets.hot) await saveSet('hot', kind, l.hot.get(kind)!);
    if (sets.popular) await saveSet('popular', kind, l.popular.get(kind)!);
  }

  /** Forgets an entry: its tasks and its place in the cursors. */
  async function forget(l: Loaded, kind: MediaKind, id: number): Promise<void> {
    await state.remove(schedule.parts[kind].map((part) => entryKey(kind, id, part)));
    for (const name of ['known', 'hot', 'popular'] as const) {
      const set = l[name].get(kind)!;
      if (set.delete(id)) await saveSet(name, kind, set);
    }
  }

  // ---- working one task ----
  interface Work {
    l: Loaded;
    signal: AbortSignal;
    summary: PassSummary;
    /** When something discovered in this pass is due: within it. */
    passStart: number;
  }

  async function reschedule(task: Task, now: number, changes: Partial<Task> = {}): Promise<void> {
    const next: Task = {
      ...task,
      failures: 0,
      notFoundAt: undefined,
      ...changes,
      dueAt: 0,
    };
    const every = intervalOf(next);
    // From when it was due, so that waiting for a budget slot does not stretch the cadence; from
    // now when it is a whole interval late (the budget is short: no catching up in a burst).
    const at = task.dueAt + every;
    await state.put([{ ...next, dueAt: at > now ? at : now + every }]);
  }

  async function fail(task: Task, now: number, reason: string, w: Work, invalid = false): Promise<void> {
    const failures = task.failures + 1;
    const base = Math.max(1000, scaled(RETRY_BASE, timeScale));
    const wait = Math.min(base * 2 ** Math.min(failures - 1, 30), Math.max(base, intervalOf(task)));
    await state.put([{ ...task, failures, dueAt: now + wait }]);
    noteError(`${task.key}: ${reason}`);
    if (invalid) {
      w.summary.invalid++;
      emit({ type: 'invalid', tier: task.tier, task: task.key, reason });
    } else {
      w.summary.failed++;
      emit({
        type: 'failed',
        tier: task.tier,
        task: task.key,
        reason,
        failures,
      });
    }
    logger?.warn(invalid ? 'Refresher rejected an invalid body' : 'Refresher request failed', { task: task.key, reason, failures });
  }

  const counted = (task: Task, w: Work, outcome: 'ok' | 'unchanged' | 'not-found' | 'failed') => {
    w.summary.fetched[task.tier]++;
    fetchedTotal[task.tier]++;
    emit({ type: 'fetched', tier: task.tier, task: task.key, outcome });
  };

  /** The tier of an entry's part after a refresh, from its record now; keeps the hot and popular cursors in step. */
  async function tierAfter(w: Work, kind: MediaKind, id: number, part: EntryPart, now: number): Promise<TierName> {
    const record = await store.get(kind, id);
    const c = classify(kind, record, now);
    for (const [name, on] of [
      ['hot', c.hot],
      ['popular', c.popular],
    ] as const) {
      const set = w.l[name].get(kind)!;
      if (on !== set.has(id)) {
        if (on) set.add(id);
        else set.delete(id);
        await saveSet(name, kind, set);
      }
    }
    return tierOfPart(kind, part, c);
  }

  async function workEntry(task: Task, w: Work): Promise<void> {
    const kind = task.kind;
    const id = task.id!;
    const part = task.part!;
    if (task.tier !== 'new' && task.notFoundAt === undefined && !(await store.get(kind, id))) {
      // Removed from the store by someone else (an import): no longer ours to refresh. Its record's
      // task decides; another part waits for it.
      if (part === 'full') return forget(w.l, kind, id);
      return reschedule(task, clock());
    }
    const fetched = await source.entry(kind, id, part, task.validator, w.signal);
    // The body was read and parsed in this turn of the event loop; its records are written in the next.
    await pause();
    if (w.signal.aborted) return;
    const now = clock();
    counted(task, w, fetched.outcome);
    switch (fetched.outcome) {
      case 'ok': {
        const outcome = await writer.part(kind, id, part, fetched.body, now);
        if (w.signal.aborted) return;
        if (outcome.outcome === 'invalid') return fail(task, now, outcome.reason, w, true);
        if (outcome.outcome === 'changed') {
          w.summary.written++;
          emit({
            type: 'written',
            tier: task.tier,
            task: task.key,
            records: outcome.keys.length,
          });
        } else {
          w.summary.unchanged++;
          emit({ type: 'unchanged', tier: task.tier, task: task.key });
        }
        return reschedule(task, now, {
          tier: await tierAfter(w, kind, id, part, now),
          validator: fetched.validator,
        });
      }
      case 'unchanged':
        w.summary.unchanged++;
        emit({ type: 'unchanged', tier: task.tier, task: task.key });
        return reschedule(task, now, {
          tier: await tierAfter(w, kind, id, part, now),
        });
      case 'not-found':
        return notFound(task, now, w);
      case 'failed':
        return fail(task, now, fetched.reason, w);
    }
  }

  /** A 404: noted; the entry goes only when its record answers 404 again a day (scaled) later. */
  async function notFound(task: Task, now: number, w: Work): Promise<void> {
    const kind = task.kind;
    const id = task.id!;
    const since = task.notFoundAt ?? now;
    w.summary.notFound++;
    emit({ type: 'not-found', tier: task.tier, task: task.key, since });
    logger?.info('Upstream answered 404', { task: task.key, since });
    // Only the entry's own record decides; a sub-resource's 404 is asked again at its interval.
    if (task.part !== 'full')
      return reschedule(task, now, {
        tier: task.tier === 'new' ? 'full' : task.tier,
      });
    const day = scaled(DAY, timeScale);
    if (task.notFoundAt === undefined || now - task.notFoundAt < day) {
      await state.put([{ ...task, failures: 0, notFoundAt: since, dueAt: since + day }]);
      return;
    }
    const removed = await writer.remove(kind, id, now);
    if (w.signal.aborted) return;
    await forget(w.l, kind, id);
    w.summary.deleted++;
    emit({ type: 'deleted', kind, id });
    logger?.info('Refresher deleted an entry the upstream no longer has', {
      kind,
      id,
      removed,
    });
  }

  async function workList(task: Task, w: Work): Promise<void> {
    const kind = task.kind;
    const list = task.list!;
    const page = task.page!;
    const fetched = await source.list(kind, list, page, w.signal);
    await pause();
    if (w.signal.aborted) return;
    const now = clock();
    counted(task, w, fetched.outcome);
    const oneShot = FOLLOWED.includes(list) && page > 1;
    const done = () => (oneShot ? state.remove([task.key]) : reschedule(task, now));
    switch (fetched.outcome) {
      case 'ok': {
        await listed(task, fetched.body, now, w);
        return done();
      }
      case 'unchanged':
        w.summary.unchanged++;
        emit({ type: 'unchanged', tier: task.tier, task: task.key });
        return done();
      case 'not-found':
        w.summary.notFound++;
        emit({
          type: 'not-found',
          tier: task.tier,
          task: task.key,
          since: now,
        });
        if (page === 1) return reschedule(task, now);
        await state.remove([task.key]);
        if (!oneShot) await trimPages(kind, list, page - 1);
        return;
      case 'failed':
        return fail(task, now, fetched.reason, w);
    }
  }

  /** Removes a walked listing's tasks past its last page. */
  async function trimPages(kind: MediaKind, list: ListName, last: number): Promise<void> {
    const known = Number((await state.getCursor(`pages:${kind}:${list}`)) ?? '1');
    if (known <= last) return;
    const keys: string[] = [];
    for (let p = last + 1; p <= known; p++) keys.push(listKey(kind, list, p));
    await state.remove(keys);
    await state.setCursor(`pages:${kind}:${list}`, String(last));
  }

  /** A listing page: its items written, new ids discovered, hot and popular entries promoted, the listing's pages kept in step. */
  async function listed(task: Task, body: ListPage, now: number, w: Work): Promise<void> {
    const kind = task.kind;
    const list = task.list!;
    const page = task.page!;
    // One item at a time, yielding between them: a page's 25 records written in one go would hold
    // the event loop (and the API's requests) for as long as all of them take.
    const outcomes: Awaited<ReturnType<RecordWriter['items']>> = [];
    for (const item of body.items) {
      outcomes.push(...(await writer.items(kind, [item], now)));
      await pause();
      if (w.signal.aborted) return;
    }
    let changed = 0;
    for (const o of outcomes) {
      if (o.outcome === 'changed') changed += o.keys.length;
      else if (o.outcome === 'invalid') w.summary.invalid++;
    }
    if (changed > 0) {
      w.summary.written++;
      emit({
        type: 'written',
        tier: task.tier,
        task: task.key,
        records: changed,
      });
    } else {
      w.summary.unchanged++;
      emit({ type: 'unchanged', tier: task.tier, task: task.key });
    }
    const known = w.l.known.get(kind)!;
    const ids: number[] = [];
    const promote: Task[] = [];
    const hot = w.l.hot.get(kind)!;
    const popular = w.l.popular.get(kind)!;
    let hotChanged = false;
    let popularChanged = false;
    for (const item of body.items) {
      const id = (item as { mal_id?: unknown } | null)?.mal_id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) continue;
      ids.push(id);
      if (!known.has(id)) continue;
      const c = classify(kind, item, now);
      if (c.hot && !hot.has(id)) {
        hot.add(id);
        hotChanged = true;
        for (const part of schedule.hotParts[kind]) promote.push(entryTask(kind, id, part, 'hot', w.passStart));
      }
      if (c.popular && !popular.has(id)) {
        popular.add(id);
        popularChanged = true;
        for (const part of schedule.parts[kind])
          if (tierOfPart(kind, part, c) === 'popular') promote.push(spread(entryTask(kind, id, part, 'popular', 0), now));
      }
    }
    const allNew = ids.length > 0 && ids.every((id) => !known.has(id));
    if (task.tier === 'new') await discover(w.l, kind, ids, w.passStart, w.summary);
    else await adopt(w.l, kind, body.items, now);
    if (promote.length > 0) await state.put(promote);
    if (hotChanged) await saveSet('hot', kind, hot);
    if (popularChanged) await saveSet('popular', kind, popular);
    if (FOLLOWED.includes(list)) {
      // New ids show first on page 1; when all of page 1 is new, more may follow.
      if (allNew && body.hasNextPage && page < MAX_FOLLOW_PAGES) await state.put([listTask(kind, list, page + 1, w.passStart)]);
      return;
    }
    if (!(list in WALKED_LISTS[kind])) return;
    const pagesKnown = Number((await state.getCursor(`pages:${kind}:${list}`)) ?? '1');
    if (body.hasNextPage) {
      const last = Math.max(page + 1, body.lastPage ?? 0);
      if (last > pagesKnown) {
        const more: Task[] = [];
        for (let p = pagesKnown + 1; p <= last; p++) more.push(spread(listTask(kind, list, p, 0), now));
        await state.put(more);
        await state.setCursor(`pages:${kind}:${list}`, String(last));
      }
    } else await trimPages(kind, list, page);
  }

  async function workChanges(task: Task, w: Work): Promise<void> {
    const kind = task.kind;
    const since = Number((await state.getCursor(`changes:${kind}`)) ?? clock());
    const startedAt = clock();
    const fetched = await source.changedIds!(kind, since - CHANGES_OVERLAP, w.signal);
    if (w.signal.aborted) return;
    const now = clock();
    counted(task, w, fetched.outcome);
    if (fetched.outcome === 'failed') return fail(task, now, fetched.reason, w);
    if (fetched.outcome === 'ok') {
      const known = w.l.known.get(kind)!;
      const ids = fetched.body;
      // A changed entry's record is asked again now; its other parts keep their schedule.
      const again = ids.filter((id) => known.has(id)).map((id) => entryTask(kind, id, 'full', 'new', w.passStart));
      if (again.length > 0) await state.put(again);
      await discover(w.l, kind, ids, w.passStart, w.summary);
      await state.setCursor(`changes:${kind}`, String(startedAt));
    }
    return reschedule(task, now);
  }

  async function work(task: Task, w: Work): Promise<void> {
    try {
      if (task.id !== undefined && task.part) await workEntry(task, w);
      else if (task.list && task.page !== undefined) await workList(task, w);
      else if (task.key === `${task.kind}:changes` && source.changedIds) await workChanges(task, w);
      else await state.remove([task.key]);
    } catch (error) {
      if (w.signal.aborted) return;
      // The source and the writer answer failures as values; a throw is failed work, backed off like
      // one. When the state itself throws, so does this, and the pass ends.
      try {
        await fail(task, clock(), `threw: ${error instanceof Error ? error.message : String(error)}`, w);
      } catch {
        throw error;
      }
    }
  }

  // ---- lease ----
  async function holdLease(): Promise<boolean> {
    let ok = false;
    try {
      ok = await state.acquireLease(holder, clock(), leaseMs);
    } catch (error) {
      noteError(`lease: ${String(error)}`);
      logger?.error('Refresher could not reach its state for the lease', {
        error: String(error),
      });
    }
    setLeader(ok);
    return ok;
  }

  /** Renews the lease every third of its life while a pass runs; aborts the pass the moment it is lost. */
  async function keepLease(signal: AbortSignal, onLost: () => void): Promise<void> {
    while (!signal.aborted) {
      await sleep(renewMs, signal);
      if (signal.aborted) return;
      if (!(await holdLease())) {
        onLost();
        return;
      }
    }
  }

  async function measure(now: number, force: boolean): Promise<void> {
    if (!force && now - backlogAt < BACKLOG_EVERY) return;
    backlogAt = now;
    backlog = await state.backlog(now);
    const short: TierName[] = [];
    for (const tier of TIERS) {
      const b = backlog[tier];
      if (b.oldestDueAt === null) continue;
      const lag = now - b.oldestDueAt;
      // The `new` tier holds the discovery listings too, which recur at the discovery interval.
      const target = tier === 'new' ? Math.max(interval('new'), interval('discovery')) : interval(tier);
      if (lag > target) {
        short.push(tier);
        emit({ type: 'shortfall', tier, due: b.due, lagMs: lag });
      }
    }
    if (short.length > 0 && short.join() !== shortfall.join())
      logger?.warn('Refresher is behind its schedule: the budget is short', {
        tiers: short,
      });
    shortfall = short;
  }

  // ---- a pass ----
  async function pass(outer: AbortSignal | undefined, once: boolean): Promise<PassSummary> {
    const startedAt = clock();
    const summary: PassSummary = {
      leader: false,
      startedAt,
      endedAt: startedAt,
      fetched: zeroTiers(),
      written: 0,
      unchanged: 0,
      invalid: 0,
      failed: 0,
      notFound: 0,
      deleted: 0,
      discovered: 0,
    };
    if (outer?.aborted) return { ...summary, stopped: 'aborted' };
    if (!(await holdLease())) return summary;
    summary.leader = true;
    const abort = new AbortController();
    passAbort = abort;
    const onOuter = () => abort.abort();
    outer?.addEventListener('abort', onOuter, { once: true });
    const keeper = new AbortController();
    const keeping = keepLease(AbortSignal.any([keeper.signal, abort.signal]), () => {
      summary.stopped = 'lease';
      abort.abort();
    });
    try {
      loaded ??= await load();
      const l = loaded;
      const reconciledAt = Number((await state.getCursor('reconciledAt')) ?? Number.NEGATIVE_INFINITY);
      if (!(startedAt - reconciledAt < scaled(RECONCILE_EVERY, timeScale))) await reconcile(l, startedAt);
      const w: Work = {
        l,
        signal: abort.signal,
        summary,
        passStart: startedAt,
      };
      const inflight = new Map<string, Promise<void>>();
      // The due time each task had when worked: one due again later (discovery, every few minutes)
      // is worked again while running, so a long pass never holds a higher tier back; `runOnce`
      // works each task once, so that one pass ends.
      const worked = new Map<string, number>();
      const eligible = (t: Task) => !inflight.has(t.key) && (once ? !worked.has(t.key) : worked.get(t.key) !== t.dueAt);
      let failure: unknown;
      for (;;) {
        if (abort.signal.aborted || failure !== undefined) break;
        if (!once && worked.size >= PASS_TASKS && inflight.size === 0) break;
        if (source.health().circuit === 'open') {
          summary.stopped = 'circuit';
          break;
        }
        await measure(clock(), false);
        const free = !once && worked.size >= PASS_TASKS ? 0 : concurrency - inflight.size;
        if (free > 0) {
          const limit = free + inflight.size + Math.min(worked.size, 64);
          const tasks = (await state.due(clock(), limit)).filter(eligible).slice(0, free);
          for (const task of tasks) {
            // Each task starts in a turn of its own, after whatever else the host has waiting.
            await pause();
            if (abort.signal.aborted) break;
            worked.set(task.key, task.dueAt);
            const p = work(task, w)
              .catch((error: unknown) => {
                failure ??= error;
              })
              .finally(() => inflight.delete(task.key));
            inflight.set(task.key, p);
          }
        }
        if (inflight.size === 0) break;
        await Promise.race(inflight.values());
      }
      await Promise.allSettled(inflight.values());
      if (failure !== undefined) {
        summary.stopped = 'error';
        noteError(String(failure));
        logger?.error('Refresher pass failed', { error: String(failure) });
      }
      if (abort.signal.aborted && !summary.stopped) summary.stopped = 'aborted';
      if (!abort.signal.aborted) await measure(clock(), once);
    } finally {
      keeper.abort();
      await keeping;
      outer?.removeEventListener('abort', onOuter);
      if (passAbort === abort) passAbort = undefined;
    }
    summary.endedAt = clock();
    lastPass = summary;
    emit({ type: 'pass', summary });
    return summary;
  }

  /** Passes of one refresher run one after another (`runOnce` while started waits its turn). */
  let queue: Promise<unknown> = Promise.resolve();
  function serial(outer: AbortSignal | undefined, once: boolean): Promise<PassSummary> {
    const run = () => pass(outer, once);
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  async function nextDue(): Promise<number | null> {
    const s = state as RefreshState & {
      nextDueAt?: () => Promise<number | null>;
    };
    if (s.nextDueAt) return s.nextDueAt();
    const b = await state.backlog(Number.MAX_SAFE_INTEGER);
    let next: number | null = null;
    for (const tier of TIERS) {
      const at = b[tier].oldestDueAt;
      if (at !== null && (next === null || at < next)) next = at;
    }
    return next;
  }

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let wait = renewMs;
      try {
        const s = await serial(signal, false);
        if (signal.aborted) break;
        if (s.leader && s.stopped === 'circuit') {
          const until = source.health().until;
          wait = Math.min(renewMs, Math.max(1000, (until ?? 0) - clock()));
        } else if (s.leader && s.stopped === undefined) {
          const next = await nextDue();
          const worked = TIERS.some((t) => s.fetched[t] > 0);
          wait = next === null ? renewMs : Math.min(renewMs, Math.max(worked ? 0 : 1000, next - clock()));
        }
      } catch (error) {
        noteError(String(error));
        logger?.error('Refresher failed', { error: String(error) });
      }
      if (wait > 0) await sleep(wait, signal);
    }
  }

  return {
    start() {
      if (running) return;
      stopper = new AbortController();
      running = loop(stopper.signal);
    },
    async stop() {
      stopper?.abort();
      passAbort?.abort();
      await running;
      running = undefined;
      if (leader) {
        try {
          await state.releaseLease(holder);
        } catch (error) {
          logger?.warn('Refresher could not give its lease up; it runs out by itself', { error: String(error) });
        }
      }
      setLeader(false);
    },
    async runOnce(runOptions) {
      return serial(runOptions?.signal, true);
    },
    get leader() {
      return leader;
    },
    status() {
      return {
        leader,
        holder,
        source: { name: source.name, health: source.health() },
        backlog,
        shortfall,
        lastError,
        lastPass,
        fetched: { ...fetchedTotal },
      };
    },
  };
}
