/**
 * The sub-resources of one anime: `GET /v1/anime/{id}/full`, `relations`, `recommendations`, `news`,
 * `videos`, `videos/episodes`, `characters`, `staff`, `episodes`, `episodes/{episode}`, `forum`,
 * `stacks`, `articles`, `pictures`, `statistics`, `moreinfo`, `themes`, `external` and `streaming`.
 * The requested anime itself is never SFW-filtered; `sfw` filters the media it refers to (spec, SFW rule 3).
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { enumParam, parseId, parseQuery } from '../query.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, entryNewsQuery, pageOr404, pathId, scrapedPageQuery, sfwQuery, subListQuery } from './params.js';

/** `filter` of the anime forum: only episode threads exist (spec, "What the service does"). */
export const forumQuery = z.object({ filter: enumParam('filter', { episode: 'episode' }) });

/** `GET /v1/anime/{id}/full`: the anime with relations, themes, links and moreinfo. */
export const getAnimeFullById: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('anime', animeId, await store.getAnimeFull(animeId, sfw));
};

/** `GET /v1/anime/{id}/relations`: related anime and manga, grouped by relation. */
export const getAnimeRelations: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('anime', animeId, await store.getAnimeRelations(animeId, sfw));
};

/** `GET /v1/anime/{id}/recommendations`: anime recommended with this one. */
export const getAnimeRecommendations: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('anime', animeId, await store.getAnimeRecommendations(animeId, sfw));
};

/** `GET /v1/anime/{id}/news`: news about the anime (short pagination, as Jikan). */
export const getAnimeNews: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const { paging, sfw } = parseQuery(entryNewsQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeNews(animeId, paging, sfw), paging, 'short');
};

/** `GET /v1/anime/{id}/videos`: promos, episode videos and music videos. */
export const getAnimeVideos: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeVideos(animeId));
};

/** `GET /v1/anime/{id}/videos/episodes`: episode videos (short pagination). */
export const getAnimeVideosEpisodes: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const paging = parseQuery(scrapedPageQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeVideoEpisodes(animeId, paging), paging, 'short');
};

/** `GET /v1/anime/{id}/characters`: characters with their voice actors. */
export const getAnimeCharacters: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeCharacters(animeId));
};

/** `GET /v1/anime/{id}/staff`: staff with their positions. */
export const getAnimeStaff: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeStaff(animeId));
};

/** `GET /v1/anime/{id}/episodes`: episodes in order, 100 a page (short pagination). */
export const getAnimeEpisodes: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const paging = parseQuery(scrapedPageQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeEpisodes(animeId, paging), paging, 'short');
};

/** `GET /v1/anime/{id}/episodes/{episode}`: one episode by number. */
export const getAnimeEpisodeById: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const episode = parseId('episode', request.params.episode);
  const data = await store.getAnimeEpisode(animeId, episode);
  if (data === undefined) {
    if ((await store.getAnime(animeId)) === undefined) throw ApiError.notFound('anime', animeId);
    throw ApiError.notFound(`episode of anime ${animeId}`, episode);
  }
  return { body: { data } };
};

/** `GET /v1/anime/{id}/forum`: episode discussion threads (`filter=episode` or none). */
export const getAnimeForum: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  parseQuery(forumQuery, request.query);
  return dataOr404('anime', animeId, await store.getAnimeForum(animeId));
};

/** `GET /v1/anime/{id}/stacks`: interest stacks that contain the anime. */
export const getAnimeStacks: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeStacks(animeId, paging), paging, 'full');
};

/** `GET /v1/anime/{id}/articles`: featured articles about the anime. */
export const getAnimeArticles: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('anime', animeId, await store.getAnimeArticles(animeId, paging), paging, 'full');
};

/** `GET /v1/anime/{id}/pictures`: pictures in JPG and WebP. */
export const getAnimePictures: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimePictures(animeId));
};

/** `GET /v1/anime/{id}/statistics`: list-status counts and the score distribution. */
export const getAnimeStatistics: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeStatistics(animeId));
};

/** `GET /v1/anime/{id}/moreinfo`: the "more info" notes. */
export const getAnimeMoreInfo: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeMoreinfo(animeId));
};

/** `GET /v1/anime/{id}/themes`: opening and ending songs. */
export const getAnimeThemes: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeThemes(animeId));
};

/** `GET /v1/anime/{id}/external`: links to other sites about the anime. */
export const getAnimeExternal: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeExternal(animeId));
};

/** `GET /v1/anime/{id}/streaming`: where to watch the anime. */
export const getAnimeStreaming: CatalogueHandler = async (request, { catalogue: store }) => {
  const animeId = pathId(request);
  return dataOr404('anime', animeId, await store.getAnimeStreaming(animeId));
};

/** The anime sub-resource routes. */
export const animeDetailRoutes: CatalogueRoute[] = [
  { path: '/v1/anime/:id/full', handler: getAnimeFullById, query: sfwQuery },
  { path: '/v1/anime/:id/relations', handler: getAnimeRelations, query: sfwQuery },
  { path: '/v1/anime/:id/recommendations', handler: getAnimeRecommendations, query: sfwQuery },
  { path: '/v1/anime/:id/news', handler: getAnimeNews, query: entryNewsQuery },
  { path: '/v1/anime/:id/videos', handler: getAnimeVideos },
  { path: '/v1/anime/:id/videos/episodes', handler: getAnimeVideosEpisodes, query: scrapedPageQuery },
  { path: '/v1/anime/:id/characters', handler: getAnimeCharacters },
  { path: '/v1/anime/:id/staff', handler: getAnimeStaff },
  { path: '/v1/anime/:id/episodes', handler: getAnimeEpisodes, query: scrapedPageQuery },
  { path: '/v1/anime/:id/episodes/:episode', handler: getAnimeEpisodeById },
  { path: '/v1/anime/:id/forum', handler: getAnimeForum, query: forumQuery },
  { path: '/v1/anime/:id/stacks', handler: getAnimeStacks, query: subListQuery },
  { path: '/v1/anime/:id/articles', handler: getAnimeArticles, query: subListQuery },
  { path: '/v1/anime/:id/pictures', handler: getAnimePictures },
  { path: '/v1/anime/:id/statistics', handler: getAnimeStatistics },
  { path: '/v1/anime/:id/moreinfo', handler: getAnimeMoreInfo },
  { path: '/v1/anime/:id/themes', handler: getAnimeThemes },
  { path: '/v1/anime/:id/external', handler: getAnimeExternal },
  { path: '/v1/anime/:id/streaming', handler: getAnimeStreaming },
];
