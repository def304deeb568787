/**
 * Seasons, the upcoming list and schedules (docs/specification.md: Jikan seasons, schedules, top
 * lists and random picks): the season archive, one season's anime (with `continuing`), the
 * not-yet-aired anime and the airing TV anime by broadcast day.
 * @module
 */
import type { AiringFilter, Page, ScheduleQuery, SeasonQuery } from './queries.js';
import type { Anime } from '../schemas/anime.js';
import type { SeasonArchive } from '../schemas/catalogue-lists.js';
import { SEASONS } from './kinds.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { approvalWhere } from './kinds.js';
import { BY_ID } from './named.js';
import { sfwWhere, slice } from './shared.js';

/** The Kids demographic (MAL genre id), which the `kids` filter tests. */
const KIDS = 15;
/** Most members first, ties by `mal_id`. */
const MOST_MEMBERS: readonly OrderKey[] = [{ field: 'members', dir: 'desc' }, BY_ID];
/** Fewest members first, ties by `mal_id` (schedules). */
const FEWEST_MEMBERS: readonly OrderKey[] = [{ field: 'members', dir: 'asc' }, BY_ID];

/** The conditions of the filters the season, upcoming and schedule lists share. */
function airingWhere(f: AiringFilter): Condition[] {
  const where = [...approvalWhere(f.approval), ...sfwWhere(f.sfw)];
  if (f.kids !== undefined) where.push(f.kids ? { field: 'tags', op: 'has', value: KIDS } : { field: 'tags', op: 'hasNone', values: [KIDS] });
  if (f.type) where.push({ field: 'type', op: 'in', values: f.type });
  return where;
}

/**
 * The anime a season lists: those that premiered in it, and with `continuing` also those still
 * airing that began before it and had not ended by its first day.
 */
function seasonWhere(q: SeasonQuery): Condition {
  const premiered: Condition = { field: 'season', op: 'eq', value: `${q.year}-${q.season}` };
  if (!q.continuing) return premiered;
  const start = `${q.year}-${String(SEASONS.indexOf(q.season) * 3 + 1).padStart(2, '0')}-01`;
  const running: Condition[] = [
    { field: 'airing', op: 'eq', value: true },
    { field: 'start_day', op: 'lt', value: start },
  ];
  return {
    op: 'any',
    of: [[premiered], [...running, { field: 'end_day', op: 'null' }], [...running, { field: 'end_day', op: 'gte', value: start }]],
  };
}

/**
 * Years with anime, newest first, each with its seasons in calendar order (`GET /v1/seasons`).
 * @param records - The record store.
 */
export async function seasonArchive(records: CatalogueStore): Promise<SeasonArchive[]> {
  const years = new Map<number, Set<string>>();
  for (const [value] of await records.tally('anime', 'season')) {
    const s = String(value);
    const cut = s.lastIndexOf('-');
    const year = Number(s.slice(0, cut));
    const set = years.get(year) ?? new Set<string>();
    set.add(s.slice(cut + 1));
    years.set(year, set);
  }
  return [...years]
    .sort((a, b) => b[0] - a[0])
    .map(([year, set]): SeasonArchive => ({ year, seasons: SEASONS.filter((s) => set.has(s)) }));
}

/**
 * Anime of one season, most members first (`GET /v1/seasons/{year}/{season}` and `/now`).
 * @param records - The record store.
 * @param q - The season and the filters.
 */
export function seasonAnime(records: CatalogueStore, q: SeasonQuery): Promise<Page<Anime>> {
  return records.query('anime', { where: [seasonWhere(q), ...airingWhere(q)], orderBy: MOST_MEMBERS, ...slice(q) });
}

/**
 * Every not-yet-aired anime, most members first (`GET /v1/seasons/upcoming`).
 * @param records - The record store.
 * @param q - The filters.
 */
export function upcomingAnime(records: CatalogueStore, q: AiringFilter): Promise<Page<Anime>> {
  return records.query('anime', { where: [{ field: 'status', op: 'eq', value: 'Not yet aired' }, ...airingWhere(q)], orderBy: MOST_MEMBERS, ...slice(q) });
}

/**
 * Currently airing TV anime by broadcast day, fewest members first (`GET /v1/schedules`).
 * @param records - The record store.
 * @param q - The day and the filters.
 */
export function scheduledAnime(records: CatalogueStore, q: ScheduleQuery): Promise<Page<Anime>> {
  const where: Condition[] = [
    { field: 'type', op: 'eq', value: 'TV' },
    { field: 'status', op: 'eq', value: 'Currently Airing' },
    ...(q.day ? [{ field: 'broadcast', op: 'eq', value: q.day } as const] : []),
    ...airingWhere(q),
  ];
  return records.query('anime', { where, orderBy: FEWEST_MEMBERS, ...slice(q) });
}
