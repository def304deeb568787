/**
 * Query pieces and answers that many catalogue routes share: paging, the two SFW flags, the two
 * pagination shapes, and the `{ data }` envelope with 404 for a missing root record.
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../../edge/errors.js';
import { ok, type Reply } from '../../edge/pipeline.js';
import { paginate } from '../paginate.js';
import { enumParam, fail, flagParam, intParam, letterParam, parseId, raw, textParam } from '../../edge/query.js';
import { documented } from '../../internal/param-docs.js';
import type { Approval } from '../kinds.js';
import { sfwMode } from '../../seam/sfw.js';
import type { Page } from '../queries.js';

/**
 * The `{id}` path parameter of a route: a positive integer.
 * @param request - The route request.
 * @throws {@link ApiError} 400 naming `id`.
 */
export function pathId(request: { params: Record<string, string> }): number {
  return parseId('id', request.params.id);
}

/** `page`: 1 to 1000, default 1 (spec, "Query bounds"). */
export const pageParam = () => intParam('page', 1, 1000, 1);

/** `limit`: 1 to 50, default 25 (spec, "Query bounds"). */
export const limitParam = () => intParam('limit', 1, 50, 25);

/** `page` and `limit`, for spreading into a `z.object`. */
export const pagingShape = () => ({ page: pageParam(), limit: limitParam() });

/** `sfw` and `sfw-strict`, for spreading into a `z.object`; combine them with `sfwMode`. */
export const sfwShape = () => ({ sfw: flagParam('sfw'), 'sfw-strict': flagParam('sfw-strict') });

/**
 * The SFW mode and the page of a query parsed from `sfwShape()` and `pagingShape()` (with any
 * `limit`), as the store queries take them.
 * @param v - The parsed query.
 */
export const sfwAndPage = (v: { sfw: boolean; 'sfw-strict': boolean; page: number; limit: number }) => ({
  sfw: sfwMode(v.sfw, v['sfw-strict']),
  page: v.page,
  limit: v.limit,
});

/** Jikan's page size of the lists it scrapes from MyAnimeList (episodes, episode videos, news). */
export const SCRAPED_PAGE_SIZE = 100;

/** The query of detail endpoints with SFW: `sfw` and `sfw-strict`. */
export const sfwQuery = z.object(sfwShape()).transform((v) => sfwMode(v.sfw, v['sfw-strict']));

/** The query of scraped sub-lists: `page` only, fixed page size (docs/specification.md: Jikan routes and parameters). */
export const scrapedPageQuery = z.object({ page: pageParam() }).transform((v) => ({ page: v.page, limit: SCRAPED_PAGE_SIZE }));

/** The query of entry news: `page`, `sfw`, `sfw-strict`. */
export const entryNewsQuery = z
  .object({ page: pageParam(), ...sfwShape() })
  .transform((v) => ({ paging: { page: v.page, limit: SCRAPED_PAGE_SIZE }, sfw: sfwMode(v.sfw, v['sfw-strict']) }));

/** The query of store-backed sub-lists (stacks, articles): `page` and `limit`. */
export const subListQuery = z.object(pagingShape());

/**
 * The query of a search over named records (characters, people, producers, magazines): `q`, `page`,
 * `limit`, `order_by` (out of `orderBy`), `sort` and `letter` (docs/specification.md: Jikan routes and parameters).
 * @param orderBy - The allowed `order_by` values.
 * @returns The zod schema; its output is a `NamedSearch`.
 */
export function namedSearchQuery<const O extends Record<string, string>>(orderBy: O) {
  return z
    .object({
      q: textParam('q', 200),
      ...pagingShape(),
      order_by: enumParam('order_by', orderBy),
      sort: enumParam('sort', { asc: 'asc', desc: 'desc' }),
      letter: letterParam('letter'),
    })
    .transform((v) => ({
      q: v.q,
      page: v.page,
      limit: v.limit,
      order_by: v.order_by,
      sort: v.sort ?? ('asc' as const),
      letter: v.letter,
    }));
}

/**
 * A list answer with the full pagination object (Jikan `pagination_plus`: store-backed lists).
 * @param page - What the store returned.
 * @param paging - The requested page and page size.
 * @returns `{ pagination, data }`.
 * @example
 * ```ts
 * return fullList(await store.searchManga(search), search);
 * ```
 */
export function fullList<T>(page: Page<T>, paging: { page: number; limit: number }): Reply {
  return ok({ pagination: paginate(page.total, paging.page, paging.limit, page.data.length), data: page.data });
}

/**
 * A list answer with the short pagination object `{ last_visible_page, has_next_page }`, as Jikan
 * gives on the lists it scrapes (episodes, news, reviews, recommendations…; docs/specification.md: Jikan pagination).
 * @param page - What the store returned.
 * @param paging - The requested page and page size.
 * @returns `{ pagination, data }`.
 */
export function shortList<T>(page: Page<T>, paging: { page: number; limit: number }): Reply {
  const { last_visible_page, has_next_page } = paginate(page.total, paging.page, paging.limit, page.data.length);
  return ok({ pagination: { last_visible_page, has_next_page }, data: page.data });
}

/**
 * `{ data }` of a record that belongs to a root record, or 404 when the store found no root.
 * @param kind - The root's kind, for the 404 message (`anime`, `manga`, `character`…).
 * @param id - The root's id.
 * @param data - What the store returned; `undefined` means the root does not exist.
 * @throws {@link ApiError} 404 when `data` is `undefined`.
 */
export function dataOr404(kind: string, id: number, data: unknown): Reply {
  if (data === undefined) throw ApiError.notFound(kind, id);
  return ok({ data });
}

/**
 * A paged sub-list of a root record, or 404 when the store found no root.
 * @param kind - The root's kind, for the 404 message.
 * @param id - The root's id.
 * @param page - What the store returned; `undefined` means the root does not exist.
 * @param paging - The requested page and page size.
 * @param shape - `full` (Jikan `pagination_plus`) or `short` (Jikan `pagination`).
 * @throws {@link ApiError} 404 when `page` is `undefined`.
 */
export function pageOr404<T>(
  kind: string,
  id: number,
  page: Page<T> | undefined,
  paging: { page: number; limit: number },
  shape: 'full' | 'short',
): Reply {
  if (page === undefined) throw ApiError.notFound(kind, id);
  return shape === 'full' ? fullList(page, paging) : shortList(page, paging);
}

const UNAPPROVED: Record<string, Approval> = { false: 'approved', '0': 'approved', true: 'all', '1': 'all', only: 'unapproved' };

/**
 * The `unapproved` parameter: absent or `false` → approved entries only; bare, `true` → both; `only` → unapproved only.
 * @param name - Parameter name, for the message.
 */
export function unapprovedParam(name: string) {
  return documented(raw.transform((value, ctx): Approval => {
    if (value === undefined) return 'approved';
    if (Array.isArray(value)) return fail(ctx, `${name} must be given once`);
    const s = value.toLowerCase();
    if (s === '') return 'all';
    // Own keys only: `unapproved=constructor` must not find Object.prototype.constructor.
    return (Object.hasOwn(UNAPPROVED, s) ? UNAPPROVED[s] : undefined) ?? fail(ctx, `${name} must be one of: false, true, only (or given bare)`);
  }), z.enum(['', 'false', 'true', 'only']));
}
