/**
 * The top lists: anime and manga by the rules of `TOP_ORDER`, characters and people by favorites.
 * @module
 */
import type { Page, Paging, TopAnimeQuery, TopMangaQuery } from './queries.js';
import type { Anime } from '../schemas/anime.js';
import type { Manga } from '../schemas/manga.js';
import type { CollectionRecord } from '../seam/collections.js';
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

/**
 * Top anime (`GET /v1/top/anime`): approved entries in the order `TOP_ORDER` gives the query's `filter`.
 * @param records - The record store.
 * @param q - The validated query.
 */
export function topAnime(records: CatalogueStore, q: TopAnimeQuery): Promise<Page<Anime>> {
  const { where, orderBy } = topQuery(topRule(q.filter));
  where.push(...sfwWhere(q.sfw), ...oneOf('type', q.type), ...oneOf('rating', q.rating));
  return records.query('anime', { where, orderBy, ...slice(q) });
}

/**
 * Top manga (`GET /v1/top/manga`), as {@link topAnime} without ratings.
 * @param records - The record store.
 * @param q - The validated query.
 */
export function topManga(records: CatalogueStore, q: TopMangaQuery): Promise<Page<Manga>> {
  const { where, orderBy } = topQuery(topRule(q.filter));
  where.push(...sfwWhere(q.sfw), ...oneOf('type', q.type));
  return records.query('manga', { where, orderBy, ...slice(q) });
}

/**
 * Characters or people with favorites, most first (`GET /v1/top/characters`, `/v1/top/people`).
 * @param records - The record store.
 * @param collection - `characters` or `people`.
 * @param paging - The page.
 */
export function topFavorited<C extends 'characters' | 'people'>(records: CatalogueStore, collection: C, paging: Paging): Promise<Page<CollectionRecord<C>>> {
  return records.query(collection, { where: FAVORITED, orderBy: MOST_FAVORITED, ...slice(paging) });
}
