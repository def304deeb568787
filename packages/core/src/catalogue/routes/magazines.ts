/**
 * `GET /v1/magazines`: search and page through the magazines manga are serialized in.
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { searchNamed } from '../named.js';
import { namedSearchQuery } from './params.js';
import { pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The query of `GET /v1/magazines`. */
export const magazineSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', count: 'count' });

/** The magazine routes. */
export const magazineRoutes: CatalogueRoute[] = [
  pageRow('/v1/magazines', 'full', { query: magazineSearchQuery, response: res.magazineListResponseSchema }, (search, { records }) => searchNamed(records, 'magazines', search)),
];
