/**
 * The stored records that are not response shapes: the joins between entries (cast, staff,
 * relations) and the community content (reviews, news, articles, stacks) with their links kept as
 * ids. A store resolves them into the response shapes, so that every link is stored once and a
 * dataset can be checked for dangling ids. The demo dataset is validated against these.
 * @module
 */
import { z } from 'zod';
import { characterImagesSchema, commonImagesSchema, imagesSchema, linkSchema, trailerSchema, userByIdSchema, userMetaSchema } from './common.js';
import { animeSchema } from './anime.js';
import { characterSchema } from './character.js';
import { mangaSchema } from './manga.js';
import { animeStatisticsSchema, animeThemesSchema, mangaStatisticsSchema } from './media.js';
import { episodeSchema } from './episode.js';
import { forumTopicSchema } from './forum.js';
import { newsSchema } from './news.js';
import { articleSchema } from './article.js';
import { stackSchema } from './stack.js';
import { reviewBodyFields } from './fields.js';
import { animeVideosSchema, musicVideoSchema, promoVideoSchema } from './video.js';

const id = z.number().int();
const kind = z.enum(['anime', 'manga']);

/** A genre, theme or demographic of anime or manga, with its category (counts are derived). */
export const genreRecordSchema = z.object({
  kind,
  category: z.enum(['genres', 'explicit_genres', 'themes', 'demographics']),
  mal_id: id,
  name: z.string(),
  url: z.string(),
});

/** A character in an anime, with the voice actors by person id. */
export const animeCharacterRecordSchema = z.object({
  anime_id: id,
  character_id: id,
  role: z.string(),
  voice_actors: z.array(z.object({ person_id: id, language: z.string() })),
});

/** A character in a manga. */
export const mangaCharacterRecordSchema = z.object({ manga_id: id, character_id: id, role: z.string() });

/** A person on an anime's staff. */
export const animeStaffRecordSchema = z.object({ anime_id: id, person_id: id, positions: z.array(z.string()) });

/** A person who made a manga (`Story & Art`, `Story`, `Art`). */
export const mangaStaffRecordSchema = z.object({ manga_id: id, person_id: id, position: z.string() });

/** One directed relation between two entries (`Sequel`, `Adaptation`, …), in source order. */
export const relationRecordSchema = z.object({ from_type: kind, from_id: id, relation: z.string(), to_type: kind, to_id: id });

/** External links of an anime, manga or producer. */
export const externalRecordSchema = z.object({ type: z.enum(['anime', 'manga', 'producer']), mal_id: id, links: z.array(linkSchema) });

/** Streaming links of an anime. */
export const streamingRecordSchema = z.object({ anime_id: id, links: z.array(linkSchema) });

/** Theme songs of an anime. */
export const themesRecordSchema = animeThemesSchema.extend({ anime_id: id });

/** One episode of an anime with every field of the list and detail shapes. */
export const episodeRecordSchema = episodeSchema.extend({ anime_id: id, duration: z.number().int().nullable() });

/** All videos of an anime. */
export const videosRecordSchema = animeVideosSchema.extend({ anime_id: id });

/** Pictures of an anime, manga, character or person (characters and people show the JPG only). */
export const picturesRecordSchema = z.object({
  type: z.enum(['anime', 'manga', 'character', 'person']),
  mal_id: id,
  pictures: z.array(imagesSchema),
});

/** Statistics of an anime. */
export const animeStatisticsRecordSchema = animeStatisticsSchema.extend({ anime_id: id });
/** Statistics of a manga. */
export const mangaStatisticsRecordSchema = mangaStatisticsSchema.extend({ manga_id: id });

/** The moreinfo text of an anime or manga. */
export const moreinfoRecordSchema = z.object({ type: kind, mal_id: id, moreinfo: z.string().nullable() });

/** A user's recommendation of two entries to each other; per-entry votes count these. */
export const recommendationRecordSchema = z.object({
  type: kind,
  entry_ids: z.tuple([id, id]),
  content: z.string(),
  date: z.string(),
  user: userByIdSchema,
});

/** A review of an anime or manga. */
export const reviewRecordSchema = z.object({
  type: kind,
  entry_id: id,
  mal_id: id,
  url: z.string(),
  ...reviewBodyFields,
  /** Anime reviews: episodes watched; manga reviews: chapters read. */
  progress: z.number().int().nullable(),
  user: userMetaSchema,
});

/** A news item with its text, tags and related entries as ids. */
export const newsRecordSchema = newsSchema.extend({
  content: z.string(),
  tag_ids: z.array(id),
  anime_ids: z.array(id),
  manga_ids: z.array(id),
});

/** A news tag (counts are derived). */
export const newsTagRecordSchema = z.object({ mal_id: id, name: z.string(), url: z.string(), category: z.string() });

/** An article with its text, tags and related entries, characters and people as ids. */
export const articleRecordSchema = articleSchema.omit({ tags: true }).extend({
  content: z.string(),
  tag_ids: z.array(id),
  anime_ids: z.array(id),
  manga_ids: z.array(id),
  character_ids: z.array(id),
  person_ids: z.array(id),
});

/** An article tag (counts are derived). */
export const articleTagRecordSchema = z.object({ mal_id: id, name: z.string(), url: z.string() });

/** A stack with its entries as ids, in source order. */
export const stackRecordSchema = stackSchema.omit({ entries_count: true }).extend({
  entries: z.array(z.object({ type: kind, mal_id: id, comment: z.string().nullable() })),
});

/** A forum topic of an anime: an episode discussion thread. */
export const forumRecordSchema = forumTopicSchema.extend({ anime_id: id, episode: id });

/** When an anime or manga was last updated (for `updated_at` filtering of the ids lists). */
export const updateRecordSchema = z.object({ type: kind, mal_id: id, updated_at: z.string() });

/**
 * A field Jikan v4 does not send (a v1 addition, or one its OpenAPI document lists and its server
 * leaves out): optional on input, stored as `null` when absent, so that a record exactly as Jikan v4
 * serves it imports, and every stored record has every field.
 */
const absentIsNull = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

/**
 * An average score: out of 10 (spec, Anime object). Checked on input so that a record the API
 * could not sort or filter sensibly is rejected with its line, not stored.
 */
const outOfTen = z.number().min(0).max(10).nullable();

/**
 * A trailer as an import accepts it: the v1 statistics fields (`title` … `embeddable`) may be left
 * out, as Jikan v4 leaves them out, and are stored as `null`.
 */
export const trailerInputSchema = trailerSchema.extend({
  title: absentIsNull(z.string()),
  views: absentIsNull(z.number().int()),
  likes: absentIsNull(z.number().int()),
  dislikes: absentIsNull(z.number().int()),
  comment_count: absentIsNull(z.number().int()),
  published_at: absentIsNull(z.string()),
  duration: absentIsNull(z.string()),
  privacy_status: absentIsNull(z.string()),
  region_restriction: absentIsNull(z.record(z.string(), z.unknown())),
  embeddable: absentIsNull(z.boolean()),
});

/** An anime as an import accepts it: a Jikan v4 anime object; the trailer's v1 fields default to `null`. */
export const animeInputSchema = animeSchema.extend({ trailer: trailerInputSchema, score: outOfTen });

/** A manga as an import accepts it: a Jikan v4 manga object, with its scores out of 10. */
export const mangaInputSchema = mangaSchema.extend({ score: outOfTen, scored: outOfTen });

/**
 * A character as an import accepts it: Jikan v4 sends no small JPG (`images.jpg.small_image_url`),
 * which is stored as `null`.
 */
export const characterInputSchema = characterSchema.extend({
  images: characterImagesSchema.extend({ jpg: z.object({ image_url: z.string().nullable(), small_image_url: absentIsNull(z.string()) }) }),
});

/**
 * An episode record as an import accepts it: an element of Jikan v4's episode list with the anime's
 * id; the detail's `duration` and `synopsis` and the v1 additions `replies` and cover `images` may be
 * left out and are stored as `null` (no cover: `{ jpg: { image_url: null } }`).
 */
export const episodeRecordInputSchema = episodeRecordSchema.extend({
  duration: absentIsNull(z.number().int()),
  synopsis: absentIsNull(z.string()),
  replies: absentIsNull(z.number().int()),
  images: commonImagesSchema.default({ jpg: { image_url: null } }),
});

/** The videos of an anime as an import accepts them: trailers as {@link trailerInputSchema}. */
export const videosRecordInputSchema = videosRecordSchema.extend({
  promo: z.array(promoVideoSchema.extend({ trailer: trailerInputSchema })),
  music_videos: z.array(musicVideoSchema.extend({ video: trailerInputSchema })),
});

/** A genre record. */
export type GenreRecord = z.infer<typeof genreRecordSchema>;
/** An anime character join. */
export type AnimeCharacterRecord = z.infer<typeof animeCharacterRecordSchema>;
/** A manga character join. */
export type MangaCharacterRecord = z.infer<typeof mangaCharacterRecordSchema>;
/** An anime staff join. */
export type AnimeStaffRecord = z.infer<typeof animeStaffRecordSchema>;
/** A manga staff join. */
export type MangaStaffRecord = z.infer<typeof mangaStaffRecordSchema>;
/** A relation. */
export type RelationRecord = z.infer<typeof relationRecordSchema>;
/** External links. */
export type ExternalRecord = z.infer<typeof externalRecordSchema>;
/** Streaming links. */
export type StreamingRecord = z.infer<typeof streamingRecordSchema>;
/** Theme songs. */
export type ThemesRecord = z.infer<typeof themesRecordSchema>;
/** An episode. */
export type EpisodeRecord = z.infer<typeof episodeRecordSchema>;
/** Videos. */
export type VideosRecord = z.infer<typeof videosRecordSchema>;
/** Pictures. */
export type PicturesRecord = z.infer<typeof picturesRecordSchema>;
/** Anime statistics. */
export type AnimeStatisticsRecord = z.infer<typeof animeStatisticsRecordSchema>;
/** Manga statistics. */
export type MangaStatisticsRecord = z.infer<typeof mangaStatisticsRecordSchema>;
/** Moreinfo. */
export type MoreinfoRecord = z.infer<typeof moreinfoRecordSchema>;
/** A recommendation. */
export type RecommendationRecord = z.infer<typeof recommendationRecordSchema>;
/** A review. */
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;
/** A news item. */
export type NewsRecord = z.infer<typeof newsRecordSchema>;
/** A news tag. */
export type NewsTagRecord = z.infer<typeof newsTagRecordSchema>;
/** An article. */
export type ArticleRecord = z.infer<typeof articleRecordSchema>;
/** An article tag. */
export type ArticleTagRecord = z.infer<typeof articleTagRecordSchema>;
/** A stack. */
export type StackRecord = z.infer<typeof stackRecordSchema>;
/** A forum topic. */
export type ForumRecord = z.infer<typeof forumRecordSchema>;
/** An update time. */
export type UpdateRecord = z.infer<typeof updateRecordSchema>;
