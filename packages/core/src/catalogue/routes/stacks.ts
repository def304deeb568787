/**
 * Interest stacks (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/stacks` (browse and
 * search) and `/v1/stacks/{id}` (the stack with its entries in the author's order).
 * @module
 */
import { z } from 'zod';
import { enumParam, textParam } from '../../edge/query.js';
import type { StackSearch } from '../queries.js';
import type { CatalogueRoute } from './context.js';
import { stackItem, stackList } from '../posts.js';
import { pagingShape, sfwQuery } from './params.js';
import { byIdRow, pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The query of `GET /v1/stacks`: `q`, `type` (anime, manga or mixed), `page`, `limit`. */
export const stackSearchQuery = z
  .object({ q: textParam('q', 200), type: enumParam('type', { anime: 'anime', manga: 'manga', mixed: 'mixed' }), ...pagingShape() })
  .transform((v): StackSearch => ({ q: v.q, type: v.type, page: v.page, limit: v.limit }));

/** The stack routes. */
export const stackRoutes: CatalogueRoute[] = [
  pageRow('/v1/stacks', 'full', { query: stackSearchQuery, response: res.stackListResponseSchema }, (search, { records }) => stackList(records, search)),
  byIdRow('stack', '/v1/stacks/:id', { query: sfwQuery, response: res.stackFullResponseSchema }, (id, sfw, { records }) => stackItem(records, id, sfw)),
];
