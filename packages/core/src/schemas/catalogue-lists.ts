/**
 * Catalogue-wide lists that are not records: the seasons archive (docs/specification.md: Jikan response shapes; docs/specification.md: where the Jikan server differs from its document: with the short
 * pagination object), deleted ids and id lists (v1 additions; spec, "Further catalogue endpoints").
 * @module
 */
import { z } from 'zod';

/** One element of `GET /v1/seasons`: a year and its seasons, newest first. */
export const seasonArchiveSchema = z.object({ year: z.number().int(), seasons: z.array(z.string()) });

/** `GET /v1/anime/deleted`, `GET /v1/manga/deleted`: every deleted id, ascending, and how many. */
export const deletedIdsResponseSchema = z.object({ total: z.number().int(), data: z.array(z.number().int()) });

/**
 * One element of `GET /v1/anime/ids` / `/v1/manga/ids`: the bare id, or with `include`, an object with
 * `mal_id` and the chosen fields.
 */
export const idsItemSchema = z.union([z.number().int(), z.looseObject({ mal_id: z.number().int() })]);

/** `GET /v1/anime/ids`, `GET /v1/manga/ids`: matching ids ascending, and how many matched. */
export const idsResponseSchema = z.object({ total: z.number().int(), data: z.array(idsItemSchema) });

/** One year of the seasons archive. */
export type SeasonArchive = z.infer<typeof seasonArchiveSchema>;
/** One element of an ids list. */
export type IdsItem = z.infer<typeof idsItemSchema>;
