/**
 * Featured articles (a v1 addition; spec, "Further catalogue endpoints"), shaped like news.
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema, relatedEntrySchema } from './common.js';
import { postHeadFields } from './fields.js';

/** An article tag reference. */
export const articleTagRefSchema = z.object({ mal_id: z.number().int(), name: z.string(), url: z.string() });

/** One article as lists show it (`/v1/articles`, `/v1/anime/{id}/articles`, …). */
export const articleSchema = z.object({
  ...postHeadFields,
  images: commonImagesSchema,
  excerpt: z.string(),
  views: z.number().int(),
  comments: z.number().int(),
  tags: z.array(articleTagRefSchema),
});

/** `GET /v1/articles/{id}` data: the article plus its text and related anime and manga. */
export const articleFullSchema = articleSchema.extend({
  content: z.string(),
  related: z.object({ anime: z.array(relatedEntrySchema), manga: z.array(relatedEntrySchema) }),
});

/** One element of `GET /v1/articles/tags`. */
export const articleTagSchema = articleTagRefSchema.extend({ count: z.number().int() });

/** An article. */
export type Article = z.infer<typeof articleSchema>;
/** A full article. */
export type ArticleFull = z.infer<typeof articleFullSchema>;
/** An article tag with its count. */
export type ArticleTag = z.infer<typeof articleTagSchema>;
