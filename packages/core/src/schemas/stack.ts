/**
 * Interest stacks: user-made lists of anime and manga (a v1 addition; spec, "Further catalogue
 * endpoints"). The full stack lists its entries in the order the author gave them.
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema, relatedEntrySchema, userByIdSchema } from './common.js';

/** One stack as lists show it (`/v1/stacks`, `/v1/anime|manga/{id}/stacks`). */
export const stackSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.enum(['anime', 'manga', 'mixed']),
  user: userByIdSchema,
  images: commonImagesSchema,
  entries_count: z.number().int(),
  restacks: z.number().int(),
  created_at: z.string(),
});

/** An entry of a stack with the author's note. */
export const stackEntrySchema = relatedEntrySchema.extend({ comment: z.string().nullable() });

/** `GET /v1/stacks/{id}` data: the stack plus its entries in source order. */
export const stackFullSchema = stackSchema.extend({ entries: z.array(stackEntrySchema) });

/** A stack. */
export type Stack = z.infer<typeof stackSchema>;
/** A stack entry. */
export type StackEntry = z.infer<typeof stackEntrySchema>;
/** A full stack. */
export type StackFull = z.infer<typeof stackFullSchema>;
