/**
 * Featured articles (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/articles` (browse
 * and search, `tag` filter), `/v1/articles/tags` and `/v1/articles/{id}`.
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { articleItem, articleList, articleTags } from '../posts.js';
import { postSearchQuery } from './news.js';
import { sfwQuery } from './params.js';
import { byIdRow, dataRow, pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

/** The article routes. */
export const articleRoutes: CatalogueRoute[] = [
  pageRow('/v1/articles', 'full', { query: postSearchQuery, response: res.articleListResponseSchema }, (search, { records }) => articleList(records, search)),
  dataRow('/v1/articles/tags', { work: 'search', response: res.articleTagsResponseSchema }, (_, { records }) => articleTags(records)),
  byIdRow('article', '/v1/articles/:id', { query: sfwQuery, response: res.articleFullResponseSchema }, (id, sfw, { records }) => articleItem(records, id, sfw)),
];
