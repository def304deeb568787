/**
 * Top lists: `GET /v1/top/anime`, `/v1/top/manga`, `/v1/top/characters`, `/v1/top/people`
 * and `/v1/top/reviews`.
 * @module
 */
import { z } from 'zod';
import { enumListParam, enumParam, flagParam, intParam, parseQuery } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { Paging, ReviewQuery, TopAnimeQuery, TopMangaQuery } from '../store.js';
import { ANIME_RATINGS, ANIME_TYPES } from './anime.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { MANGA_TYPES } from './manga.js';
import { fullList, pageParam, pagingShape, sfwShape, shortList } from './params.js';

/** The query of `GET /v1/top/anime`: `type` and `rating` (several each), `filter`, SFW, paging. */
export const topAnimeQuery = z
  .object({
    type: enumListParam('type', ANIME_TYPES),
    filter: enumParam('filter', { airing: 'airing', upcoming: 'upcoming', bypopularity: 'bypopularity', favorite: 'favorite' }),
    rating: enumListParam('rating', ANIME_RATINGS),
    ...sfwShape(),
    ...pagingShape(),
  })
  .transform(
    (v): TopAnimeQuery => ({
      types: v.type,
      filter: v.filter,
      ratings: v.rating,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      page: v.page,
      limit: v.limit,
    }),
  );

/** The query of `GET /v1/top/manga`: `type` (several), `filter`, SFW, paging. */
export const topMangaQuery = z
  .object({
    type: enumListParam('type', MANGA_TYPES),
    filter: enumParam('filter', { publishing: 'publishing', upcoming: 'upcoming', bypopularity: 'bypopularity', favorite: 'favorite' }),
    ...sfwShape(),
    ...pagingShape(),
  })
  .transform(
    (v): TopMangaQuery => ({
      types: v.type,
      filter: v.filter,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      page: v.page,
      limit: v.limit,
    }),
  );

/** The query of `GET /v1/top/characters` and `/v1/top/people`: paging only. */
export const topPagingQuery = z.object(pagingShape());

/** Jikan's page size of review lists (MAL shows 20 reviews a page). */
export const REVIEW_PAGE_SIZE = 20;

/**
 * The query of `GET /v1/top/reviews`: `type` (anime or manga, default anime), `preliminary` and
 * `spoilers` (both default on here, as Jikan), SFW, `page` and `limit` (default 20).
 */
export const topReviewsQuery = z
  .object({
    type: enumParam('type', { anime: 'anime', manga: 'manga' }),
    preliminary: flagParam('preliminary', true),
    spoilers: flagParam('spoilers', true),
    ...sfwShape(),
    page: pageParam(),
    // Jikan accepts `limit` here and ignores it; we honour it within the spec's bounds.
    limit: intParam('limit', 1, 50, REVIEW_PAGE_SIZE),
  })
  .transform(
    (v): ReviewQuery => ({
      type: v.type ?? 'anime',
      preliminary: v.preliminary,
      spoilers: v.spoilers,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      page: v.page,
      limit: v.limit,
    }),
  );

/** `GET /v1/top/anime`: approved anime by rank, or in the `filter`'s order (`TOP_ORDER`). */
export const getTopAnime: CatalogueHandler = async (request, { store }) => {
  const query = parseQuery(topAnimeQuery, request.query);
  return fullList(await store.getTopAnime(query), query);
};

/** `GET /v1/top/manga`: approved manga by rank, or in the `filter`'s order (`TOP_ORDER`). */
export const getTopManga: CatalogueHandler = async (request, { store }) => {
  const query = parseQuery(topMangaQuery, request.query);
  return fullList(await store.getTopManga(query), query);
};

/** `GET /v1/top/characters`: characters by favorites. */
export const getTopCharacters: CatalogueHandler = async (request, { store }) => {
  const paging: Paging = parseQuery(topPagingQuery, request.query);
  return fullList(await store.getTopCharacters(paging), paging);
};

/** `GET /v1/top/people`: people by favorites. */
export const getTopPeople: CatalogueHandler = async (request, { store }) => {
  const paging: Paging = parseQuery(topPagingQuery, request.query);
  return fullList(await store.getTopPeople(paging), paging);
};

/** `GET /v1/top/reviews`: the most-voted reviews of anime or manga (short pagination, as Jikan). */
export const getTopReviews: CatalogueHandler = async (request, { store }) => {
  const query = parseQuery(topReviewsQuery, request.query);
  return shortList(await store.getTopReviews(query), query);
};

/** The top-list routes. */
export const topRoutes: CatalogueRoute[] = [
  { path: '/v1/top/anime', handler: getTopAnime, query: topAnimeQuery },
  { path: '/v1/top/manga', handler: getTopManga, query: topMangaQuery },
  { path: '/v1/top/characters', handler: getTopCharacters, query: topPagingQuery },
  { path: '/v1/top/people', handler: getTopPeople, query: topPagingQuery },
  { path: '/v1/top/reviews', handler: getTopReviews, query: topReviewsQuery },
];
