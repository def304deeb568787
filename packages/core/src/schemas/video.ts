/**
 * Anime videos: promos, episode videos and music videos (docs/specification.md: Jikan response shapes). Promos and music
 * videos use the trailer object, which carries the v1 statistics fields (spec, Anime object).
 * @module
 */
import { z } from 'zod';
import { commonImagesSchema, trailerSchema } from './common.js';
import { arraysOf } from './fields.js';

/** A promotional video. */
export const promoVideoSchema = z.object({ title: z.string(), trailer: trailerSchema });

/** An episode video (`/v1/anime/{id}/videos` and `/videos/episodes`). */
export const episodeVideoSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  title: z.string(),
  episode: z.string(),
  images: commonImagesSchema,
});

/** A music video with the song's title and artist. */
export const musicVideoSchema = z.object({
  title: z.string(),
  video: trailerSchema,
  meta: z.object({ title: z.string().nullable(), author: z.string().nullable() }),
});

/** `GET /v1/anime/{id}/videos` data. */
export const animeVideosSchema = z.object(arraysOf({ promo: promoVideoSchema, episodes: episodeVideoSchema, music_videos: musicVideoSchema }));

/** A promotional video. */
export type PromoVideo = z.infer<typeof promoVideoSchema>;
/** An episode video. */
export type EpisodeVideo = z.infer<typeof episodeVideoSchema>;
/** A music video. */
export type MusicVideo = z.infer<typeof musicVideoSchema>;
/** All videos of an anime. */
export type AnimeVideos = z.infer<typeof animeVideosSchema>;
