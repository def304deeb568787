/**
 * `GET /v1/schedules`: TV anime currently airing, by broadcast day (docs/specification.md: Jikan seasons, schedules, top lists and random picks), with `kids`,
 * `unapproved`, SFW and paging.
 * @module
 */
import { z } from 'zod';
import { enumParam, optionalFlagParam, parseQuery } from '../../edge/query.js';
import { sfwMode } from '../../seam/sfw.js';
import { animeListResponseSchema } from '../../schemas/anime.js';
import type { ScheduleDay, ScheduleQuery } from '../queries.js';
import { WEEKDAYS } from '../kinds.js';
import type { CatalogueRoute } from './context.js';
import { scheduledAnime } from '../airing.js';
import { fullList, pagingShape, sfwShape, unapprovedParam } from './params.js';
import { pageRow } from './rows.js';

/** `filter` values: the weekdays, `other` (not weekly) and `unknown`. */
export const SCHEDULE_DAYS = Object.fromEntries([...WEEKDAYS, 'other', 'unknown'].map((d) => [d, d])) as { readonly [D in ScheduleDay]: D };

/** The query of `GET /v1/schedules`. */
export const scheduleQuery = z
  .object({
    filter: enumParam('filter', SCHEDULE_DAYS),
    kids: optionalFlagParam('kids'),
    ...sfwShape(),
    unapproved: unapprovedParam('unapproved'),
    ...pagingShape(),
  })
  .transform(
    (v): ScheduleQuery => ({
      day: v.filter,
      kids: v.kids,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      approval: v.unapproved,
      page: v.page,
      limit: v.limit,
    }),
  );

/** The schedule routes; `/v1/schedules/{filter}` takes the day from the path instead of the query. */
export const scheduleRoutes: CatalogueRoute[] = [
  pageRow('/v1/schedules', 'full', { query: scheduleQuery, response: animeListResponseSchema }, (query, { records }) => scheduledAnime(records, query)),
  {
    path: '/v1/schedules/:filter',
    query: scheduleQuery,
    work: 'search',
    response: animeListResponseSchema,
    handler: async (request, { records }) => {
      const query = parseQuery(scheduleQuery, { ...request.query, filter: request.params.filter });
      return fullList(await scheduledAnime(records, query), query);
    },
  },
];
