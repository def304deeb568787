/**
 * Seasons (docs/specification.md: Jikan seasons, schedules, top lists and random picks): `GET /v1/seasons` (the archive), `/v1/seasons/{year}/{season}`, `/v1/seasons/now`
 * (the current season in Japan) and `/v1/seasons/upcoming` (every anime not yet aired).
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { ok } from '../internal/pipeline.js';
import { enumListParam, flagParam, optionalFlagParam, parseQuery, unapprovedParam } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { AiringFilter, SeasonQuery } from '../store.js';
import { ANIME_TYPES } from './anime.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { fullList, pagingShape, sfwShape } from './params.js';

/** A season of the year. */
export type Season = SeasonQuery['season'];

const SEASONS: readonly Season[] = ['winter', 'spring', 'summer', 'fall'];

/** The query of the season lists: `filter` (anime types, OR-ed), SFW, `unapproved`, `kids`, `continuing`, paging. */
export const seasonQuery = z
  .object({
    filter: enumListParam('filter', ANIME_TYPES),
    ...sfwShape(),
    unapproved: unapprovedParam('unapproved'),
    kids: optionalFlagParam('kids'),
    continuing: flagParam('continuing'),
    ...pagingShape(),
  })
  .transform((v) => ({
    filter: {
      page: v.page,
      limit: v.limit,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      approval: v.unapproved,
      kids: v.kids,
      types: v.filter,
    } satisfies AiringFilter,
    continuing: v.continuing,
  }));

/**
 * Parses the `{year}` path segment: 1000 to 2999 (docs/specification.md: Jikan query parameters).
 * @param value - The raw segment.
 * @throws {@link ApiError} 400 naming `year`.
 */
export function parseYear(value: string | undefined): number {
  const year = value !== undefined && /^\d{4}$/.test(value) ? Number(value) : NaN;
  if (!(year >= 1000 && year <= 2999)) throw ApiError.badParam('year', 'an integer from 1000 to 2999');
  return year;
}

/**
 * Parses the `{season}` path segment, case-insensitive.
 * @param value - The raw segment.
 * @throws {@link ApiError} 400 naming `season`.
 */
export function parseSeason(value: string | undefined): Season {
  const season = value?.toLowerCase() as Season | undefined;
  if (season === undefined || !SEASONS.includes(season)) throw ApiError.badParam('season', `one of: ${SEASONS.join(', ')}`);
  return season;
}

// Japan has no daylight saving time: UTC+9 all year. MAL's seasons follow Japanese broadcast dates.
const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/**
 * The anime season at an instant, in Japan time: winter is January–March, spring April–June,
 * summer July–September, fall October–December (docs/specification.md: Jikan seasons, schedules, top lists and random picks).
 * @param now - Milliseconds since the epoch.
 * @returns The year and season.
 * @example
 * ```ts
 * seasonAt(Date.UTC(2024, 2, 31, 15)); // { year: 2024, season: 'spring' } (already April 1 in Tokyo)
 * ```
 */
export function seasonAt(now: number): { year: number; season: Season } {
  const date = new Date(now + JST_OFFSET_MS);
  return { year: date.getUTCFullYear(), season: SEASONS[Math.floor(date.getUTCMonth() / 3)]! };
}

/** `GET /v1/seasons`: every year with anime and its seasons, newest first (short pagination, as Jikan). */
export const getSeasonsList: CatalogueHandler = async (_request, { store }) => {
  const data = await store.listSeasons();
  return ok({ pagination: { last_visible_page: 1, has_next_page: false }, data });
};

/** `GET /v1/seasons/{year}/{season}`: the anime of one season, most members first. */
export const getSeason: CatalogueHandler = async (request, { store }) => {
  const year = parseYear(request.params.year);
  const season = parseSeason(request.params.season);
  const { filter, continuing } = parseQuery(seasonQuery, request.query);
  return fullList(await store.getSeason({ ...filter, year, season, continuing }), filter);
};

/** `GET /v1/seasons/now`: the anime of the current season (by the injected clock, in Japan time). */
export const getSeasonNow: CatalogueHandler = async (request, { store, now }) => {
  const { filter, continuing } = parseQuery(seasonQuery, request.query);
  return fullList(await store.getSeason({ ...filter, ...seasonAt(now()), continuing }), filter);
};

/** `GET /v1/seasons/upcoming`: every anime not yet aired, most members first (`continuing` is accepted and has no effect). */
export const getSeasonUpcoming: CatalogueHandler = async (request, { store }) => {
  const { filter } = parseQuery(seasonQuery, request.query);
  return fullList(await store.getSeasonUpcoming(filter), filter);
};

/** The season routes; the literal paths precede `/:year/:season`. */
export const seasonRoutes: CatalogueRoute[] = [
  { path: '/v1/seasons', handler: getSeasonsList },
  { path: '/v1/seasons/now', handler: getSeasonNow, query: seasonQuery },
  { path: '/v1/seasons/upcoming', handler: getSeasonUpcoming, query: seasonQuery },
  { path: '/v1/seasons/:year/:season', handler: getSeason, query: seasonQuery },
];
