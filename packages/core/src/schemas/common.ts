/**
 * Building blocks shared by the response shapes (docs/specification.md: Jikan response shapes). Every shape is defined once here
 * in zod; the TypeScript types, the response-shape tests and the OpenAPI document derive from it.
 * @module
 */
import { z } from 'zod';

const url = z.string();
const nstr = z.string().nullable();
const nint = z.number().int().nullable();

/** JPG and WebP image URLs in three sizes (anime and manga). */
export const imagesSchema = z.object({
  jpg: z.object({ image_url: nstr, small_image_url: nstr, large_image_url: nstr }),
  webp: z.object({ image_url: nstr, small_image_url: nstr, large_image_url: nstr }),
});

/** A title with its type (`Default`, `Synonym`, `Japanese`, `English`, …). */
export const titleSchema = z.object({ type: z.string(), title: z.string() });

/** A reference to another record: producer, studio, genre, author, magazine… */
export const referenceSchema = z.object({ mal_id: z.number().int(), type: z.string(), name: z.string(), url });

/** One end of a date range split into parts. */
export const datePropSchema = z.object({ day: nint, month: nint, year: nint });

/** A date range: ISO 8601 ends, their parts and a display string. */
export const dateRangeSchema = z.object({
  from: nstr,
  to: nstr,
  prop: z.object({ from: datePropSchema, to: datePropSchema }),
  string: nstr,
});

/** A YouTube trailer with the v1 statistics fields; every field is nullable (spec, Anime object). */
export const trailerSchema = z.object({
  youtube_id: nstr,
  url: nstr,
  embed_url: nstr,
  images: z.object({
    image_url: nstr,
    small_image_url: nstr,
    medium_image_url: nstr,
    large_image_url: nstr,
    maximum_image_url: nstr,
  }),
  title: nstr,
  views: nint,
  likes: nint,
  dislikes: nint,
  comment_count: nint,
  published_at: nstr,
  duration: nstr,
  privacy_status: nstr,
  region_restriction: z.record(z.string(), z.unknown()).nullable(),
  embeddable: z.boolean().nullable(),
});

/** Weekly broadcast slot. */
export const broadcastSchema = z.object({ day: nstr, time: nstr, timezone: nstr, string: nstr });

/** The full pagination object of store-backed lists (spec, Pagination object). */
export const paginationSchema = z.object({
  last_visible_page: z.number().int(),
  has_next_page: z.boolean(),
  current_page: z.number().int(),
  items: z.object({ count: z.number().int(), total: z.number().int(), per_page: z.number().int() }),
});

/**
 * A list response: `pagination` then `data`.
 * @param item - The schema of one element of `data`.
 */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ pagination: paginationSchema, data: z.array(item) });

/**
 * A single-record response: `{ data }`.
 * @param item - The schema of the record.
 */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Character images: JPG and WebP, two sizes. */
export const characterImagesSchema = z.object({
  jpg: z.object({ image_url: nstr, small_image_url: nstr }),
  webp: z.object({ image_url: nstr, small_image_url: nstr }),
});

/** One JPG image URL (people, producers, news, episodes: Jikan `common_images`/`people_images`). */
export const commonImagesSchema = z.object({ jpg: z.object({ image_url: nstr }) });

/** JPG and WebP, one size each (Jikan `user_images`). */
export const userImagesSchema = z.object({ jpg: z.object({ image_url: nstr }), webp: z.object({ image_url: nstr }) });

/** A short anime reference: id, URL, images and title (Jikan `anime_meta`). */
export const animeMetaSchema = z.object({ mal_id: z.number().int(), url, images: imagesSchema, title: z.string() });
/** A short manga reference (Jikan `manga_meta`). */
export const mangaMetaSchema = animeMetaSchema;
/** A short character reference (Jikan `character_meta`). */
export const characterMetaSchema = z.object({ mal_id: z.number().int(), url, images: characterImagesSchema, name: z.string() });
/** A short person reference (Jikan `person_meta`). */
export const personMetaSchema = z.object({ mal_id: z.number().int(), url, images: commonImagesSchema, name: z.string() });
/** A user shown beside community content (Jikan `user_meta`). */
export const userMetaSchema = z.object({ username: z.string(), url, images: userImagesSchema });
/** A user shown beside recommendations (Jikan `user_by_id`). */
export const userByIdSchema = z.object({ url, username: z.string() });

/** A named link (external sites, streaming services). */
export const linkSchema = z.object({ name: z.string(), url });

/**
 * An entry referenced by a relation or a stack: a reference plus the v1 additions `images` (JPG and
 * WebP) and `media_type` (`TV`, `Manga`, … ; spec, "Other resources").
 */
export const relatedEntrySchema = z.object({
  mal_id: z.number().int(),
  type: z.enum(['anime', 'manga']),
  name: z.string(),
  url,
  images: imagesSchema,
  media_type: nstr,
});

/** The short pagination object of scraped lists in Jikan (episodes, news, reviews…; docs/specification.md: Jikan pagination). */
export const shortPaginationSchema = z.object({ last_visible_page: z.number().int(), has_next_page: z.boolean() });

/**
 * A list response with the short pagination object.
 * @param item - The schema of one element of `data`.
 */
export const shortListOf = <T extends z.ZodType>(item: T) => z.object({ pagination: shortPaginationSchema, data: z.array(item) });

/**
 * An unpaged list response: `{ data: [...] }`.
 * @param item - The schema of one element of `data`.
 */
export const arrayOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** Images, inferred from {@link imagesSchema}. */
export type Images = z.infer<typeof imagesSchema>;
/** CharacterImages, inferred from {@link characterImagesSchema}. */
export type CharacterImages = z.infer<typeof characterImagesSchema>;
/** CommonImages, inferred from {@link commonImagesSchema}. */
export type CommonImages = z.infer<typeof commonImagesSchema>;
/** UserImages, inferred from {@link userImagesSchema}. */
export type UserImages = z.infer<typeof userImagesSchema>;
/** AnimeMeta, inferred from {@link animeMetaSchema}. */
export type AnimeMeta = z.infer<typeof animeMetaSchema>;
/** MangaMeta, inferred from {@link mangaMetaSchema}. */
export type MangaMeta = z.infer<typeof mangaMetaSchema>;
/** CharacterMeta, inferred from {@link characterMetaSchema}. */
export type CharacterMeta = z.infer<typeof characterMetaSchema>;
/** PersonMeta, inferred from {@link personMetaSchema}. */
export type PersonMeta = z.infer<typeof personMetaSchema>;
/** UserMeta, inferred from {@link userMetaSchema}. */
export type UserMeta = z.infer<typeof userMetaSchema>;
/** UserById, inferred from {@link userByIdSchema}. */
export type UserById = z.infer<typeof userByIdSchema>;
/** Link, inferred from {@link linkSchema}. */
export type Link = z.infer<typeof linkSchema>;
/** RelatedEntry, inferred from {@link relatedEntrySchema}. */
export type RelatedEntry = z.infer<typeof relatedEntrySchema>;
/** ShortPagination, inferred from {@link shortPaginationSchema}. */
export type ShortPagination = z.infer<typeof shortPaginationSchema>;
/** Title, inferred from {@link titleSchema}. */
export type Title = z.infer<typeof titleSchema>;
/** Reference, inferred from {@link referenceSchema}. */
export type Reference = z.infer<typeof referenceSchema>;
/** DateRange, inferred from {@link dateRangeSchema}. */
export type DateRange = z.infer<typeof dateRangeSchema>;
/** Trailer, inferred from {@link trailerSchema}. */
export type Trailer = z.infer<typeof trailerSchema>;
/** Broadcast, inferred from {@link broadcastSchema}. */
export type Broadcast = z.infer<typeof broadcastSchema>;
/** Pagination, inferred from {@link paginationSchema}. */
export type Pagination = z.infer<typeof paginationSchema>;
