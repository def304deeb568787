/**
 * `GET /v1/producers` (search), `GET /v1/producers/{id}`, its `full` and `external`.
 * @module
 */
import { parseQuery } from '../query.js';
import type { ProducerSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, fullList, namedSearchQuery, pathId } from './params.js';

/** The query of `GET /v1/producers` (`letter` matches the first title). */
export const producerSearchQuery = namedSearchQuery({
  mal_id: 'mal_id',
  count: 'count',
  favorites: 'favorites',
  established: 'established',
});

/** `GET /v1/producers`: search and page through producers, studios and licensors. */
export const searchProducers: CatalogueHandler = async (request, { store }) => {
  const search: ProducerSearch = parseQuery(producerSearchQuery, request.query);
  return fullList(await store.searchProducers(search), search);
};

/** `GET /v1/producers/{id}`: one producer. */
export const getProducerById: CatalogueHandler = async (request, { store }) => {
  const producerId = pathId(request);
  return dataOr404('producer', producerId, await store.getProducer(producerId));
};

/** `GET /v1/producers/{id}/full`: the producer with its external links. */
export const getProducerFullById: CatalogueHandler = async (request, { store }) => {
  const producerId = pathId(request);
  return dataOr404('producer', producerId, await store.getProducerFull(producerId));
};

/** `GET /v1/producers/{id}/external`: links to other sites about the producer. */
export const getProducerExternal: CatalogueHandler = async (request, { store }) => {
  const producerId = pathId(request);
  return dataOr404('producer', producerId, await store.getProducerExternal(producerId));
};

/** The producer routes. */
export const producerRoutes: CatalogueRoute[] = [
  { path: '/v1/producers', handler: searchProducers, query: producerSearchQuery },
  { path: '/v1/producers/:id', handler: getProducerById },
  { path: '/v1/producers/:id/full', handler: getProducerFullById },
  { path: '/v1/producers/:id/external', handler: getProducerExternal },
];
