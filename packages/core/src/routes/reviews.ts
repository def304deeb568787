/**
 * `GET /v1/reviews/anime` and `/v1/reviews/manga`: recent reviews with their entries (short
 * pagination, as Jikan), with `preliminary`, `spoilers`, `sort` and SFW (by the reviewed entry).
 * @module
 */
import { z } from 'zod';
import { enumParam, flagParam, parseQuery } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { MediaKind, ReviewQuery } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { pageParam, sfwShape, shortList } from './params.js';
import { REVIEW_PAGE_SIZE } from './top.js';

/** `sort` values, case-insensitive, mapped to Jikan's spelling. */
export const REVIEW_SORTS = { mostvoted: 'mostVoted', newest: 'newest', oldest: 'oldest' } as const;

/** The query of the review lists: `page`, `preliminary` and `spoilers` (default off), `sort`, SFW. */
export const reviewsQuery = z
  .object({
    page: pageParam(),
    preliminary: flagParam('preliminary'),
    spoilers: flagParam('spoilers'),
    sort: enumParam('sort', REVIEW_SORTS),
    ...sfwShape(),
  })
  .transform((v) => ({
    page: v.page,
    limit: REVIEW_PAGE_SIZE,
    preliminary: v.preliminary,
    spoilers: v.spoilers,
    sort: v.sort ?? ('mostVoted' as const),
    sfw: sfwMode(v.sfw, v['sfw-strict']),
  }));

function reviews(type: MediaKind): CatalogueHandler {
  return async (request, { store }) => {
    const query: ReviewQuery = { ...parseQuery(reviewsQuery, request.query), type };
    return shortList(await store.getReviews(query), query);
  };
}

/** `GET /v1/reviews/anime`: anime reviews. */
export const getRecentAnimeReviews: CatalogueHandler = reviews('anime');

/** `GET /v1/reviews/manga`: manga reviews. */
export const getRecentMangaReviews: CatalogueHandler = reviews('manga');

/** The review routes. */
export const reviewRoutes: CatalogueRoute[] = [
  { path: '/v1/reviews/anime', handler: getRecentAnimeReviews, query: reviewsQuery },
  { path: '/v1/reviews/manga', handler: getRecentMangaReviews, query: reviewsQuery },
];
