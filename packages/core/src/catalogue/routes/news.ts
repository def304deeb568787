/**
 * News (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/news` (paged, `q` search, `tag`
 * filter), `/v1/news/tags` (tags with counts) and `/v1/news/{id}` (the full item with its related
 * anime and manga, SFW-filtered on request).
 * @module
 */
import { z } from 'zod';
import { idParam, textParam } from '../../edge/query.js';
import type { PostSearch } from '../queries.js';
import type { CatalogueRoute } from './context.js';
import { newsItem, newsList, newsTags } from '../posts.js';
import { pagingShape, sfwQuery } from './params.js';
import { byIdRow, dataRow, pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The query of `GET /v1/news` and `GET /v1/articles`: `q`, `tag` (a tag id), `page`, `limit`. */
export const postSearchQuery = z.object({ q: textParam('q', 200), tag: idParam('tag'), ...pagingShape() }).transform(
  (v): PostSearch => ({ q: v.q, tag: v.tag, page: v.page, limit: v.limit }),
);

/** The news routes. */
export const newsRoutes: CatalogueRoute[] = [
  pageRow('/v1/news', 'full', { query: postSearchQuery, response: res.newsListResponseSchema }, (search, { records }) => newsList(records, search)),
  dataRow('/v1/news/tags', { work: 'search', response: res.newsTagsResponseSchema }, (_, { records }) => newsTags(records)),
  byIdRow('news', '/v1/news/:id', { query: sfwQuery, response: res.newsFullResponseSchema }, (id, sfw, { records }) => newsItem(records, id, sfw)),
];
