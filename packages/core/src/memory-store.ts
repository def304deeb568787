/**
 * The in-memory `CatalogueStore`: the default, for one process and for tests.
 * @module
 */
import { pageSlice } from './paginate.js';
import { createSearchIndex, MatchTier, type SearchIndex } from './search.js';
import { animeComparator, animeFilter, byPopularity, indexAnime, type IndexedAnime } from './select.js';
import type { AnimeSearch, CatalogueData, CatalogueStore, Page } from './store.js';
import type { Anime } from './schemas/anime.js';

/** Every title of an anime that search should match. */
function animeTitles(a: Anime): string[] {
  const titles = [a.title, ...a.title_synonyms, ...a.titles.map((t) => t.title)];
  if (a.title_english) titles.push(a.title_english);
  if (a.title_japanese) titles.push(a.title_japanese);
  return titles;
}

/**
 * Creates a store that holds the records in memory, with a trigram search index built once here.
 * @param data - The records; they are not copied, so do not mutate them afterwards.
 * @returns The store.
 * @example
 * ```ts
 * import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 *
 * const app = createCatalogueApp({ store: createMemoryStore(demoData) });
 * ```
 */
export function createMemoryStore(data: CatalogueData = {}): CatalogueStore {
  const anime: IndexedAnime[] = [...(data.anime ?? [])].sort((a, b) => a.mal_id - b.mal_id).map(indexAnime);
  const animeById = new Map(anime.map((e) => [e.anime.mal_id, e.anime]));
  const animeIndex: SearchIndex = createSearchIndex(anime.map((e) => animeTitles(e.anime)));

  function searchOrder(q: string): IndexedAnime[] {
    return animeIndex
      .search(q)
      .sort((x, y) => {
        if (x.tier !== y.tier) return x.tier - y.tier;
        // Fuzzy hits are ordered by how close they are; exact and prefix hits by popularity.
        if (x.tier === MatchTier.Fuzzy && x.score !== y.score) return x.score - y.score;
        return byPopularity(anime[x.index]!, anime[y.index]!);
      })
      .map((hit) => anime[hit.index]!);
  }

  // Temporary while the issue-3 methods are being written: only the anime methods exist yet.
  return {
    async getAnime(id: number) {
      return animeById.get(id);
    },

    async searchAnime(search: AnimeSearch): Promise<Page<Anime>> {
      const pool = search.q === undefined ? anime : searchOrder(search.q);
      const matches = pool.filter(animeFilter(search));
      if (search.orderBy) matches.sort(animeComparator(search.orderBy, search.sort));
      return { data: pageSlice(matches, search.page, search.limit).map((e) => e.anime), total: matches.length };
    },
  } as unknown as CatalogueStore;
}
