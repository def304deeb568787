/**
 * Top lists: `GET /v1/top/anime`, `/v1/top/manga`, `/v1/top/characters`, `/v1/top/people`
 * and `/v1/top/reviews`.
 * @module
 */
import { z } from 'zod';
import { enumListParam, enumParam, flagParam, intParam } from '../../edge/query.js';
import type { ReviewQuery, TopAnimeQuery, TopMangaQuery } from '../queries.js';
import { ANIME_RATINGS, ANIME_TYPES } from './anime.js';
import type { CatalogueRoute } from './context.js';
import { topReviews } from '../feeds.js';
import { topAnime, topFavorited, topManga } from '../top.js';
import { MANGA_TYPES } from './manga.js';
import { pageParam, pagingShape, sfwAndPage, sfwShape } from './params.js';
import { pageRow } from './rows.js';
import { animeListResponseSchema } from '../../schemas/anime.js';
import * as res from '../../schemas/responses.js';

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
      type: v.type,
      filter: v.filter,
      rating: v.rating,
      ...sfwAndPage(v),
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
      type: v.type,
      filter: v.filter,
      ...sfwAndPage(v),
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
      ...sfwAndPage(v),
    }),
  );

/** The top-list routes: anime and manga by rank or in the `filter`'s order (`TOP_ORDER`), characters and people by favorites, the most-voted reviews (short pagination, as Jikan). */
export const topRoutes: CatalogueRoute[] = [
  pageRow('/v1/top/anime', 'full', { query: topAnimeQuery, response: animeListResponseSchema }, (query, { records }) => topAnime(records, query)),
  pageRow('/v1/top/manga', 'full', { query: topMangaQuery, response: res.mangaListResponseSchema }, (query, { records }) => topManga(records, query)),
  pageRow('/v1/top/characters', 'full', { query: topPagingQuery, response: res.characterListResponseSchema }, (paging, { records }) => topFavorited(records, 'characters', paging)),
  pageRow('/v1/top/people', 'full', { query: topPagingQuery, response: res.personListResponseSchema }, (paging, { records }) => topFavorited(records, 'people', paging)),
  pageRow('/v1/top/reviews', 'short', { query: topReviewsQuery, response: res.topReviewsResponseSchema }, (query, { records }) => topReviews(records, query)),
];
