/**
 * One anime and its sub-resources: those manga have too (`entry-rows.ts`), and the anime's own
 * `videos`, `videos/episodes`, `staff`, `episodes`, `episodes/{episode}`, `forum`, `themes` and
 * `streaming`.
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../../edge/errors.js';
import { ok } from '../../edge/pipeline.js';
import { enumParam, parseId } from '../../edge/query.js';
import type { CatalogueRoute } from './context.js';
import { episodeOf } from '../anime-details.js';
import { ANIME_ONLY } from '../entries.js';
import { entryRows } from './entry-rows.js';
import { scrapedPageQuery } from './params.js';
import { byIdRow, subPageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** `filter` of the anime forum: only episode threads exist (spec, "What the service does"). */
export const forumQuery = z.object({ filter: enumParam('filter', { episode: 'episode' }) });

/** The anime sub-resource routes. */
export const animeDetailRoutes: CatalogueRoute[] = [
  ...entryRows('anime'),
  byIdRow('anime', '/v1/anime/:id/videos', { response: res.animeVideosResponseSchema }, (id, _, { records }) => ANIME_ONLY.Videos(records, id)),
  subPageRow('anime', '/v1/anime/:id/videos/episodes', 'short', { query: scrapedPageQuery, response: res.animeVideoEpisodesResponseSchema }, (id, paging, { records }) =>
    ANIME_ONLY.VideoEpisodes(records, id, paging),
  ),
  byIdRow('anime', '/v1/anime/:id/staff', { response: res.animeStaffResponseSchema }, (id, _, { records }) => ANIME_ONLY.Staff(records, id)),
  subPageRow('anime', '/v1/anime/:id/episodes', 'short', { query: scrapedPageQuery, response: res.animeEpisodesResponseSchema }, (id, paging, { records }) => ANIME_ONLY.Episodes(records, id, paging)),
  {
    path: '/v1/anime/:id/episodes/:episode',
    response: res.animeEpisodeResponseSchema,
    handler: async ({ params }, { records }) => {
      const animeId = parseId('id', params.id);
      const episode = parseId('episode', params.episode);
      const data = await episodeOf(records, animeId, episode);
      if (data !== undefined) return ok({ data });
      if ((await records.get('anime', animeId)) === undefined) throw ApiError.notFound('anime', animeId);
      throw ApiError.notFound(`episode of anime ${animeId}`, episode);
    },
  },
  byIdRow('anime', '/v1/anime/:id/forum', { query: forumQuery, response: res.forumResponseSchema }, (id, _, { records }) => ANIME_ONLY.Forum(records, id)),
  byIdRow('anime', '/v1/anime/:id/themes', { response: res.animeThemesResponseSchema }, (id, _, { records }) => ANIME_ONLY.Themes(records, id)),
  byIdRow('anime', '/v1/anime/:id/streaming', { response: res.externalLinksResponseSchema }, (id, _, { records }) => ANIME_ONLY.Streaming(records, id)),
];
