/**
 * `GET /v1/reviews/anime` and `/v1/reviews/manga`: recent reviews with their entries (short
 * pagination, as Jikan), with `preliminary`, `spoilers`, `sort` and SFW (by the reviewed entry);
 * and one entry's reviews, `GET /v1/anime/{id}/reviews` and `/v1/manga/{id}/reviews`.
 * @module
 */
import { z } from 'zod';
import { enumParam, flagParam, parseQuery } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { EntryReviewQuery, MediaKind, ReviewQuery } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { pageOr404, pageParam, pathId, sfwShape, shortList } from './params.js';
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

/**
 * The query of one entry's reviews: `page`, `preliminary` and `spoilers` (both default false) and
 * `sort` (docs/specification.md: Jikan routes and parameters). No SFW: the only entry involved is the requested root (spec, SFW rule 3).
 */
export const entryReviewsQuery = z
  .object({
    page: pageParam(),
    preliminary: flagParam('preliminary'),
    spoilers: flagParam('spoilers'),
    sort: enumParam('sort', REVIEW_SORTS),
  })
  .transform(
    (v): EntryReviewQuery => ({
      page: v.page,
      limit: REVIEW_PAGE_SIZE,
      preliminary: v.preliminary,
      spoilers: v.spoilers,
      sort: v.sort ?? 'mostVoted',
    }),
  );

/** `GET /v1/anime/{id}/reviews`: the anime's reviews, most voted first by default (short pagination). */
export const getAnimeReviews: CatalogueHandler = async (request, { store }) => {
  const animeId = pathId(request);
  const query = parseQuery(entryReviewsQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeReviews(animeId, query), query, 'short');
};

/** `GET /v1/manga/{id}/reviews`: the manga's reviews (short pagination). */
export const getMangaReviews: CatalogueHandler = async (request, { store }) => {
  const mangaId = pathId(request);
  const query = parseQuery(entryReviewsQuery, request.query);
  return pageOr404('manga', mangaId, await store.getMangaReviews(mangaId, query), query, 'short');
};

/** The review routes. */
export const reviewRoutes: CatalogueRoute[] = [
  { path: '/v1/reviews/anime', handler: getRecentAnimeReviews, query: reviewsQuery },
  { path: '/v1/reviews/manga', handler: getRecentMangaReviews, query: reviewsQuery },
  { path: '/v1/anime/:id/reviews', handler: getAnimeReviews, query: entryReviewsQuery },
  { path: '/v1/manga/:id/reviews', handler: getMangaReviews, query: entryReviewsQuery },
];
