/**
 * Producers (studios, licensors), magazines and genres (docs/specification.md: Jikan response shapes).
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema, linkSchema, titleSchema } from './common.js';

/** One producer, as `GET /v1/producers/{id}` returns it (server field order). */
export const producerSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  titles: z.array(titleSchema),
  images: commonImagesSchema,
  favorites: z.number().int(),
  established: z.string().nullable(),
  about: z.string().nullable(),
  count: z.number().int(),
});

/** `GET /v1/producers/{id}/full` data. */
export const producerFullSchema = producerSchema.extend({ external: z.array(linkSchema) });

/** A genre, theme or demographic with its entry count (`/v1/genres/anime|manga`). */
export const genreSchema = z.object({ mal_id: z.number().int(), name: z.string(), url: z.string(), count: z.number().int() });

/** A magazine with its entry count (`/v1/magazines`). */
export const magazineSchema = genreSchema;

/** One producer record. */
export type Producer = z.infer<typeof producerSchema>;
/** The full producer record. */
export type ProducerFull = z.infer<typeof producerFullSchema>;
/** One genre. */
export type Genre = z.infer<typeof genreSchema>;
/** One magazine. */
export type Magazine = z.infer<typeof magazineSchema>;
