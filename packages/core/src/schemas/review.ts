/**
 * Reviews (docs/specification.md: Jikan response shapes; docs/specification.md: where the Jikan server differs from its document: manga reviews carry `chapters_read`; global and top reviews carry
 * the reviewed `entry`).
 * @module
 */
import { z } from 'zod';
import { animeMetaSchema, userMetaSchema } from './common.js';
import { reviewBodyFields } from './fields.js';

export { reactionsSchema } from './fields.js';

const reviewBase = z.object({
  user: userMetaSchema,
  mal_id: z.number().int(),
  url: z.string(),
  type: z.enum(['anime', 'manga']),
  ...reviewBodyFields,
});

/** A review of an anime (`/v1/anime/{id}/reviews`). */
export const animeReviewSchema = reviewBase.extend({ type: z.literal('anime'), episodes_watched: z.number().int().nullable() });
/** A review of a manga (`/v1/manga/{id}/reviews`). */
export const mangaReviewSchema = reviewBase.extend({ type: z.literal('manga'), chapters_read: z.number().int().nullable() });
/** An anime review with its entry (`/v1/reviews/anime`, `/v1/top/reviews?type=anime`). */
export const animeReviewWithEntrySchema = animeReviewSchema.extend({ entry: animeMetaSchema });
/** A manga review with its entry (`/v1/reviews/manga`, `/v1/top/reviews?type=manga`). */
export const mangaReviewWithEntrySchema = mangaReviewSchema.extend({ entry: animeMetaSchema });
/** Any review with its entry. */
export const reviewWithEntrySchema = z.union([animeReviewWithEntrySchema, mangaReviewWithEntrySchema]);

/** An anime review. */
export type AnimeReview = z.infer<typeof animeReviewSchema>;
/** A manga review. */
export type MangaReview = z.infer<typeof mangaReviewSchema>;
/** A review with its entry. */
export type ReviewWithEntry = z.infer<typeof reviewWithEntrySchema>;
