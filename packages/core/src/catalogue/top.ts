/**
 * The top lists: anime and manga by the rules of `TOP_ORDER`, characters and people by favorites.
 * @module
 */
import type { Catalogue } from './store.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { topQuery, topRule } from './top-order.js';
import { BY_ID } from './named.js';
import { sfwWhere, slice } from './shared.js';

/** Most favorited first, ties by `mal_id`. */
const MOST_FAVORITED: readonly OrderKey[] = [{ field: 'favorites', dir: 'desc' }, BY_ID];
/** Only records with favorites. */
const FAVORITED: readonly Condition[] = [{ field: 'favorited', op: 'eq', value: true }];

/** The conditions of a `type` (or `rating`) filter: one of the labels, if any are given. */
const oneOf = (field: string, values: readonly string[] | undefined): Condition[] => (values ? [{ field, op: 'in', values }] : []);

/** The top-list methods of `Catalogue`. */
export type TopMethods = Pick<Catalogue, 'getTopAnime' | 'getTopManga' | 'getTopCharacters' | 'getTopPeople'>;

/**
 * The top-list methods over a record store.
 * @param records - The record store.
 */
export function topMethods(records: CatalogueStore): TopMethods {
  return {
    getTopAnime(q) {
      const { where, orderBy } = topQuery(topRule(q.filter));
      where.push(...sfwWhere(q.sfw), ...oneOf('type', q.types), ...oneOf('rating', q.ratings));
      return records.query('anime', { where, orderBy, ...slice(q) });
    },
    getTopManga(q) {
      const { where, orderBy } = topQuery(topRule(q.filter));
      where.push(...sfwWhere(q.sfw), ...oneOf('type', q.types));
      return records.query('manga', { where, orderBy, ...slice(q) });
    },
    getTopCharacters: (paging) => records.query('characters', { where: FAVORITED, orderBy: MOST_FAVORITED, ...slice(paging) }),
    getTopPeople: (paging) => records.query('people', { where: FAVORITED, orderBy: MOST_FAVORITED, ...slice(paging) }),
  };
}
