/**
 * `GET /v1/recommendations/anime` and `/v1/recommendations/manga`: recent user recommendations,
 * newest first (short pagination, as Jikan). With SFW, a pair is dropped when either entry is filtered.
 * @module
 */
import { z } from 'zod';
import { sfwMode } from '../../seam/sfw.js';
import type { CatalogueRoute } from './context.js';
import { recentRecommendations } from '../feeds.js';
import { pageParam, sfwShape } from './params.js';
import { pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** Jikan's page size of the recent recommendations (MAL shows 100 a page). */
export const RECOMMENDATION_PAGE_SIZE = 100;

/** The query of the recent recommendations: `page`, SFW. */
export const recentRecommendationsQuery = z
  .object({ page: pageParam(), ...sfwShape() })
  .transform((v) => ({ page: v.page, limit: RECOMMENDATION_PAGE_SIZE, sfw: sfwMode(v.sfw, v['sfw-strict']) }));

/** The recent-recommendation routes. */
export const recommendationRoutes: CatalogueRoute[] = (['anime', 'manga'] as const).map((type) =>
  pageRow(`/v1/recommendations/${type}`, 'short', { query: recentRecommendationsQuery, response: res.recentRecommendationsResponseSchema }, (query, { records }) =>
    recentRecommendations(records, { ...query, type }),
  ),
);
