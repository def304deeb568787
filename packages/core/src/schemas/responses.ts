/**
 * The response envelope of every catalogue endpoint, defined once from the record shapes. The
 * endpoint tests parse bodies with these, and each route row carries its own (`response`, which the
 * generated OpenAPI document names and lists). Pagination follows Jikan (docs/specification.md: Jikan pagination): the full object on
 * store-backed lists, the short one where Jikan scrapes; the v1 additions (news, articles, stacks)
 * are store-backed lists here, so they carry the full object.
 * @module
 */
import { z } from 'zod';
import { animeFullSchema } from './anime.js';
import { articleFullSchema, articleSchema, articleTagSchema } from './article.js';
import { animeCharacterSchema, animeStaffSchema, mangaCharacterSchema } from './cast.js';
import {
  characterAnimeSchema,
  characterFullSchema,
  characterMangaSchema,
  characterPictureSchema,
  characterSchema,
  characterVoiceSchema,
} from './character.js';
import { deletedIdsResponseSchema, idsResponseSchema, seasonArchiveSchema } from './catalogue-lists.js';
import { arrayOf, dataOf, linkSchema, listOf, shortListOf, shortPaginationSchema } from './common.js';
import { episodeDetailSchema, episodeSchema } from './episode.js';
import { forumTopicSchema } from './forum.js';
import { mangaFullSchema, mangaSchema } from './manga.js';
import {
  animeStatisticsSchema,
  animeThemesSchema,
  mangaStatisticsSchema,
  mediaPictureSchema,
  moreinfoSchema,
  relationSchema,
} from './media.js';
import { newsFullSchema, newsSchema, newsTagSchema } from './news.js';
import { personAnimeSchema, personFullSchema, personMangaSchema, personPictureSchema, personSchema, personVoiceSchema } from './person.js';
import { genreSchema, magazineSchema, producerFullSchema, producerSchema } from './producer.js';
import { entryRecommendationSchema, recentRecommendationSchema } from './recommendation.js';
import {
  animeReviewSchema,
  animeReviewWithEntrySchema,
  mangaReviewSchema,
  mangaReviewWithEntrySchema,
  reviewWithEntrySchema,
} from './review.js';
import { stackFullSchema, stackSchema } from './stack.js';
import { animeVideosSchema, episodeVideoSchema } from './video.js';

// ---- anime ----
/** `GET /v1/anime/{id}/full`. */
export const animeFullResponseSchema = dataOf(animeFullSchema);
/** `GET /v1/anime/{id}/relations` and `/v1/manga/{id}/relations`. */
export const relationsResponseSchema = arrayOf(relationSchema);
/** `GET /v1/anime/{id}/recommendations` and `/v1/manga/{id}/recommendations`. */
export const entryRecommendationsResponseSchema = arrayOf(entryRecommendationSchema);
/** `GET /v1/anime/{id}/news` and `/v1/manga/{id}/news` (short pagination, as Jikan). */
export const entryNewsResponseSchema = shortListOf(newsSchema);
/** `GET /v1/anime/{id}/reviews` (short pagination; the entry is the root, so no `entry`). */
export const animeEntryReviewsResponseSchema = shortListOf(animeReviewSchema);
/** `GET /v1/anime/{id}/videos`. */
export const animeVideosResponseSchema = dataOf(animeVideosSchema);
/** `GET /v1/anime/{id}/videos/episodes`. */
export const animeVideoEpisodesResponseSchema = shortListOf(episodeVideoSchema);
/** `GET /v1/anime/{id}/characters`. */
export const animeCharactersResponseSchema = arrayOf(animeCharacterSchema);
/** `GET /v1/anime/{id}/staff`. */
export const animeStaffResponseSchema = arrayOf(animeStaffSchema);
/** `GET /v1/anime/{id}/episodes` (short pagination, as Jikan). */
export const animeEpisodesResponseSchema = shortListOf(episodeSchema);
/** `GET /v1/anime/{id}/episodes/{episode_id}`. */
export const animeEpisodeResponseSchema = dataOf(episodeDetailSchema);
/** `GET /v1/anime/{id}/forum`. */
export const forumResponseSchema = arrayOf(forumTopicSchema);
/** `GET /v1/anime|manga/{id}/pictures`. */
export const mediaPicturesResponseSchema = arrayOf(mediaPictureSchema);
/** `GET /v1/anime/{id}/statistics`. */
export const animeStatisticsResponseSchema = dataOf(animeStatisticsSchema);
/** `GET /v1/anime|manga/{id}/moreinfo`. */
export const moreinfoResponseSchema = dataOf(moreinfoSchema);
/** `GET /v1/anime/{id}/themes`. */
export const animeThemesResponseSchema = dataOf(animeThemesSchema);
/** `GET /v1/anime|manga|producers/{id}/external` and `/v1/anime/{id}/streaming`. */
export const externalLinksResponseSchema = arrayOf(linkSchema);
/** `GET /v1/anime|manga/{id}/stacks`. */
export const entryStacksResponseSchema = listOf(stackSchema);
/** `GET /v1/anime|manga|characters|people/{id}/articles`. */
export const entryArticlesResponseSchema = listOf(articleSchema);
/** `GET /v1/anime/deleted`, `/v1/manga/deleted`. */
export { deletedIdsResponseSchema, idsResponseSchema };

// ---- manga ----
/** `GET /v1/manga/{id}`, `/v1/random/manga`. */
export const mangaResponseSchema = dataOf(mangaSchema);
/** `GET /v1/manga`, `/v1/top/manga`. */
export const mangaListResponseSchema = listOf(mangaSchema);
/** `GET /v1/manga/{id}/full`. */
export const mangaFullResponseSchema = dataOf(mangaFullSchema);
/** `GET /v1/manga/{id}/characters`. */
export const mangaCharactersResponseSchema = arrayOf(mangaCharacterSchema);
/** `GET /v1/manga/{id}/reviews`. */
export const mangaEntryReviewsResponseSchema = shortListOf(mangaReviewSchema);
/** `GET /v1/manga/{id}/statistics`. */
export const mangaStatisticsResponseSchema = dataOf(mangaStatisticsSchema);

// ---- characters ----
/** `GET /v1/characters/{id}`, `/v1/random/characters`. */
export const characterResponseSchema = dataOf(characterSchema);
/** `GET /v1/characters`, `/v1/top/characters`. */
export const characterListResponseSchema = listOf(characterSchema);
/** `GET /v1/characters/{id}/full`. */
export const characterFullResponseSchema = dataOf(characterFullSchema);
/** `GET /v1/characters/{id}/anime`. */
export const characterAnimeResponseSchema = arrayOf(characterAnimeSchema);
/** `GET /v1/characters/{id}/manga`. */
export const characterMangaResponseSchema = arrayOf(characterMangaSchema);
/** `GET /v1/characters/{id}/voices`. */
export const characterVoicesResponseSchema = arrayOf(characterVoiceSchema);
/** `GET /v1/characters/{id}/pictures`. */
export const characterPicturesResponseSchema = arrayOf(characterPictureSchema);

// ---- people ----
/** `GET /v1/people/{id}`, `/v1/random/people`. */
export const personResponseSchema = dataOf(personSchema);
/** `GET /v1/people`, `/v1/top/people`. */
export const personListResponseSchema = listOf(personSchema);
/** `GET /v1/people/{id}/full`. */
export const personFullResponseSchema = dataOf(personFullSchema);
/** `GET /v1/people/{id}/anime`. */
export const personAnimeResponseSchema = arrayOf(personAnimeSchema);
/** `GET /v1/people/{id}/manga`. */
export const personMangaResponseSchema = arrayOf(personMangaSchema);
/** `GET /v1/people/{id}/voices`. */
export const personVoicesResponseSchema = arrayOf(personVoiceSchema);
/** `GET /v1/people/{id}/pictures`. */
export const personPicturesResponseSchema = arrayOf(personPictureSchema);

// ---- producers, magazines, genres ----
/** `GET /v1/producers/{id}`. */
export const producerResponseSchema = dataOf(producerSchema);
/** `GET /v1/producers` (full pagination: docs/specification.md: where the Jikan server differs from its document). */
export const producerListResponseSchema = listOf(producerSchema);
/** `GET /v1/producers/{id}/full`. */
export const producerFullResponseSchema = dataOf(producerFullSchema);
/** `GET /v1/magazines` (full pagination: docs/specification.md: where the Jikan server differs from its document). */
export const magazineListResponseSchema = listOf(magazineSchema);
/** `GET /v1/genres/anime`, `/v1/genres/manga`. */
export const genresResponseSchema = arrayOf(genreSchema);

// ---- seasons, schedules, top, recommendations, reviews ----
/** `GET /v1/seasons` (short pagination: docs/specification.md: where the Jikan server differs from its document). */
export const seasonsResponseSchema = z.object({ pagination: shortPaginationSchema, data: z.array(seasonArchiveSchema) });
/** `GET /v1/recommendations/anime|manga` (short pagination, with `date`: docs/specification.md: where the Jikan server differs from its document). */
export const recentRecommendationsResponseSchema = shortListOf(recentRecommendationSchema);
/** `GET /v1/reviews/anime` (short pagination: docs/specification.md: where the Jikan server differs from its document). */
export const animeReviewsResponseSchema = shortListOf(animeReviewWithEntrySchema);
/** `GET /v1/reviews/manga`. */
export const mangaReviewsResponseSchema = shortListOf(mangaReviewWithEntrySchema);
/** `GET /v1/top/reviews` (anime or manga reviews, by `type`). */
export const topReviewsResponseSchema = shortListOf(reviewWithEntrySchema);

// ---- news, articles, stacks ----
/** `GET /v1/news` (paginated, searchable, filterable by tag). */
export const newsListResponseSchema = listOf(newsSchema);
/** `GET /v1/news/{id}`. */
export const newsFullResponseSchema = dataOf(newsFullSchema);
/** `GET /v1/news/tags`. */
export const newsTagsResponseSchema = arrayOf(newsTagSchema);
/** `GET /v1/articles`. */
export const articleListResponseSchema = listOf(articleSchema);
/** `GET /v1/articles/{id}`. */
export const articleFullResponseSchema = dataOf(articleFullSchema);
/** `GET /v1/articles/tags`. */
export const articleTagsResponseSchema = arrayOf(articleTagSchema);
/** `GET /v1/stacks`. */
export const stackListResponseSchema = listOf(stackSchema);
/** `GET /v1/stacks/{id}`. */
export const stackFullResponseSchema = dataOf(stackFullSchema);
