/**
 * Recent recommendations and the review lists. Both leave out records whose entries the request's
 * SFW mode hides or the catalogue lacks; that is a condition of the query, so pages and totals
 * count only what is shown.
 * @module
 */
import type { SfwMode } from '../seam/sfw.js';
import type { Page, RecentRecommendationQuery, ReviewQuery } from './queries.js';
import type { Anime } from '../schemas/anime.js';
import type { Manga } from '../schemas/manga.js';
import type { RecentRecommendation } from '../schemas/recommendation.js';
import type { ReviewRecord } from '../schemas/records.js';
import type { ReviewWithEntry } from '../schemas/review.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { REVIEW_ORDERS, toEntryReview } from './community.js';
import { ALL, entriesById, referencedIds, sfwWhere, slice, toMeta, type Kind } from './shared.js';

/**
 * Which of some entry ids a list must leave out: those the mode hides, and those of entries the
 * store does not have.
 * @param records - The record store.
 * @param kind - Anime or manga.
 * @param mode - The request's SFW mode.
 * @param referenced - The ids the list's records refer to.
 */
async function unshownIds(records: CatalogueStore, kind: Kind, mode: SfwMode, referenced: readonly number[]): Promise<number[]> {
  if (referenced.length === 0) return [];
  const where: Condition[] = [{ field: 'mal_id', op: 'in', values: referenced }, ...sfwWhere(mode)];
  const shown = new Set(await records.pluck(kind, 'mal_id', { where, ...ALL }));
  return referenced.filter((id) => !shown.has(id));
}

/** Recommendations newest first; ties by the pair's first id, then its second. */
const NEWEST_PAIR: readonly OrderKey[] = [
  { field: 'date', dir: 'desc' },
  { field: 'first', dir: 'asc' },
  { field: 'second', dir: 'asc' },
];


/** A review with its entry: as its entry's own list shows it, and the entry last. */
function toReview(r: ReviewRecord, entry: Anime | Manga): ReviewWithEntry {
  return { ...toEntryReview(r.type, r), entry: toMeta(entry) } as ReviewWithEntry;
}

/** One page of reviews of a kind, in an order, without those the query leaves out. */
async function reviewPage(records: CatalogueStore, q: ReviewQuery, orderBy: readonly OrderKey[]): Promise<Page<ReviewWithEntry>> {
  const where: Condition[] = [{ field: 'type', op: 'eq', value: q.type }];
  if (!q.preliminary) where.push({ field: 'is_preliminary', op: 'ne', value: true });
  if (!q.spoilers) where.push({ field: 'is_spoiler', op: 'ne', value: true });
  const unshown = await unshownIds(records, q.type, q.sfw, await referencedIds(records, 'reviews', 'entry_id', where));
  if (unshown.length > 0) where.push({ field: 'entry_id', op: 'notIn', values: unshown });
  const page = await records.query('reviews', { where, orderBy, ...slice(q) });
  const entries = await entriesById(records, q.type, page.data.map((r) => r.entry_id));
  return { data: page.data.map((r) => toReview(r, entries.get(r.entry_id)!)), total: page.total };
}

/**
 * Recent recommendations, newest first (`GET /v1/recommendations/{type}`); SFW leaves out pairs
 * with a filtered entry.
 * @param records - The record store.
 * @param q - The kind, SFW mode and page.
 */
export async function recentRecommendations(records: CatalogueStore, q: RecentRecommendationQuery): Promise<Page<RecentRecommendation>> {
  const where: Condition[] = [{ field: 'type', op: 'eq', value: q.type }];
  const unshown = await unshownIds(records, q.type, q.sfw, await referencedIds(records, 'recommendations', 'entry_ids', where));
  if (unshown.length > 0) where.push({ field: 'entry_ids', op: 'hasNone', values: unshown });
  const page = await records.query('recommendations', { where, orderBy: NEWEST_PAIR, ...slice(q) });
  const entries = await entriesById(records, q.type, page.data.flatMap((r) => r.entry_ids));
  const data = page.data.map((r): RecentRecommendation => {
    const [a, b] = r.entry_ids;
    return { mal_id: `${a}-${b}`, entry: [toMeta(entries.get(a)!), toMeta(entries.get(b)!)], content: r.content, date: r.date, user: r.user };
  });
  return { data, total: page.total };
}

/**
 * Reviews with their entry, in the query's order (`GET /v1/reviews/{type}`); SFW filters by the entry.
 * @param records - The record store.
 * @param q - The query.
 */
export function reviewList(records: CatalogueStore, q: ReviewQuery): Promise<Page<ReviewWithEntry>> {
  return reviewPage(records, q, REVIEW_ORDERS[q.sort ?? 'mostVoted']);
}

/**
 * The most-voted reviews (`GET /v1/top/reviews`).
 * @param records - The record store.
 * @param q - The query (its `sort` is not read).
 */
export function topReviews(records: CatalogueStore, q: ReviewQuery): Promise<Page<ReviewWithEntry>> {
  return reviewPage(records, q, REVIEW_ORDERS.mostVoted);
}
