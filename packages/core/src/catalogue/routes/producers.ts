/**
 * `GET /v1/producers` (search), `GET /v1/producers/{id}`, its `full` and `external`.
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { searchNamed } from '../named.js';
import { producerExternal, producerFull } from '../producers.js';
import { namedSearchQuery } from './params.js';
import { byIdRow, pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The query of `GET /v1/producers` (`letter` matches the first title). */
export const producerSearchQuery = namedSearchQuery({
  mal_id: 'mal_id',
  count: 'count',
  favorites: 'favorites',
  established: 'established',
});

/** The producer routes. */
export const producerRoutes: CatalogueRoute[] = [
  pageRow('/v1/producers', 'full', { query: producerSearchQuery, response: res.producerListResponseSchema }, (search, { records }) => searchNamed(records, 'producers', search)),
  byIdRow('producer', '/v1/producers/:id', { response: res.producerResponseSchema }, (id, _, { records }) => records.get('producers', id)),
  byIdRow('producer', '/v1/producers/:id/full', { response: res.producerFullResponseSchema }, (id, _, { records }) => producerFull(records, id)),
  byIdRow('producer', '/v1/producers/:id/external', { response: res.externalLinksResponseSchema }, (id, _, { records }) => producerExternal(records, id)),
];
