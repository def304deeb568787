/**
 * Anime episodes (docs/specification.md: Jikan response shapes) with the v1 additions `replies`, `synopsis` and a cover image
 * where one exists (spec, "Other resources"; `images.jpg.image_url` is null otherwise).
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema } from './common.js';

const nstr = z.string().nullable();

/** The titles, in both shapes of an episode. */
const titleFields = { title: z.string(), title_japanese: nstr, title_romanji: nstr };

/** The v1 additions that close both shapes of an episode. */
const closingFields = {
  synopsis: nstr,
  /** v1 addition; `null` when not known (Jikan v4 does not send it). */
  replies: z.number().int().nullable(),
  images: commonImagesSchema,
};

/** One element of `GET /v1/anime/{id}/episodes`. */
export const episodeSchema = z.object({
  mal_id: z.number().int(),
  url: nstr,
  ...titleFields,
  aired: nstr,
  score: z.number().nullable(),
  filler: z.boolean(),
  recap: z.boolean(),
  forum_url: nstr,
  ...closingFields,
});

/** `GET /v1/anime/{id}/episodes/{episode}` data; `duration` is in seconds. */
export const episodeDetailSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  ...titleFields,
  duration: z.number().int().nullable(),
  aired: nstr,
  filler: z.boolean(),
  recap: z.boolean(),
  ...closingFields,
});

/** An episode in a list. */
export type Episode = z.infer<typeof episodeSchema>;
/** One episode in detail. */
export type EpisodeDetail = z.infer<typeof episodeDetailSchema>;
