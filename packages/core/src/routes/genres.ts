/**
 * `GET /v1/genres/anime` and `GET /v1/genres/manga`: genres, explicit genres, themes and
 * demographics with their entry counts, or one category of them with `filter`.
 * @module
 */
import { z } from 'zod';
import { ok } from '../internal/pipeline.js';
import { enumParam, parseQuery } from '../query.js';
import type { MediaKind } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';

/** The query of the genre lists: `filter`, one category (docs/specification.md: Jikan routes and parameters). */
export const genresQuery = z.object({
  filter: enumParam('filter', {
    genres: 'genres',
    explicit_genres: 'explicit_genres',
    themes: 'themes',
    demographics: 'demographics',
  }),
});

function listGenres(kind: MediaKind): CatalogueHandler {
  return async (request, { store }) => {
    const { filter } = parseQuery(genresQuery, request.query);
    return ok({ data: await store.listGenres(kind, filter) });
  };
}

/** `GET /v1/genres/anime`: anime genres with counts. */
export const getAnimeGenres: CatalogueHandler = listGenres('anime');

/** `GET /v1/genres/manga`: manga genres with counts. */
export const getMangaGenres: CatalogueHandler = listGenres('manga');

/** The genre routes. */
export const genreRoutes: CatalogueRoute[] = [
  { path: '/v1/genres/anime', handler: getAnimeGenres, query: genresQuery },
  { path: '/v1/genres/manga', handler: getMangaGenres, query: genresQuery },
];
