/**
 * Characters and their appearances and voices (docs/specification.md: Jikan response shapes).
 * @module
 */
import { z } from 'zod';
import { animeMetaSchema, characterImagesSchema, mangaMetaSchema, personMetaSchema } from './common.js';
import { arraysOf } from './fields.js';

/** One character, as `GET /v1/characters/{id}` returns it in `data`. */
export const characterSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  images: characterImagesSchema,
  name: z.string(),
  name_kanji: z.string().nullable(),
  nicknames: z.array(z.string()),
  favorites: z.number().int(),
  about: z.string().nullable(),
});

/** An anime a character appears in, with the role (`Main`, `Supporting`). */
export const characterAnimeSchema = z.object({ role: z.string(), anime: animeMetaSchema });
/** A manga a character appears in, with the role. */
export const characterMangaSchema = z.object({ role: z.string(), manga: mangaMetaSchema });
/** A voice actor of a character, with the language. */
export const characterVoiceSchema = z.object({ language: z.string(), person: personMetaSchema });
/** One picture of a character: server shape `{ jpg: { image_url } }` (docs/specification.md: where the Jikan server differs from its document). */
export const characterPictureSchema = z.object({ jpg: z.object({ image_url: z.string().nullable() }) });

/** `GET /v1/characters/{id}/full` data. */
export const characterFullSchema = characterSchema.extend(arraysOf({ anime: characterAnimeSchema, manga: characterMangaSchema, voices: characterVoiceSchema }));

/** One character record. */
export type Character = z.infer<typeof characterSchema>;
/** The full character record. */
export type CharacterFull = z.infer<typeof characterFullSchema>;
/** A character's anime appearance. */
export type CharacterAnime = z.infer<typeof characterAnimeSchema>;
/** A character's manga appearance. */
export type CharacterManga = z.infer<typeof characterMangaSchema>;
/** A character's voice actor. */
export type CharacterVoice = z.infer<typeof characterVoiceSchema>;
/** A character picture. */
export type CharacterPicture = z.infer<typeof characterPictureSchema>;
