/**
 * `GET /v1/manga` (search), `GET /v1/manga/{id}` and its sub-resources: `full`, `relations`,
 * `recommendations`, `news`, `stacks`, `articles`, `characters`, `pictures`, `statistics`, `moreinfo`
 * and `external`. A manga has no rating: SFW for manga reads the Hentai and Erotica tags (strict: Ecchi).
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { ok } from '../internal/pipeline.js';
import {
  dateParam,
  enumListParam,
  enumParam,
  idListParam,
  letterParam,
  numberParam,
  parseQuery,
  textParam,
  unapprovedParam,
} from '../query.js';
import { sfwMode } from '../sfw.js';
import type { MangaSearch } from '../store.js';
import { MANGA, orderByValues } from '../catalogue/kinds.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, entryNewsQuery, fullList, pageOr404, pagingShape, pathId, sfwQuery, sfwShape, subListQuery } from './params.js';

export { MANGA_STATUSES, MANGA_TYPES } from '../catalogue/kinds.js';

/** The query of `GET /v1/manga`: the anime search's parameters with manga types and statuses, `magazines` and no `rating`. */
export const mangaSearchQuery = z
  .object({
    q: textParam('q', 200),
    ...pagingShape(),
    type: enumListParam('type', MANGA.types),
    status: enumParam('status', MANGA.statuses),
    ...sfwShape(),
    unapproved: unapprovedParam('unapproved'),
    score: numberParam('score', 1, 9.99),
    min_score: numberParam('min_score', 0, 10),
    max_score: numberParam('max_score', 1, 10),
    genres: idListParam('genres'),
    genres_exclude: idListParam('genres_exclude'),
    magazines: idListParam('magazines'),
    order_by: enumParam('order_by', orderByValues(MANGA.orderBy)),
    sort: enumParam('sort', { asc: 'asc', desc: 'desc' }),
    letter: letterParam('letter'),
    start_date: dateParam('start_date'),
    end_date: dateParam('end_date'),
  })
  .superRefine((v, ctx) => {
    if (v.min_score !== undefined && v.max_score !== undefined && v.min_score > v.max_score) {
      ctx.addIssue({ code: 'custom', message: 'min_score must be less than or equal to max_score' });
    }
    if (v.start_date && v.end_date && v.start_date.first > v.end_date.last) {
      ctx.addIssue({ code: 'custom', message: 'start_date must not be after end_date' });
    }
  })
  .transform(
    (v): MangaSearch => ({
      q: v.q,
      page: v.page,
      limit: v.limit,
      types: v.type,
      status: v.status,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      approval: v.unapproved,
      score: v.score,
      minScore: v.min_score,
      maxScore: v.max_score,
      genres: v.genres,
      genresExclude: v.genres_exclude,
      magazines: v.magazines,
      orderBy: v.order_by,
      sort: v.sort ?? 'asc',
      letter: v.letter,
      startDate: v.start_date,
      endDate: v.end_date,
    }),
  );

/** `GET /v1/manga`: search, filter and page through manga. */
export const searchManga: CatalogueHandler = async (request, { catalogue: store }) => {
  const search = parseQuery(mangaSearchQuery, request.query);
  return fullList(await store.searchManga(search), search);
};

/** `GET /v1/manga/{id}`: one manga. */
export const getMangaById: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const manga = await store.getManga(mangaId);
  if (!manga) throw ApiError.notFound('manga', mangaId);
  return ok({ data: manga });
};

/** `GET /v1/manga/{id}/full`: the manga with relations and external links. */
export const getMangaFullById: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('manga', mangaId, await store.getMangaFull(mangaId, sfw));
};

/** `GET /v1/manga/{id}/relations`: related manga and anime, grouped by relation. */
export const getMangaRelations: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('manga', mangaId, await store.getMangaRelations(mangaId, sfw));
};

/** `GET /v1/manga/{id}/recommendations`: manga recommended with this one. */
export const getMangaRecommendations: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('manga', mangaId, await store.getMangaRecommendations(mangaId, sfw));
};

/** `GET /v1/manga/{id}/news`: news about the manga (short pagination, as Jikan). */
export const getMangaNews: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const { paging, sfw } = parseQuery(entryNewsQuery, request.query);
  return pageOr404('manga', mangaId, await store.getMangaNews(mangaId, paging, sfw), paging, 'short');
};

/** `GET /v1/manga/{id}/stacks`: interest stacks that contain the manga. */
export const getMangaStacks: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('manga', mangaId, await store.getMangaStacks(mangaId, paging), paging, 'full');
};

/** `GET /v1/manga/{id}/articles`: featured articles about the manga. */
export const getMangaArticles: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('manga', mangaId, await store.getMangaArticles(mangaId, paging), paging, 'full');
};

/** `GET /v1/manga/{id}/characters`: characters with their roles. */
export const getMangaCharacters: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  return dataOr404('manga', mangaId, await store.getMangaCharacters(mangaId));
};

/** `GET /v1/manga/{id}/pictures`: pictures in JPG and WebP. */
export const getMangaPictures: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  return dataOr404('manga', mangaId, await store.getMangaPictures(mangaId));
};

/** `GET /v1/manga/{id}/statistics`: list-status counts and the score distribution. */
export const getMangaStatistics: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  return dataOr404('manga', mangaId, await store.getMangaStatistics(mangaId));
};

/** `GET /v1/manga/{id}/moreinfo`: the "more info" notes. */
export const getMangaMoreInfo: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  return dataOr404('manga', mangaId, await store.getMangaMoreinfo(mangaId));
};

/** `GET /v1/manga/{id}/external`: links to other sites about the manga. */
export const getMangaExternal: CatalogueHandler = async (request, { catalogue: store }) => {
  const mangaId = pathId(request);
  return dataOr404('manga', mangaId, await store.getMangaExternal(mangaId));
};

/** The manga routes (`/v1/manga/ids` and `/deleted` live in `ids.ts`, ahead of `/v1/manga/:id`). */
export const mangaRoutes: CatalogueRoute[] = [
  { path: '/v1/manga', handler: searchManga, query: mangaSearchQuery },
  { path: '/v1/manga/:id', handler: getMangaById },
  { path: '/v1/manga/:id/full', handler: getMangaFullById, query: sfwQuery },
  { path: '/v1/manga/:id/relations', handler: getMangaRelations, query: sfwQuery },
  { path: '/v1/manga/:id/recommendations', handler: getMangaRecommendations, query: sfwQuery },
  { path: '/v1/manga/:id/news', handler: getMangaNews, query: entryNewsQuery },
  { path: '/v1/manga/:id/stacks', handler: getMangaStacks, query: subListQuery },
  { path: '/v1/manga/:id/articles', handler: getMangaArticles, query: subListQuery },
  { path: '/v1/manga/:id/characters', handler: getMangaCharacters },
  { path: '/v1/manga/:id/pictures', handler: getMangaPictures },
  { path: '/v1/manga/:id/statistics', handler: getMangaStatistics },
  { path: '/v1/manga/:id/moreinfo', handler: getMangaMoreInfo },
  { path: '/v1/manga/:id/external', handler: getMangaExternal },
];
