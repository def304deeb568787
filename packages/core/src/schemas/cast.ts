/**
 * Who appears in and works on an entry: anime characters with voice actors, anime staff and manga
 * characters (docs/specification.md: Jikan response shapes; anime character items carry `favorites`: docs/specification.md: where the Jikan server differs from its document).
 * @module
 */
import { z } from 'zod';
import { characterMetaSchema, personMetaSchema } from './common.js';

/** A voice actor inside anime characters; v1 adds the person's `favorites` (spec, "Other resources"). */
export const castVoiceActorSchema = z.object({
  person: personMetaSchema.extend({ favorites: z.number().int() }),
  language: z.string(),
});

/** One element of `GET /v1/anime/{id}/characters`. */
export const animeCharacterSchema = z.object({
  character: characterMetaSchema,
  role: z.string(),
  favorites: z.number().int(),
  voice_actors: z.array(castVoiceActorSchema),
});

/** One element of `GET /v1/anime/{id}/staff`. */
export const animeStaffSchema = z.object({ person: personMetaSchema, positions: z.array(z.string()) });

/** One element of `GET /v1/manga/{id}/characters`. */
export const mangaCharacterSchema = z.object({ character: characterMetaSchema, role: z.string() });

/** One anime character with its voice actors. */
export type AnimeCharacter = z.infer<typeof animeCharacterSchema>;
/** One anime staff member. */
export type AnimeStaff = z.infer<typeof animeStaffSchema>;
/** One manga character. */
export type MangaCharacter = z.infer<typeof mangaCharacterSchema>;
