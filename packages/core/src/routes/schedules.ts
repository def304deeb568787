/**
 * `GET /v1/schedules`: TV anime currently airing, by broadcast day (docs/specification.md: Jikan seasons, schedules, top lists and random picks), with `kids`,
 * `unapproved`, SFW and paging.
 * @module
 */
import { z } from 'zod';
import { enumParam, optionalFlagParam, parseQuery, unapprovedParam } from '../query.js';
import { sfwMode } from '../sfw.js';
import { animeListResponseSchema } from '../schemas/anime.js';
import type { ScheduleQuery } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { fullList, pagingShape, sfwShape } from './params.js';

/** `filter` values: the weekdays, `other` (not weekly) and `unknown`. */
export const SCHEDULE_DAYS = {
  monday: 'monday',
  tuesday: 'tuesday',
  wednesday: 'wednesday',
  thursday: 'thursday',
  friday: 'friday',
  saturday: 'saturday',
  sunday: 'sunday',
  other: 'other',
  unknown: 'unknown',
} as const;

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

/** `GET /v1/schedules`: airing TV anime of a broadcast day, or of every day. */
export const getSchedules: CatalogueHandler = async (request, { store }) => {
  const query = parseQuery(scheduleQuery, request.query);
  return fullList(await store.getSchedules(query), query);
};

/** `GET /v1/schedules/{filter}`: the day as a path segment, as Jikan's server also accepts. */
export const getSchedulesByDay: CatalogueHandler = async (request, { store }) => {
  const query = parseQuery(scheduleQuery, { ...request.query, filter: request.params.filter });
  return fullList(await store.getSchedules(query), query);
};

/** The schedule routes. */
export const scheduleRoutes: CatalogueRoute[] = [
  { path: '/v1/schedules', handler: getSchedules, query: scheduleQuery },
  { path: '/v1/schedules/:filter', handler: getSchedulesByDay, query: scheduleQuery, response: animeListResponseSchema },
];
