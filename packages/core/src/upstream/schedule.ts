/**
 * The refresher's schedule: which work belongs to which tier, how often each tier comes round, and
 * what that costs upstream per day. The defaults are sized for the public Jikan (3 requests a
 * second, 60 a minute: 86,400 a day) over the whole catalogue (about 28k anime and 70k manga):
 *
 * | work | tier | every | requests a day at full scale |
 * | --- | --- | --- | --- |
 * | page 1 of `newest` (anime, manga), `seasonUpcoming`, `upcoming`, `seasonNow`, `schedules` | `new` | 5 min | 6 × 288 = 1,728 |
 * | every part of a newly discovered entry (≈ 10 anime and 40 manga a day) | `new` | once | 10 × 11 + 40 × 8 = 430 |
 * | `full` and `episodes` of the ≈ 700 airing and current/next-season anime | `hot` | 12 h | 700 × 2 × 2 = 2,800 |
 * | every page of `current` (anime ≈ 16, publishing manga ≈ 600) and the other pages of the season and schedule lists (≈ 30) | `hot` | 12 h | ≈ 650 × 2 = 1,300 |
 * | every page of `sweep` (scores, members, ranks, popularity of every entry, 25 a page) | `stats` | 24 h | 1,120 + 2,800 = 3,920 |
 * | every part of the 1,000 most popular entries of each kind (11 anime parts, 8 manga parts) | `popular` | 3 days | 19,000 / 3 ≈ 6,333 |
 * | every part of every other entry (less the hot parts of hot ones) | `full` | 30 days | (27,000 × 11 − 700 × 2 + 69,000 × 8) / 30 ≈ 28,250 |
 *
 * In all about 44,760 requests a day, 52 % of the public Jikan's 86,400: the rest is headroom for
 * retries, a `Retry-After`, a catalogue that grows, and work that falls behind. `scheduleDemand`
 * computes the same sums for any catalogue and any intervals.
 *
 * Publishing manga (about 15k) are not refreshed one by one twice a day, which alone would need
 * 30k requests: their records come twice a day from the `current` listing (600 pages), their other
 * parts with the popular or full tier.
 *
 * Every interval is divided by the refresher's `timeScale` (for demos and tests); the budget and
 * the lease are not.
 * @module
 */
import type { MediaKind } from '../catalogue/queries.js';
import { SEASONS } from '../seam/collections.js';
import type { EntryPart, ListName, TierName } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** One day in milliseconds. */
export const DAY = 24 * HOUR;

/** The tiers in priority order: a short budget stretches the last first. */
export const TIERS: readonly TierName[] = ['new', 'hot', 'stats', 'popular', 'full'];

/** How often each tier comes round (ms, before `timeScale`); `discovery` is how often page 1 of the discovery listings is read. */
export type Intervals = Readonly<Record<TierName | 'discovery', number>>;

/**
 * The default intervals:
 * - `discovery` 5 minutes: new ids are read from page 1 of the listings that show them first;
 * - `new` 15 minutes: the target for a newly discovered entry (due at once; later than this is a shortfall);
 * - `hot` 12 hours: airing and current/next-season entries about twice a day;
 * - `stats` 24 hours: scores, members, ranks and popularity daily;
 * - `popular` 3 days: the most popular entries in full every few days;
 * - `full` 30 days: every other entry in full within a month.
 */
export const DEFAULT_INTERVALS: Intervals = {
  discovery: 5 * MINUTE,
  new: 15 * MINUTE,
  hot: 12 * HOUR,
  stats: DAY,
  popular: 3 * DAY,
  full: 30 * DAY,
};

/** The parts refreshed for each kind by default (`full` carries relations, theme songs, external and streaming links). */
export const DEFAULT_PARTS: Readonly<Record<MediaKind, readonly EntryPart[]>> = {
  anime: ['full', 'characters', 'staff', 'episodes', 'pictures', 'statistics', 'moreinfo', 'recommendations', 'videos', 'news', 'reviews'],
  manga: ['full', 'characters', 'pictures', 'statistics', 'moreinfo', 'recommendations', 'news', 'reviews'],
};

/**
 * The parts of a hot entry refreshed with the hot tier; its other parts keep the popular or full
 * tier. Manga have none by default: their records come from the `current` listing (see the module note).
 */
export const DEFAULT_HOT_PARTS: Readonly<Record<MediaKind, readonly EntryPart[]>> = {
  anime: ['full', 'episodes'],
  manga: [],
};

/** How many of the most popular entries of each kind (by `popularity`, the rank by members) are in the popular tier. */
export const DEFAULT_POPULAR_TOP = 1000;

/** Listings whose page 1 is read every `discovery` interval: those showing new ids first, and the season now and schedules. */
export const DISCOVERY_LISTS: Readonly<Record<MediaKind, readonly ListName[]>> = {
  anime: ['newest', 'seasonUpcoming', 'upcoming', 'seasonNow', 'schedules'],
  manga: ['newest'],
};

/** Listings read page after page (every page a task), with their tier; page 1 of a discovery listing keeps the discovery interval. */
export const WALKED_LISTS: Readonly<Record<MediaKind, Readonly<Partial<Record<ListName, TierName>>>>> = {
  anime: {
    current: 'hot',
    seasonNow: 'hot',
    seasonUpcoming: 'hot',
    schedules: 'hot',
    sweep: 'stats',
  },
  manga: { current: 'hot', sweep: 'stats' },
};

/** Entries a Jikan listing page holds. */
export const PAGE_SIZE = 25;

/** The whole schedule: intervals, parts, the hot parts and the size of the popular tier. */
export interface Schedule {
  readonly intervals: Intervals;
  readonly parts: Readonly<Record<MediaKind, readonly EntryPart[]>>;
  readonly hotParts: Readonly<Record<MediaKind, readonly EntryPart[]>>;
  readonly popularTop: number;
  readonly kinds: readonly MediaKind[];
}

/**
 * The schedule with the defaults filled in.
 * @param options - Intervals, parts and kinds to change.
 * @returns The whole schedule.
 * @example
 * ```ts
 * createSchedule({ intervals: { full: 14 * DAY } }).intervals.full; // 1209600000
 * ```
 */
export function createSchedule(
  options: {
    intervals?: Partial<Record<TierName | 'discovery', number>> | undefined;
    parts?: Partial<Record<MediaKind, readonly EntryPart[]>> | undefined;
    hotParts?: Partial<Record<MediaKind, readonly EntryPart[]>> | undefined;
    popularTop?: number | undefined;
    kinds?: readonly MediaKind[] | undefined;
  } = {}
): Schedule {
  const intervals = { ...DEFAULT_INTERVALS };
  for (const [name, ms] of Object.entries(options.intervals ?? {}) as [keyof Intervals, number | undefined][]) {
    if (ms === undefined) continue;
    if (!(ms > 0) || !Number.isFinite(ms)) throw new RangeError(`The ${name} interval must be a positive number of ms, got ${ms}`);
    intervals[name] = ms;
  }
  const parts = { ...DEFAULT_PARTS, ...options.parts };
  const hotParts = { ...DEFAULT_HOT_PARTS, ...options.hotParts };
  for (const kind of ['anime', 'manga'] as const) hotParts[kind] = hotParts[kind].filter((p) => parts[kind].includes(p));
  return {
    intervals,
    parts,
    hotParts,
    popularTop: options.popularTop ?? DEFAULT_POPULAR_TOP,
    kinds: options.kinds ?? ['anime', 'manga'],
  };
}

/**
 * An interval divided by the time scale, at least 1 ms.
 * @param ms - The interval.
 * @param timeScale - The divisor (`UPSTREAM_TIME_SCALE`).
 */
export function scaled(ms: number, timeScale: number): number {
  return Math.max(1, ms / timeScale);
}

/** The size of one kind's catalogue, for `scheduleDemand`. */
export interface KindSize {
  /** Entries in all. */
  readonly entries: number;
  /** Hot entries (airing or publishing, current or next season). */
  readonly hot: number;
  /** Entries in the popular tier; default `min(popularTop, entries)`. */
  readonly popular?: number | undefined;
  /** Of those, hot too (their hot parts go with the hot tier); default 0. */
  readonly hotAndPopular?: number | undefined;
  /** Entries each walked listing holds (`current`, `seasonNow`…; `sweep` is `entries`). */
  readonly lists?: Readonly<Partial<Record<ListName, number>>> | undefined;
  /** Entries discovered a day; default 0. */
  readonly newPerDay?: number | undefined;
}

/** Requests a day, by tier and in all. */
export type Demand = Record<TierName, number> & { readonly total: number };

/**
 * The upstream requests a day the schedule makes for a catalogue of a given size (before
 * `timeScale`; with a time scale, multiply by it). One request is one listing page or one part
 * of one entry; `changedIds` (an upstream that is this library) is not counted.
 * @param sizes - The catalogue, by kind.
 * @param schedule - The schedule; default the defaults.
 * @returns Requests a day by tier, and their sum.
 * @example
 * ```ts
 * const d = scheduleDemand({ anime: { entries: 28000, hot: 700 }, manga: { entries: 70000, hot: 0 } });
 * d.total / 86400; // the share of the public Jikan's daily budget
 * ```
 */
export function scheduleDemand(sizes: Partial<Record<MediaKind, KindSize>>, schedule: Schedule = createSchedule()): Demand {
  const { intervals: iv, parts, hotParts } = schedule;
  const perDay = (ms: number) => DAY / ms;
  const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE_SIZE));
  const demand: Record<TierName, number> = {
    new: 0,
    hot: 0,
    stats: 0,
    popular: 0,
    full: 0,
  };
  for (const kind of schedule.kinds) {
    const size = sizes[kind];
    if (!size) continue;
    const popular = size.popular ?? Math.min(schedule.popularTop, size.entries);
    const both = size.hotAndPopular ?? 0;
    const hot = hotParts[kind].length > 0 ? size.hot : 0;
    const hotN = hotParts[kind].length;
    demand.new += DISCOVERY_LISTS[kind].length * perDay(iv.discovery) + (size.newPerDay ?? 0) * parts[kind].length;
    for (const [list, tier] of Object.entries(WALKED_LISTS[kind]) as [ListName, TierName][]) {
      const n = list === 'sweep' ? pages(size.entries) : pages(size.lists?.[list] ?? 0);
      // Page 1 of a discovery listing is read with discovery.
      const walked = DISCOVERY_LISTS[kind].includes(list) ? n - 1 : n;
      demand[tier] += walked * perDay(iv[tier]);
    }
    demand.hot += hot * hotN * perDay(iv.hot);
    demand.popular += (popular * parts[kind].length - (hot > 0 ? both * hotN : 0)) * perDay(iv.popular);
    demand.full += ((size.entries - popular) * parts[kind].length - (hot > 0 ? (hot - both) * hotN : 0)) * perDay(iv.full);
  }
  const total = TIERS.reduce((sum, tier) => sum + demand[tier], 0);
  return { ...demand, total };
}

/** The full-scale catalogue the defaults are sized for (estimates of the public Jikan's listings). */
export const FULL_SCALE: Readonly<Record<MediaKind, KindSize>> = {
  anime: {
    entries: 28_000,
    hot: 700,
    lists: {
      current: 400,
      seasonNow: 250,
      seasonUpcoming: 300,
      schedules: 300,
    },
    newPerDay: 10,
  },
  manga: {
    entries: 70_000,
    hot: 15_000,
    lists: { current: 15_000 },
    newPerDay: 40,
  },
};

/**
 * Where a key falls in an interval, in [0, 1): the same for the same key on every run, so that
 * seeded work spreads evenly over its interval (FNV-1a, 32 bits: http://www.isthe.com/chongo/tech/comp/fnv/).
 * @param key - A task key.
 */
export function phase(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}

/**
 * The season of an instant and the one after it, as `premiere` writes them (`"2026-fall"`).
 * @param now - Ms since the epoch.
 */
export function currentSeasons(now: number): [current: string, next: string] {
  const d = new Date(now);
  const year = d.getUTCFullYear();
  const q = Math.floor(d.getUTCMonth() / 3);
  return [`${year}-${SEASONS[q]}`, q === 3 ? `${year + 1}-${SEASONS[0]}` : `${year}-${SEASONS[q + 1]}`];
}
