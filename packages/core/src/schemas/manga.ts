/**
 * The manga record in Jikan v4 server field order (docs/specification.md: Jikan response shapes; docs/specification.md: where the Jikan server differs from its document: `title_synonyms` and the
 * deprecated `scored` copy of `score` are present on the server).
 * @module
 */
import { z } from 'zod';
import { imagesSchema, linkSchema, referenceSchema } from './common.js';
import { mediaAudienceFields, mediaGenreFields, mediaRunFields, mediaTitleFields } from './fields.js';
import { relationSchema } from './media.js';

const refs = z.array(referenceSchema);

/** One manga, as `GET /v1/manga/{id}` returns it in `data`. */
export const mangaSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  images: imagesSchema,
  ...mediaTitleFields,
  type: z.string().nullable(),
  chapters: z.number().int().nullable(),
  volumes: z.number().int().nullable(),
  ...mediaRunFields('publishing', 'published'),
  score: z.number().nullable(),
  scored: z.number().nullable(),
  ...mediaAudienceFields,
  authors: refs,
  serializations: refs,
  ...mediaGenreFields,
});

/** `GET /v1/manga/{id}/full` data: the manga plus relations and external links. */
export const mangaFullSchema = mangaSchema.extend({
  relations: z.array(relationSchema),
  external: z.array(linkSchema),
});

/** One manga record. */
export type Manga = z.infer<typeof mangaSchema>;
/** The full manga record. */
export type MangaFull = z.infer<typeof mangaFullSchema>;
