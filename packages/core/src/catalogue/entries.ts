/**
 * Anime and manga: search, one entry, its `full` object and every sub-resource, id lists.
 * @module
 */
import type { CatalogueStore } from '../store.js';
import type { RecordStore } from '../seam/types.js';

/** The `CatalogueStore` methods of the anime and manga sections. */
export type EntryMethods = Pick<
  CatalogueStore,
  'getAnime' | 'searchAnime' | 'getAnimeFull' | 'getAnimeRelations' | 'getAnimeRecommendations' | 'getAnimeNews' | 'getAnimeReviews' | 'getAnimeVideos' | 'getAnimeVideoEpisodes' | 'getAnimeCharacters' | 'getAnimeStaff' | 'getAnimeEpisodes' | 'getAnimeEpisode' | 'getAnimeForum' | 'getAnimeStacks' | 'getAnimeArticles' | 'getAnimePictures' | 'getAnimeStatistics' | 'getAnimeMoreinfo' | 'getAnimeThemes' | 'getAnimeExternal' | 'getAnimeStreaming' | 'getDeletedAnimeIds' | 'listAnimeIds' | 'getManga' | 'searchManga' | 'getMangaFull' | 'getMangaRelations' | 'getMangaRecommendations' | 'getMangaNews' | 'getMangaReviews' | 'getMangaStacks' | 'getMangaArticles' | 'getMangaCharacters' | 'getMangaPictures' | 'getMangaStatistics' | 'getMangaMoreinfo' | 'getMangaExternal' | 'getDeletedMangaIds' | 'listMangaIds'
>;

/**
 * The anime and manga methods over a record store.
 * @param records - The record store.
 */
export function entryMethods(records: RecordStore): EntryMethods {
  void records;
  return {} as EntryMethods; // not written yet
}
