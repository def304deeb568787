/**
 * Seasons (docs/specification.md: Jikan seasons, schedules, top lists and random picks): `GET /v1/seasons` (the archive), `/v1/seasons/{year}/{season}`, `/v1/seasons/now`
 * (the current season in Japan) and `/v1/seasons/upcoming` (every anime not yet aired).
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../../edge/errors.js';
import { defineRoute, ok } from '../../edge/pipeline.js';
import { enumListParam, flagParam, optionalFlagParam } from '../../edge/query.js';
import { sfwMode } from '../../seam/sfw.js';
import type { AiringFilter } from '../queries.js';
import { SEASONS, type Season } from '../kinds.js';
import { ANIME_TYPES } from './anime.js';
import type { CatalogueContext, CatalogueRoute } from './context.js';
import { seasonAnime, seasonArchive, upcomingAnime } from '../airing.js';
import { fullList, pagingShape, sfwShape, unapprovedParam } from './params.js';
import { pageRow } from './rows.js';
import { animeListResponseSchema } from '../../schemas/anime.js';
import * as res from '../../schemas/responses.js';


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
      type: v.filter,
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

/** The season routes. */
export const seasonRoutes: CatalogueRoute[] = [
  {
    path: '/v1/seasons',
    work: 'search',
    response: res.seasonsResponseSchema,
    handler: async (_request, { records }) => ok({ pagination: { last_visible_page: 1, has_next_page: false }, data: await seasonArchive(records) }),
  },
  defineRoute<CatalogueContext, typeof seasonQuery>({
    path: '/v1/seasons/now',
    query: seasonQuery,
    response: animeListResponseSchema,
    work: 'search',
    handler: async ({ parsed: { filter, continuing } }, { records, now }) =>
      fullList(await seasonAnime(records, { ...filter, ...seasonAt(now()), continuing }), filter),
  }),
  pageRow('/v1/seasons/upcoming', 'full', { query: seasonQuery, response: animeListResponseSchema, paging: (q) => q.filter }, ({ filter }, { records }) => upcomingAnime(records, filter)),
  defineRoute<CatalogueContext, typeof seasonQuery>({
    path: '/v1/seasons/:year/:season',
    query: seasonQuery,
    response: animeListResponseSchema,
    work: 'search',
    handler: async ({ params, parsed: { filter, continuing } }, { records }) => {
      const season = { year: parseYear(params.year), season: parseSeason(params.season) };
      return fullList(await seasonAnime(records, { ...filter, ...season, continuing }), filter);
    },
  }),
];
