/**
 * Featured articles (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/articles` (browse
 * and search, `tag` filter), `/v1/articles/tags` and `/v1/articles/{id}`.
 * @module
 */
import { ok } from '../internal/pipeline.js';
import { parseId, parseQuery } from '../query.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { postSearchQuery } from './news.js';
import { dataOr404, fullList, sfwQuery } from './params.js';

/** `GET /v1/articles`: featured articles, newest first, or by relevance with `q`. */
export const searchArticles: CatalogueHandler = async (request, { store }) => {
  const search = parseQuery(postSearchQuery, request.query);
  return fullList(await store.searchArticles(search), search);
};

/** `GET /v1/articles/tags`: article tags with how many articles carry each. */
export const getArticleTags: CatalogueHandler = async (_request, { store }) => ok({ data: await store.listArticleTags() });

/** `GET /v1/articles/{id}`: one article with its text and related anime and manga. */
export const getArticleById: CatalogueHandler = async (request, { store }) => {
  const articleId = parseId('id', request.params.id);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('article', articleId, await store.getArticle(articleId, sfw));
};

/** The article routes; `/tags` precedes `/:id`. */
export const articleRoutes: CatalogueRoute[] = [
  { path: '/v1/articles', handler: searchArticles, query: postSearchQuery },
  { path: '/v1/articles/tags', handler: getArticleTags },
  { path: '/v1/articles/:id', handler: getArticleById, query: sfwQuery },
];
