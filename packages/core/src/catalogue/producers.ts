/**
 * Producers, magazines and genres: search, one producer with its external links, and the genre
 * lists with how many entries carry each.
 * @module
 */
import type { Catalogue } from './store.js';
import type { Condition, OrderKey, CatalogueStore } from '../seam/types.js';
import { BY_ID, searchNamed } from './named.js';
import { ALL, guarded, owner } from './shared.js';

/** Genres by category (`genres`, `explicit_genres`, `themes`, `demographics`), then id. */
const GENRE_ORDER: readonly OrderKey[] = [{ field: 'category_order', dir: 'asc' }, BY_ID];

/** The producer, magazine and genre methods of `Catalogue`. */
export type ProducerMethods = Pick<Catalogue, 'getProducer' | 'searchProducers' | 'getProducerFull' | 'getProducerExternal' | 'searchMagazines' | 'listGenres'>;

/**
 * The producer, magazine and genre methods over a record store.
 * @param records - The record store.
 */
export function producerMethods(records: CatalogueStore): ProducerMethods {
  const external = async (id: number) => (await records.get('external', owner('producer', id)))?.links ?? [];
  return {
    getProducer: (id) => records.get('producers', id),
    searchProducers: (s) => searchNamed(records, 'producers', s),
    async getProducerFull(id) {
      const p = await records.get('producers', id);
      return p && { ...p, external: await external(id) };
    },
    getProducerExternal: guarded(records, 'producers')(external),
    searchMagazines: (s) => searchNamed(records, 'magazines', s),
    async listGenres(kind, category) {
      const where: Condition[] = [{ field: 'kind', op: 'eq', value: kind }];
      if (category) where.push({ field: 'category', op: 'eq', value: category });
      const [genres, counts] = await Promise.all([records.query('genres', { where, orderBy: GENRE_ORDER, ...ALL }), records.tally(kind, 'tags')]);
      const count = new Map(counts);
      return genres.data.map((g) => ({ mal_id: g.mal_id, name: g.name, url: g.url, count: count.get(g.mal_id) ?? 0 }));
    },
  };
}
