/**
 * News: the Jikan entry news item (docs/specification.md: Jikan response shapes) and the v1 additions: the news list, full news with
 * related anime and manga, and news tags with counts (spec, "Further catalogue endpoints").
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema, relatedEntrySchema } from './common.js';
import { postHeadFields } from './fields.js';

/** A news tag reference. */
export const newsTagRefSchema = z.object({ mal_id: z.number().int(), name: z.string(), url: z.string() });

/** One news item, as lists (`/v1/news`, `/v1/anime|manga/{id}/news`) show it. */
export const newsSchema = z.object({
  ...postHeadFields,
  forum_url: z.string(),
  images: commonImagesSchema,
  comments: z.number().int(),
  excerpt: z.string(),
});

/** `GET /v1/news/{id}` data: the item plus its text, tags and related anime and manga. */
export const newsFullSchema = newsSchema.extend({
  content: z.string(),
  tags: z.array(newsTagRefSchema),
  related: z.object({ anime: z.array(relatedEntrySchema), manga: z.array(relatedEntrySchema) }),
});

/** One element of `GET /v1/news/tags`: a tag, its category and how many news items carry it. */
export const newsTagSchema = newsTagRefSchema.extend({ category: z.string(), count: z.number().int() });

/** A news item. */
export type News = z.infer<typeof newsSchema>;
/** A full news item. */
export type NewsFull = z.infer<typeof newsFullSchema>;
/** A news tag with its count. */
export type NewsTag = z.infer<typeof newsTagSchema>;
