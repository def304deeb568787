/**
 * Pieces shared by anime and manga detail sub-resources: relations, external links, pictures,
 * moreinfo and score statistics (docs/specification.md: Jikan response shapes, as the server sends them: docs/specification.md: where the Jikan server differs from its document).
 * @module
 */
import { z } from 'zod';
import { imagesSchema, linkSchema, relatedEntrySchema } from './common.js';
import { listStatusCounts } from './fields.js';

/** One relation group: the kind of relation and the entries it points at (v1: with images and media type). */
export const relationSchema = z.object({ relation: z.string(), entry: z.array(relatedEntrySchema) });

/** Links to sites about an entry or producer (`external`), or where to watch it (`streaming`). */
export const externalLinksSchema = z.array(linkSchema);

/** One picture of an anime or manga: server shape, JPG and WebP in three sizes (docs/specification.md: where the Jikan server differs from its document). */
export const mediaPictureSchema = imagesSchema;

/** The `moreinfo` text of an anime or manga. */
export const moreinfoSchema = z.object({ moreinfo: z.string().nullable() });

/** How many users gave each score from 1 to 10. */
export const scoreVotesSchema = z.object({ score: z.number().int(), votes: z.number().int(), percentage: z.number() });

/**
 * List statistics: who is at it (`watching`, `reading`), the counts both kinds share, who plans to
 * (`plan_to_watch`, `plan_to_read`), the total and the score distribution.
 * @param current - The name of the first count.
 * @param planned - The name of the planned count.
 */
const statisticsSchema = <C extends string, P extends string>(current: C, planned: P) =>
  z.object({
    ...({ [current]: z.number().int() } as Record<C, z.ZodNumber>),
    ...listStatusCounts,
    ...({ [planned]: z.number().int() } as Record<P, z.ZodNumber>),
    total: z.number().int(),
    scores: z.array(scoreVotesSchema),
  });

/** `GET /v1/anime/{id}/statistics` data. */
export const animeStatisticsSchema = statisticsSchema('watching', 'plan_to_watch');

/** `GET /v1/manga/{id}/statistics` data. */
export const mangaStatisticsSchema = statisticsSchema('reading', 'plan_to_read');

/** Opening and ending theme songs of an anime. */
export const animeThemesSchema = z.object({ openings: z.array(z.string()), endings: z.array(z.string()) });

/** One relation group. */
export type Relation = z.infer<typeof relationSchema>;
/** One picture of an anime or manga. */
export type MediaPicture = z.infer<typeof mediaPictureSchema>;
/** The moreinfo object. */
export type Moreinfo = z.infer<typeof moreinfoSchema>;
/** Anime statistics. */
export type AnimeStatistics = z.infer<typeof animeStatisticsSchema>;
/** Manga statistics. */
export type MangaStatistics = z.infer<typeof mangaStatisticsSchema>;
/** Anime theme songs. */
export type AnimeThemes = z.infer<typeof animeThemesSchema>;
