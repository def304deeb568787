/**
 * News (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/news` (paged, `q` search, `tag`
 * filter), `/v1/news/tags` (tags with counts) and `/v1/news/{id}` (the full item with its related
 * anime and manga, SFW-filtered on request).
 * @module
 */
import { z } from 'zod';
import { ok } from '../internal/pipeline.js';
import { idParam, parseId, parseQuery, textParam } from '../query.js';
import type { PostSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, fullList, pagingShape, sfwQuery } from './params.js';

/** The query of `GET /v1/news` and `GET /v1/articles`: `q`, `tag` (a tag id), `page`, `limit`. */
export const postSearchQuery = z.object({ q: textParam('q', 200), tag: idParam('tag'), ...pagingShape() }).transform(
  (v): PostSearch => ({ q: v.q, tag: v.tag, page: v.page, limit: v.limit }),
);

/** `GET /v1/news`: news, newest first, or by relevance with `q`. */
export const searchNews: CatalogueHandler = async (request, { store }) => {
  const search = parseQuery(postSearchQuery, request.query);
  return fullList(await store.searchNews(search), search);
};

/** `GET /v1/news/tags`: news tags with how many items carry each. */
export const getNewsTags: CatalogueHandler = async (_request, { store }) => ok({ data: await store.listNewsTags() });

/** `GET /v1/news/{id}`: one news item with its text, tags and related anime and manga. */
export const getNewsById: CatalogueHandler = async (request, { store }) => {
  const newsId = parseId('id', request.params.id);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('news', newsId, await store.getNews(newsId, sfw));
};

/** The news routes; `/tags` precedes `/:id`. */
export const newsRoutes: CatalogueRoute[] = [
  { path: '/v1/news', handler: searchNews, query: postSearchQuery },
  { path: '/v1/news/tags', handler: getNewsTags },
  { path: '/v1/news/:id', handler: getNewsById, query: sfwQuery },
];
