/**
 * Forum topics (docs/specification.md: Jikan response shapes). The v1 anime forum serves episode discussion threads only.
 * @module
 */
import { z } from 'zod';
import { postHeadFields } from './fields.js';

/** One element of `GET /v1/anime/{id}/forum`. */
export const forumTopicSchema = z.object({
  ...postHeadFields,
  comments: z.number().int(),
  last_comment: z.object({
    url: z.string(),
    author_username: z.string(),
    author_url: z.string(),
    date: z.string().nullable(),
  }),
});

/** One forum topic. */
export type ForumTopic = z.infer<typeof forumTopicSchema>;
