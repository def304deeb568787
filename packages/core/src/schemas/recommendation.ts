/**
 * Recommendations: per entry (with `url` and `votes`: docs/specification.md: where the Jikan server differs from its document) and the recent global list
 * (with `date`: docs/specification.md: where the Jikan server differs from its document).
 * @module
 */
import { z } from 'zod';
import { animeMetaSchema, userByIdSchema } from './common.js';

/** One element of `GET /v1/anime|manga/{id}/recommendations`. */
export const entryRecommendationSchema = z.object({ entry: animeMetaSchema, url: z.string(), votes: z.number().int() });

/** One element of `GET /v1/recommendations/anime|manga`: two entries recommended to each other. */
export const recentRecommendationSchema = z.object({
  /** Both ids joined by `-`, e.g. `"1-20"`. */
  mal_id: z.string(),
  entry: z.array(animeMetaSchema),
  content: z.string(),
  date: z.string(),
  user: userByIdSchema,
});

/** A recommendation of an entry. */
export type EntryRecommendation = z.infer<typeof entryRecommendationSchema>;
/** A recent user recommendation. */
export type RecentRecommendation = z.infer<typeof recentRecommendationSchema>;
