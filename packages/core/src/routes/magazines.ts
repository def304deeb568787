/**
 * `GET /v1/magazines`: search and page through the magazines manga are serialized in.
 * @module
 */
import { parseQuery } from '../query.js';
import type { MagazineSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { fullList, namedSearchQuery } from './params.js';

/** The query of `GET /v1/magazines`. */
export const magazineSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', count: 'count' });

/** `GET /v1/magazines`: magazines with their manga counts (full pagination, as Jikan's server). */
export const searchMagazines: CatalogueHandler = async (request, { store }) => {
  const search: MagazineSearch = parseQuery(magazineSearchQuery, request.query);
  return fullList(await store.searchMagazines(search), search);
};

/** The magazine routes. */
export const magazineRoutes: CatalogueRoute[] = [{ path: '/v1/magazines', handler: searchMagazines, query: magazineSearchQuery }];
