/**
 * `GET /v1/genres/anime` and `GET /v1/genres/manga`: genres, explicit genres, themes and
 * demographics with their entry counts, or one category of them with `filter`.
 * @module
 */
import { z } from 'zod';
import { enumParam } from '../../edge/query.js';
import type { CatalogueRoute } from './context.js';
import { genreList } from '../producers.js';
import { dataRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The query of the genre lists: `filter`, one category (docs/specification.md: Jikan routes and parameters). */
export const genresQuery = z.object({
  filter: enumParam('filter', {
    genres: 'genres',
    explicit_genres: 'explicit_genres',
    themes: 'themes',
    demographics: 'demographics',
  }),
});

/** The genre routes. */
export const genreRoutes: CatalogueRoute[] = [
  dataRow('/v1/genres/anime', { query: genresQuery, work: 'search', response: res.genresResponseSchema }, ({ filter }, { records }) => genreList(records, 'anime', filter)),
  dataRow('/v1/genres/manga', { query: genresQuery, work: 'search', response: res.genresResponseSchema }, ({ filter }, { records }) => genreList(records, 'manga', filter)),
];
