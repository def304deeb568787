/**
 * Producers, magazines and genres: search, one producer with its external links, and the genre
 * lists with how many entries carry each.
 * @module
 */
import type { GenreCategory } from './queries.js';
import type { MediaKind } from './kinds.js';
import type { Link } from '../schemas/common.js';
import type { Genre, ProducerFull } from '../schemas/producer.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { BY_ID } from './named.js';
import { ALL, guarded, owner } from './shared.js';

/** Genres by category (`genres`, `explicit_genres`, `themes`, `demographics`), then id. */
const GENRE_ORDER: readonly OrderKey[] = [{ field: 'category_order', dir: 'asc' }, BY_ID];

/** A producer's external links (none when it has none). */
async function producerLinks(records: CatalogueStore, id: number): Promise<Link[]> {
  return (await records.get('external', owner('producer', id)))?.links ?? [];
}

/**
 * The producer with its external links (`GET /v1/producers/{id}/full`); `undefined` when there is none.
 * @param records - The record store.
 * @param id - The producer's id.
 */
export async function producerFull(records: CatalogueStore, id: number): Promise<ProducerFull | undefined> {
  const p = await records.get('producers', id);
  return p && { ...p, external: await producerLinks(records, id) };
}

/** The producer's external links (`GET /v1/producers/{id}/external`); `undefined` when there is no such producer. */
export const producerExternal = guarded('producers', producerLinks);

/**
 * Genres with entry counts, by category then id (`GET /v1/genres/{kind}`).
 * @param records - The record store.
 * @param kind - Anime or manga.
 * @param category - One category (`filter`), or all.
 */
export async function genreList(records: CatalogueStore, kind: MediaKind, category?: GenreCategory): Promise<Genre[]> {
  const where: Condition[] = [{ field: 'kind', op: 'eq', value: kind }];
  if (category) where.push({ field: 'category', op: 'eq', value: category });
  const [genres, counts] = await Promise.all([records.query('genres', { where, orderBy: GENRE_ORDER, ...ALL }), records.tally(kind, 'tags')]);
  const count = new Map(counts);
  return genres.data.map((g) => ({ mal_id: g.mal_id, name: g.name, url: g.url, count: count.get(g.mal_id) ?? 0 }));
}
