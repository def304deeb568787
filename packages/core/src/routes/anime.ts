/**
 * `GET /v1/anime` (search) and `GET /v1/anime/{id}`.
 * @module
 */
import { z } from 'zod';
import {
  dateParam,
  enumListParam,
  enumParam,
  flagParam,
  idListParam,
  idParam,
  intParam,
  letterParam,
  numberParam,
  textParam,
  unapprovedParam,
} from '../query.js';
import { sfwMode } from '../sfw.js';
import type { AnimeSearch } from '../store.js';
import { ANIME, orderByValues } from '../catalogue/kinds.js';
import type { CatalogueRoute } from './context.js';
import { pageRow } from './rows.js';

export { ANIME_RATINGS, ANIME_STATUSES, ANIME_TYPES } from '../catalogue/kinds.js';

/** The query of `GET /v1/anime`, every parameter of the spec with its bounds. */
export const animeSearchQuery = z
  .object({
    q: textParam('q', 200),
    page: intParam('page', 1, 1000, 1),
    limit: intParam('limit', 1, 50, 25),
    type: enumListParam('type', ANIME.types),
    status: enumParam('status', ANIME.statuses),
    rating: enumListParam('rating', ANIME.ratings),
    sfw: flagParam('sfw'),
    'sfw-strict': flagParam('sfw-strict'),
    unapproved: unapprovedParam('unapproved'),
    score: numberParam('score', 1, 9.99),
    min_score: numberParam('min_score', 0, 10),
    max_score: numberParam('max_score', 1, 10),
    genres: idListParam('genres'),
    genres_exclude: idListParam('genres_exclude'),
    producers: idListParam('producers'),
    // Jikan's server also takes one producer id as `producer`, never together with `producers` (docs/specification.md: Jikan routes and parameters).
    producer: idParam('producer'),
    order_by: enumParam('order_by', orderByValues(ANIME.orderBy)),
    sort: enumParam('sort', { asc: 'asc', desc: 'desc' }),
    letter: letterParam('letter'),
    start_date: dateParam('start_date'),
    end_date: dateParam('end_date'),
  })
  .superRefine((v, ctx) => {
    if (v.min_score !== undefined && v.max_score !== undefined && v.min_score > v.max_score) {
      ctx.addIssue({ code: 'custom', message: 'min_score must be less than or equal to max_score' });
    }
    if (v.producer !== undefined && v.producers !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'producer cannot be combined with producers: give one id as producer or a list as producers' });
    }
    if (v.start_date && v.end_date && v.start_date.first > v.end_date.last) {
      ctx.addIssue({ code: 'custom', message: 'start_date must not be after end_date' });
    }
  })
  .transform(
    (v): AnimeSearch => ({
      q: v.q,
      page: v.page,
      limit: v.limit,
      types: v.type,
      status: v.status,
      ratings: v.rating,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      approval: v.unapproved,
      score: v.score,
      minScore: v.min_score,
      maxScore: v.max_score,
      genres: v.genres,
      genresExclude: v.genres_exclude,
      producers: v.producer !== undefined ? [v.producer] : v.producers,
      orderBy: v.order_by,
      sort: v.sort ?? 'asc',
      letter: v.letter,
      startDate: v.start_date,
      endDate: v.end_date,
    }),
  );

/** The anime search route (one anime and its sub-resources: `anime-details.ts`). */
export const animeRoutes: CatalogueRoute[] = [
  pageRow('/v1/anime', 'full', { query: animeSearchQuery }, (search, { catalogue }) => catalogue.searchAnime(search)),
];
