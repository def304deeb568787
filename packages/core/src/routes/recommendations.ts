/**
 * `GET /v1/recommendations/anime` and `/v1/recommendations/manga`: recent user recommendations,
 * newest first (short pagination, as Jikan). With SFW, a pair is dropped when either entry is filtered.
 * @module
 */
import { z } from 'zod';
import { parseQuery } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { MediaKind } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { pageParam, sfwShape, shortList } from './params.js';

/** Jikan's page size of the recent recommendations (MAL shows 100 a page). */
export const RECOMMENDATION_PAGE_SIZE = 100;

/** The query of the recent recommendations: `page`, SFW. */
export const recentRecommendationsQuery = z
  .object({ page: pageParam(), ...sfwShape() })
  .transform((v) => ({ page: v.page, limit: RECOMMENDATION_PAGE_SIZE, sfw: sfwMode(v.sfw, v['sfw-strict']) }));

function recentRecommendations(type: MediaKind): CatalogueHandler {
  return async (request, { store }) => {
    const query = parseQuery(recentRecommendationsQuery, request.query);
    return shortList(await store.getRecentRecommendations({ ...query, type }), query);
  };
}

/** `GET /v1/recommendations/anime`: recent anime recommendations. */
export const getRecentAnimeRecommendations: CatalogueHandler = recentRecommendations('anime');

/** `GET /v1/recommendations/manga`: recent manga recommendations. */
export const getRecentMangaRecommendations: CatalogueHandler = recentRecommendations('manga');

/** The recent-recommendation routes. */
export const recommendationRoutes: CatalogueRoute[] = [
  { path: '/v1/recommendations/anime', handler: getRecentAnimeRecommendations, query: recentRecommendationsQuery },
  { path: '/v1/recommendations/manga', handler: getRecentMangaRecommendations, query: recentRecommendationsQuery },
];
