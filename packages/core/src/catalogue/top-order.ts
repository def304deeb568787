/**
 * The order of the top lists (`GET /v1/top/anime`, `/v1/top/manga`), one rule per `filter`, shared
 * by anime and manga and by every store: which entries a list holds and which field orders it.
 *
 * Sources, in the Jikan server (https://github.com/jikan-me/jikan-rest):
 * - `app/Features/QueryTopAnimeItemsHandler.php` and `QueryTopMangaItemsHandler.php` map each
 *   `filter` to a repository query;
 * - `app/Repositories/DefaultAnimeRepository.php` and `DefaultMangaRepository.php` hold those
 *   queries: `orderByRank` (`rank` not null and > 0, ascending), `getTopAiringItems` (`airing`,
 *   score descending), `getTopUpcomingItems` / `getTopPublishingItems` (status, members
 *   descending), `orderByPopularity` (members descending), `orderByFavoriteCount` (favorites
 *   descending).
 *
 * The plain list is by `rank`, as MyAnimeList's own top pages are and as Jikan's `orderByRank` does:
 * unranked entries are not listed. (Jikan's handler has ordered it by `score` since July 2023;
 * MAL derives `rank` from the score, so on consistent data the two orders are the same except that
 * `rank` breaks score ties and leaves unscored entries out, which is what clients number `#1, #2…`
 * by.) `bypopularity` is by `popularity`, the rank MAL derives from `members`, for the same reason.
 * Unapproved entries are never listed: MAL ranks only approved entries, and `/v1/anime` leaves them
 * out by default too. Ties (and equal nulls, which sort last) go by `mal_id` ascending, so pages never
 * repeat or skip an entry.
 * @module
 */
import { approvalWhere } from './kinds.js';
import type { Condition, OrderKey } from '../seam/types.js';

/** The `filter` values of `/v1/top/anime` and `/v1/top/manga`; `none` is the plain list. */
export type TopFilter = 'none' | 'airing' | 'publishing' | 'upcoming' | 'bypopularity' | 'favorite';

/** One rule of the top-list table. */
export interface TopRule {
  /** The record field that orders the list. */
  readonly key: 'rank' | 'popularity' | 'score' | 'members' | 'favorites';
  /** Its direction (nulls last either way, ties by `mal_id` ascending). */
  readonly sort: 'asc' | 'desc';
  /** Whether an entry whose `key` is null is left out of the list. */
  readonly requireKey: boolean;
  /**
   * Which entries the list holds (besides approval, SFW and the `type`/`rating` query): conditions
   * on the fields of `COLLECTIONS.anime` and `COLLECTIONS.manga`, so that every store answers them
   * in its own query.
   */
  readonly where?: readonly Condition[];
}

/**
 * The top-list rules by `filter`, for anime and manga alike (`airing` only reaches anime and
 * `publishing` only manga through the query's allowed values).
 * @example
 * ```ts
 * import { TOP_ORDER } from '@catalogue-api/core/store';
 *
 * TOP_ORDER.bypopularity; // { key: 'popularity', sort: 'asc', requireKey: true }
 * ```
 */
export const TOP_ORDER: Readonly<Record<TopFilter, TopRule>> = {
  none: { key: 'rank', sort: 'asc', requireKey: true },
  airing: { key: 'score', sort: 'desc', requireKey: false, where: [{ field: 'airing', op: 'eq', value: true }] },
  publishing: { key: 'members', sort: 'desc', requireKey: false, where: [{ field: 'publishing', op: 'eq', value: true }] },
  upcoming: { key: 'members', sort: 'desc', requireKey: false, where: [{ field: 'status', op: 'in', values: ['Not yet aired', 'Not yet published'] }] },
  bypopularity: { key: 'popularity', sort: 'asc', requireKey: true },
  favorite: { key: 'favorites', sort: 'desc', requireKey: false },
};

/**
 * The field of `COLLECTIONS.anime` and `.manga` that tells whether an entry has a value of a key:
 * the same condition as `notNull` on the key, on a field a store may keep group counts of
 * (`FieldSpec.grouped`), so that a list's total need not count every ranked entry.
 */
const HAS_KEY: Partial<Record<TopRule['key'], string>> = { rank: 'ranked', popularity: 'popularity_ranked' };

/**
 * The rule of a top-list `filter`.
 * @param filter - The query's `filter`, or undefined for the plain list.
 * @returns Its rule in `TOP_ORDER`.
 * @example
 * ```ts
 * topRule(undefined).key; // 'rank'
 * ```
 */
export function topRule(filter: Exclude<TopFilter, 'none'> | undefined): TopRule {
  return TOP_ORDER[filter ?? 'none'];
}

/**
 * The query of a rule's list over the anime or manga collection: approved entries, with the
 * ordering field when the rule needs it, kept by the rule's conditions; ordered by the field in
 * the rule's direction (nulls last), ties by `mal_id` ascending.
 * @param rule - A rule of `TOP_ORDER`.
 * @returns The conditions and the ordering.
 * @example
 * ```ts
 * topQuery(TOP_ORDER.bypopularity).orderBy; // [{ field: 'popularity', dir: 'asc' }, { field: 'mal_id', dir: 'asc' }]
 * ```
 */
export function topQuery(rule: TopRule): { where: Condition[]; orderBy: OrderKey[] } {
  const where: Condition[] = approvalWhere('approved');
  if (rule.requireKey) {
    const has = HAS_KEY[rule.key];
    where.push(has ? { field: has, op: 'eq', value: true } : { field: rule.key, op: 'notNull' });
  }
  if (rule.where) where.push(...rule.where);
  return { where, orderBy: [{ field: rule.key, dir: rule.sort }, { field: 'mal_id', dir: 'asc' }] };
}
