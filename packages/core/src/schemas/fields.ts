/**
 * Runs of fields that several response shapes share, in the order Jikan sends them. Spread into a
 * `z.object({ … })` at the place they stand: object key order is the order of the JSON a shape
 * writes, so a run keeps its fields together and in order. Internal (not re-exported by
 * `index.ts`): the shapes built from them are the public API.
 * @module
 */
import { z } from 'zod';
import { dateRangeSchema, referenceSchema, titleSchema } from './common.js';

const int = z.number().int();
const nint = int.nullable();
const nstr = z.string().nullable();
const refs = z.array(referenceSchema);

/** Anime and manga: the approval flag and the titles (after `images`; anime has `trailer` between). */
export const mediaTitleFields = {
  approved: z.boolean(),
  titles: z.array(titleSchema),
  title: z.string(),
  title_english: nstr,
  title_japanese: nstr,
  title_synonyms: z.array(z.string()),
};

/**
 * Anime and manga: the status, whether the entry is still running and its dates (anime `status`,
 * `airing`, `aired`; manga `status`, `publishing`, `published`).
 * @param running - The flag's name.
 * @param dates - The date range's name.
 */
export const mediaRunFields = <R extends string, D extends string>(running: R, dates: D) =>
  ({ status: z.string(), [running]: z.boolean(), [dates]: dateRangeSchema }) as { status: z.ZodString } & Record<R, z.ZodBoolean> & Record<D, typeof dateRangeSchema>;

/** Anime and manga: the audience numbers and the texts, `scored_by` to `background` (manga sends the deprecated `scored` before them). */
export const mediaAudienceFields = {
  scored_by: nint,
  rank: nint,
  popularity: nint,
  members: nint,
  favorites: nint,
  synopsis: nstr,
  background: nstr,
};

/** Anime and manga: the genre-like reference lists that close both records. */
export const mediaGenreFields = {
  genres: refs,
  explicit_genres: refs,
  themes: refs,
  demographics: refs,
};

/** Anime and manga statistics: the list counts both kinds share (anime opens with `watching`, manga with `reading`). */
export const listStatusCounts = {
  completed: int,
  on_hold: int,
  dropped: int,
};

/** News items, articles and forum topics: the fields each opens with, up to its author. */
export const postHeadFields = {
  mal_id: int,
  url: z.string(),
  title: z.string(),
  date: z.string(),
  author_username: z.string(),
  author_url: z.string(),
};

/** Reaction counts on a review (re-exported as `reactionsSchema` by `review.ts`). */
export const reactionsSchema = z.object({
  overall: int,
  nice: int,
  love_it: int,
  funny: int,
  confusing: int,
  informative: int,
  well_written: int,
  creative: int,
});

/** Reviews, as served and as stored: from the reactions to the flags. */
export const reviewBodyFields = {
  reactions: reactionsSchema,
  date: z.string(),
  review: z.string(),
  score: int,
  tags: z.array(z.string()),
  is_spoiler: z.boolean(),
  is_preliminary: z.boolean(),
};

/**
 * Lists under their names, each an array of the schema given for it, in the order given: a full
 * record's `anime`, `manga` and `voices`, or the videos' `promo`, `episodes` and `music_videos`.
 * @param items - The schema of one element of each list, by the list's name.
 */
export const arraysOf = <T extends Record<string, z.ZodType>>(items: T) =>
  Object.fromEntries(Object.entries(items).map(([name, item]) => [name, z.array(item)])) as { [K in keyof T]: z.ZodArray<T[K]> };
