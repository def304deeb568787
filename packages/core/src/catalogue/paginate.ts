/**
 * The pagination object of list responses (spec, "Pagination object").
 * @module
 */
import type { Pagination } from '../schemas/common.js';

/** The highest page a client may request (spec, "Query bounds"). */
export const MAX_PAGE = 1000;

/**
 * Builds the pagination object of a list response.
 * @param total - Total matching records.
 * @param page - Requested page (1-based).
 * @param limit - Records per page.
 * @param count - Records on this page.
 * @returns The object; with nothing matched, page 1 of 1 with zero counts (spec).
 */
export function paginate(total: number, page: number, limit: number, count: number): Pagination {
  if (total === 0) {
    return { last_visible_page: 1, has_next_page: false, current_page: 1, items: { count: 0, total: 0, per_page: limit } };
  }
  // Pages past MAX_PAGE cannot be requested, so they are not "available" (spec: last_visible_page).
  const last = Math.min(MAX_PAGE, Math.ceil(total / limit));
  return {
    last_visible_page: last,
    has_next_page: page < last,
    current_page: page,
    items: { count, total, per_page: limit },
  };
}

/**
 * The slice of `items` for a page.
 * @param items - Everything that matched, in order.
 * @param page - Requested page (1-based).
 * @param limit - Records per page.
 */
export function pageSlice<T>(items: readonly T[], page: number, limit: number): T[] {
  return items.slice((page - 1) * limit, page * limit);
}
