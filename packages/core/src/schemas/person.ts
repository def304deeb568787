/**
 * People (voice actors, staff, authors) and their work (docs/specification.md: Jikan response shapes).
 * @module
 */
import { z } from 'zod';
import { animeMetaSchema, characterMetaSchema, commonImagesSchema, mangaMetaSchema } from './common.js';
import { arraysOf } from './fields.js';

/** One person, as `GET /v1/people/{id}` returns it in `data`. */
export const personSchema = z.object({
  mal_id: z.number().int(),
  url: z.string(),
  website_url: z.string().nullable(),
  images: commonImagesSchema,
  name: z.string(),
  given_name: z.string().nullable(),
  family_name: z.string().nullable(),
  alternate_names: z.array(z.string()),
  birthday: z.string().nullable(),
  favorites: z.number().int(),
  about: z.string().nullable(),
});

/** An anime a person worked on, with the staff position. */
export const personAnimeSchema = z.object({ position: z.string(), anime: animeMetaSchema });
/** A manga a person worked on, with the position (`Story & Art`, …). */
export const personMangaSchema = z.object({ position: z.string(), manga: mangaMetaSchema });
/** A voice role: the role, the anime and the character. */
export const personVoiceSchema = z.object({ role: z.string(), anime: animeMetaSchema, character: characterMetaSchema });
/** One picture of a person (`people_images`). */
export const personPictureSchema = commonImagesSchema;

/** `GET /v1/people/{id}/full` data. */
export const personFullSchema = personSchema.extend(arraysOf({ anime: personAnimeSchema, manga: personMangaSchema, voices: personVoiceSchema }));

/** One person record. */
export type Person = z.infer<typeof personSchema>;
/** The full person record. */
export type PersonFull = z.infer<typeof personFullSchema>;
/** A person's anime staff work. */
export type PersonAnime = z.infer<typeof personAnimeSchema>;
/** A person's manga work. */
export type PersonManga = z.infer<typeof personMangaSchema>;
/** A person's voice role. */
export type PersonVoice = z.infer<typeof personVoiceSchema>;
/** A person picture. */
export type PersonPicture = z.infer<typeof personPictureSchema>;
