/**
 * `GET /v1/anime` (search) and `GET /v1/anime/{id}`.
 * @module
 */
import { z } from 'zod';
import { enumListParam, idListParam, idParam } from '../../edge/query.js';
import type { AnimeOrderBy, AnimeSearch } from '../queries.js';
import { ANIME } from '../kinds.js';
import type { CatalogueRoute } from './context.js';
import { searchEntries } from '../media-search.js';
import { checkMediaRanges, mediaSearchShape, toMediaSearch } from './media-query.js';
import { pageRow } from './rows.js';
import { animeListResponseSchema } from '../../schemas/anime.js';

export { ANIME_RATINGS, ANIME_STATUSES, ANIME_TYPES } from '../kinds.js';

/** The query of `GET /v1/anime`, every parameter of the spec with its bounds. */
export const animeSearchQuery = z
  .object(
    mediaSearchShape(
      ANIME,
      { rating: enumListParam('rating', ANIME.ratings) },
      {
        producers: idListParam('producers'),
        // Jikan's server also takes one producer id as `producer`, never together with `producers` (docs/specification.md: Jikan routes and parameters).
        producer: idParam('producer'),
      },
    ),
  )
  .superRefine((v, ctx) => {
    checkMediaRanges(v, ctx);
    if (v.producer !== undefined && v.producers !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'producer cannot be combined with producers: give one id as producer or a list as producers' });
    }
  })
  .transform(
    (v): AnimeSearch => ({
      ...toMediaSearch<AnimeOrderBy>(v),
      rating: v.rating,
      producers: v.producer !== undefined ? [v.producer] : v.producers,
    }),
  );

/** The anime search route (one anime and its sub-resources: `anime-details.ts`). */
export const animeRoutes: CatalogueRoute[] = [
  pageRow('/v1/anime', 'full', { query: animeSearchQuery, response: animeListResponseSchema }, (search, { records }) => searchEntries(records, ANIME, search)),
];
