/**
 * The anime record, in Jikan v4 server field order (spec, "Anime object"; docs/specification.md: Jikan response shapes).
 * @module
 */
import { z } from 'zod';
import { broadcastSchema, dataOf, imagesSchema, listOf, referenceSchema, linkSchema, trailerSchema } from './common.js';
import { mediaAudienceFields, mediaGenreFields, mediaRunFields, mediaTitleFields } from './fields.js';
import { animeThemesSchema, relationSchema } from './media.js';

const refs = z.array(referenceSchema);

/** One anime, as `GET /v1/anime/{id}` returns it in `data`. */
export const animeSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  images: imagesSchema,
  trailer: trailerSchema,
  ...mediaTitleFields,
  type: z.string(),
  source: z.string(),
  episodes: z.number().int().nullable(),
  ...mediaRunFields('airing', 'aired'),
  duration: z.string().nullable(),
  rating: z.string().nullable(),
  score: z.number().nullable(),
  ...mediaAudienceFields,
  season: z.enum(['spring', 'summer', 'fall', 'winter']).nullable(),
  year: z.number().int().nullable(),
  broadcast: broadcastSchema,
  producers: refs,
  licensors: refs,
  studios: refs,
  ...mediaGenreFields,
});

/**
 * `GET /v1/anime/{id}/full` data: the anime plus relations, theme songs, external and streaming
 * links, and the v1 addition `moreinfo` (spec, Anime object).
 */
export const animeFullSchema = animeSchema.extend({
  relations: z.array(relationSchema),
  theme: animeThemesSchema,
  external: z.array(linkSchema),
  streaming: z.array(linkSchema),
  moreinfo: z.string().nullable(),
});

/** `GET /v1/anime/{id}`. */
export const animeResponseSchema = dataOf(animeSchema);
/** `GET /v1/anime`. */
export const animeListResponseSchema = listOf(animeSchema);

/** One anime record. */
export type Anime = z.infer<typeof animeSchema>;
/** The full anime record. */
export type AnimeFull = z.infer<typeof animeFullSchema>;
