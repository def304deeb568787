/**
 * `GET /v1/manga` (search), `GET /v1/manga/{id}` and its sub-resources: `full`, `relations`,
 * `recommendations`, `news`, `stacks`, `articles`, `characters`, `pictures`, `statistics`, `moreinfo`
 * and `external`. A manga has no rating: SFW for manga reads the Hentai and Erotica tags (strict: Ecchi).
 * @module
 */
import { z } from 'zod';
import {
  dateParam,
  enumListParam,
  enumParam,
  idListParam,
  letterParam,
  numberParam,
  textParam,
  unapprovedParam,
} from '../query.js';
import { sfwMode } from '../sfw.js';
import type { MangaSearch } from '../store.js';
import { MANGA, orderByValues } from '../catalogue/kinds.js';
import type { CatalogueRoute } from './context.js';
import { entryRows } from './entry-rows.js';
import { pagingShape, sfwShape } from './params.js';
import { pageRow } from './rows.js';

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

/** The manga routes: search, then one manga and its sub-resources (`entry-rows.ts`). */
export const mangaRoutes: CatalogueRoute[] = [
  pageRow('/v1/manga', 'full', { query: mangaSearchQuery }, (search, { catalogue }) => catalogue.searchManga(search)),
  ...entryRows('manga'),
];
