/**
 * The response shapes the HTTP contract checks, written from the specification's tables
 * (Pagination object, Anime object, Reference entry, Error envelope) rather than imported from
 * core, so that the contract checks an implementation instead of agreeing with itself.
 * @module
 */
import { z } from 'zod';

const nstr = z.string().nullable();
const nint = z.number().int().nullable();
const imageSet = z.strictObject({ image_url: nstr, small_image_url: nstr, large_image_url: nstr });
const reference = z.strictObject({ mal_id: z.number().int(), type: z.string(), name: z.string(), url: z.string() });
const dateParts = z.strictObject({ day: nint, month: nint, year: nint });

/** One anime object (spec, "Anime object"): every field, its type and its nullability. */
export const animeShape = z.strictObject({
  mal_id: z.number().int().positive(),
  url: z.string(),
  images: z.strictObject({ jpg: imageSet, webp: imageSet }),
  trailer: z.strictObject({
    youtube_id: nstr,
    url: nstr,
    embed_url: nstr,
    images: z.strictObject({
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
  }),
  approved: z.boolean(),
  titles: z.array(z.strictObject({ type: z.string(), title: z.string() })),
  title: z.string(),
  title_english: nstr,
  title_japanese: nstr,
  title_synonyms: z.array(z.string()),
  type: z.string(),
  source: z.string(),
  episodes: nint,
  status: z.string(),
  airing: z.boolean(),
  aired: z.strictObject({ from: nstr, to: nstr, prop: z.strictObject({ from: dateParts, to: dateParts }), string: nstr }),
  duration: nstr,
  rating: nstr,
  score: z.number().nullable(),
  scored_by: nint,
  rank: nint,
  popularity: nint,
  members: nint,
  favorites: nint,
  synopsis: nstr,
  background: nstr,
  season: z.enum(['spring', 'summer', 'fall', 'winter']).nullable(),
  year: nint,
  broadcast: z.strictObject({ day: nstr, time: nstr, timezone: nstr, string: nstr }),
  producers: z.array(reference),
  licensors: z.array(reference),
  studios: z.array(reference),
  genres: z.array(reference),
  explicit_genres: z.array(reference),
  themes: z.array(reference),
  demographics: z.array(reference),
});

/** The pagination object of list responses (spec, "Pagination object"). */
export const paginationShape = z.strictObject({
  last_visible_page: z.number().int().min(1),
  has_next_page: z.boolean(),
  current_page: z.number().int().min(1),
  items: z.strictObject({ count: z.number().int().min(0), total: z.number().int().min(0), per_page: z.number().int().min(1) }),
});

/** `GET /v1/anime`: pagination and data, both required. */
export const animeListShape = z.strictObject({ pagination: paginationShape, data: z.array(animeShape) });

/** `GET /v1/anime/{id}`. */
export const animeDetailShape = z.strictObject({ data: animeShape });

/** The error envelope of every non-2xx answer (spec, "Error envelope"; all five fields, as for 500). */
export const envelopeShape = z.strictObject({
  status: z.number().int(),
  type: z.string(),
  message: z.string().min(1),
  error: z.string(),
  path: z.string(),
});

/**
 * Parses a value against a shape and fails with every issue and its path, which reads better in a
 * test report than zod's default error.
 * @param shape - The zod schema.
 * @param value - The decoded JSON.
 * @param what - What the value is, for the message.
 * @returns The parsed value.
 * @throws {Error} listing each issue as `path: message`.
 */
export function expectShape<T>(shape: z.ZodType<T>, value: unknown, what: string): T {
  const result = shape.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 10).map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`${what} does not have the spec's shape:\n${issues.join('\n')}`);
}
