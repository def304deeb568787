/**
 * The importable resources: every collection of core's `CatalogueData`, each with the zod schema
 * that validates one record (the same definitions core's routes and demo data use; for anime,
 * manga, characters, episodes and videos their input forms, which take a record exactly as Jikan
 * v4 serves it and fill the fields it does not send with `null`) and the identity an upsert
 * replaces by.
 * @module
 */
import {
  animeCharacterRecordSchema,
  animeInputSchema,
  animeStaffRecordSchema,
  animeStatisticsRecordSchema,
  articleRecordSchema,
  articleTagRecordSchema,
  characterInputSchema,
  deletedIdsResponseSchema,
  episodeRecordInputSchema,
  externalRecordSchema,
  forumRecordSchema,
  genreRecordSchema,
  magazineSchema,
  mangaCharacterRecordSchema,
  mangaInputSchema,
  mangaStaffRecordSchema,
  mangaStatisticsRecordSchema,
  moreinfoRecordSchema,
  newsRecordSchema,
  newsTagRecordSchema,
  personSchema,
  picturesRecordSchema,
  producerSchema,
  recommendationRecordSchema,
  relationRecordSchema,
  reviewRecordSchema,
  stackRecordSchema,
  streamingRecordSchema,
  themesRecordSchema,
  updateRecordSchema,
  videosRecordInputSchema,
  type CatalogueData,
} from '@catalogue-api/core';

/** A collection of `CatalogueData`: `anime`, `manga`, `characters`, `animeCharacters`… */
export type ResourceName = keyof CatalogueData;

/** What the importer needs of a zod schema. */
export interface RecordSchema {
  /**
   * Validates one record, as zod's `safeParse` does.
   * @param value - The record as read from the input.
   * @returns The parsed record, or the issues with their paths.
   */
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** How one resource is validated and identified. */
export interface ResourceDefinition {
  /** Validates one record; its output (known fields, in schema order) is what gets stored. */
  schema: RecordSchema;
  /** The fields that identify a record; re-importing a record with the same values replaces it. */
  key: readonly string[];
}

const by = (schema: RecordSchema, ...key: string[]): ResourceDefinition => ({ schema, key });

/** Every resource, by its `CatalogueData` key. */
export const RESOURCES: Readonly<Record<ResourceName, ResourceDefinition>> = {
  anime: by(animeInputSchema, 'mal_id'),
  manga: by(mangaInputSchema, 'mal_id'),
  characters: by(characterInputSchema, 'mal_id'),
  people: by(personSchema, 'mal_id'),
  producers: by(producerSchema, 'mal_id'),
  magazines: by(magazineSchema, 'mal_id'),
  genres: by(genreRecordSchema, 'kind', 'mal_id'),
  animeCharacters: by(animeCharacterRecordSchema, 'anime_id', 'character_id'),
  mangaCharacters: by(mangaCharacterRecordSchema, 'manga_id', 'character_id'),
  animeStaff: by(animeStaffRecordSchema, 'anime_id', 'person_id', 'positions'),
  mangaStaff: by(mangaStaffRecordSchema, 'manga_id', 'person_id', 'position'),
  relations: by(relationRecordSchema, 'from_type', 'from_id', 'relation', 'to_type', 'to_id'),
  external: by(externalRecordSchema, 'type', 'mal_id'),
  streaming: by(streamingRecordSchema, 'anime_id'),
  themes: by(themesRecordSchema, 'anime_id'),
  episodes: by(episodeRecordInputSchema, 'anime_id', 'mal_id'),
  videos: by(videosRecordInputSchema, 'anime_id'),
  pictures: by(picturesRecordSchema, 'type', 'mal_id'),
  animeStatistics: by(animeStatisticsRecordSchema, 'anime_id'),
  mangaStatistics: by(mangaStatisticsRecordSchema, 'manga_id'),
  moreinfo: by(moreinfoRecordSchema, 'type', 'mal_id'),
  recommendations: by(recommendationRecordSchema, 'type', 'entry_ids', 'user', 'date'),
  reviews: by(reviewRecordSchema, 'type', 'mal_id'),
  news: by(newsRecordSchema, 'mal_id'),
  newsTags: by(newsTagRecordSchema, 'mal_id'),
  articles: by(articleRecordSchema, 'mal_id'),
  articleTags: by(articleTagRecordSchema, 'mal_id'),
  stacks: by(stackRecordSchema, 'mal_id'),
  forum: by(forumRecordSchema, 'anime_id', 'mal_id'),
  updates: by(updateRecordSchema, 'type', 'mal_id'),
  // Bare ids: the id is the record, validated as an element of the deleted-ids response.
  deletedAnimeIds: by(deletedIdsResponseSchema.shape.data.element),
  deletedMangaIds: by(deletedIdsResponseSchema.shape.data.element),
};

/** The resource names, for messages and `--resource`. */
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/**
 * Whether a string names a resource.
 * @param name - Any string.
 */
export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(RESOURCES, name);
}

/**
 * The identity of a record of a resource, as a string (the upsert key).
 * @param resource - The resource.
 * @param record - A validated record.
 * @returns `"20"` for anime 20, `"20:17"` for character 17 in anime 20, …
 */
export function recordKey(resource: ResourceName, record: unknown): string {
  const { key } = RESOURCES[resource];
  if (key.length === 0) return JSON.stringify(record);
  const r = record as Record<string, unknown>;
  return key.map((field) => (typeof r[field] === 'object' ? JSON.stringify(r[field]) : String(r[field]))).join(':');
}
