/**
 * `GET /v1/reviews/anime` and `/v1/reviews/manga`: recent reviews with their entries (short
 * pagination, as Jikan), with `preliminary`, `spoilers`, `sort` and SFW (by the reviewed entry);
 * and one entry's reviews, `GET /v1/anime/{id}/reviews` and `/v1/manga/{id}/reviews`.
 * @module
 */
import { z } from 'zod';
import { enumParam, flagParam } from '../../edge/query.js';
import { sfwMode } from '../../seam/sfw.js';
import type { EntryReviewQuery } from '../queries.js';
import type { CatalogueRoute } from './context.js';
import { ANIME_PARTS, MANGA_PARTS } from '../entries.js';
import { reviewList } from '../feeds.js';
import { pageParam, sfwShape } from './params.js';
import { pageRow, subPageRow } from './rows.js';
import { REVIEW_PAGE_SIZE } from './top.js';
import * as res from '../../schemas/responses.js';

/** `sort` values, case-insensitive, mapped to Jikan's spelling. */
export const REVIEW_SORTS = { mostvoted: 'mostVoted', newest: 'newest', oldest: 'oldest' } as const;

/** The query of the review lists: `page`, `preliminary` and `spoilers` (default off), `sort`, SFW. */
export const reviewsQuery = z
  .object({
    page: pageParam(),
    preliminary: flagParam('preliminary'),
    spoilers: flagParam('spoilers'),
    sort: enumParam('sort', REVIEW_SORTS),
    ...sfwShape(),
  })
  .transform((v) => ({
    page: v.page,
    limit: REVIEW_PAGE_SIZE,
    preliminary: v.preliminary,
    spoilers: v.spoilers,
    sort: v.sort ?? ('mostVoted' as const),
    sfw: sfwMode(v.sfw, v['sfw-strict']),
  }));

/**
 * The query of one entry's reviews: `page`, `preliminary` and `spoilers` (both default false) and
 * `sort` (docs/specification.md: Jikan routes and parameters). No SFW: the only entry involved is the requested root (spec, SFW rule 3).
 */
export const entryReviewsQuery = z
  .object({
    page: pageParam(),
    preliminary: flagParam('preliminary'),
    spoilers: flagParam('spoilers'),
    sort: enumParam('sort', REVIEW_SORTS),
  })
  .transform(
    (v): EntryReviewQuery => ({
      page: v.page,
      limit: REVIEW_PAGE_SIZE,
      preliminary: v.preliminary,
      spoilers: v.spoilers,
      sort: v.sort ?? 'mostVoted',
    }),
  );

/** The review routes: recent reviews of a kind, and one entry's reviews (short pagination, as Jikan). */
export const reviewRoutes: CatalogueRoute[] = [
  ...(['anime', 'manga'] as const).map((type) =>
    pageRow(`/v1/reviews/${type}`, 'short', { query: reviewsQuery, response: type === 'anime' ? res.animeReviewsResponseSchema : res.mangaReviewsResponseSchema }, (query, { records }) => reviewList(records, { ...query, type })),
  ),
  subPageRow('anime', '/v1/anime/:id/reviews', 'short', { query: entryReviewsQuery, response: res.animeEntryReviewsResponseSchema }, (id, query, { records }) => ANIME_PARTS.Reviews(records, id, query)),
  subPageRow('manga', '/v1/manga/:id/reviews', 'short', { query: entryReviewsQuery, response: res.mangaEntryReviewsResponseSchema }, (id, query, { records }) => MANGA_PARTS.Reviews(records, id, query)),
];
