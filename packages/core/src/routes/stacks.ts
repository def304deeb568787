/**
 * Interest stacks (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/stacks` (browse and
 * search) and `/v1/stacks/{id}` (the stack with its entries in the author's order).
 * @module
 */
import { z } from 'zod';
import { enumParam, parseId, parseQuery, textParam } from '../query.js';
import type { StackSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, fullList, pagingShape, sfwQuery } from './params.js';

/** The query of `GET /v1/stacks`: `q`, `type` (anime, manga or mixed), `page`, `limit`. */
export const stackSearchQuery = z
  .object({ q: textParam('q', 200), type: enumParam('type', { anime: 'anime', manga: 'manga', mixed: 'mixed' }), ...pagingShape() })
  .transform((v): StackSearch => ({ q: v.q, type: v.type, page: v.page, limit: v.limit }));

/** `GET /v1/stacks`: public interest stacks, newest first, or by relevance with `q`. */
export const searchStacks: CatalogueHandler = async (request, { store }) => {
  const search = parseQuery(stackSearchQuery, request.query);
  return fullList(await store.searchStacks(search), search);
};

/** `GET /v1/stacks/{id}`: one stack with its entries in source order. */
export const getStackById: CatalogueHandler = async (request, { store }) => {
  const stackId = parseId('id', request.params.id);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('stack', stackId, await store.getStack(stackId, sfw));
};

/** The stack routes. */
export const stackRoutes: CatalogueRoute[] = [
  { path: '/v1/stacks', handler: searchStacks, query: stackSearchQuery },
  { path: '/v1/stacks/:id', handler: getStackById, query: sfwQuery },
];
