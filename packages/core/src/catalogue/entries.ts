/**
 * Anime and manga: search, one entry, its `full` object and every sub-resource, id lists. The
 * methods both kinds have are written once (`kindMethods`) over the kind table (`kinds.ts`); anime
 * add the sub-resources only they have.
 * @module
 */
import { pageSlice } from '../paginate.js';
import type { SfwMode } from '../sfw.js';
import type { Anime, AnimeFull } from '../schemas/anime.js';
import type { Manga, MangaFull } from '../schemas/manga.js';
import type { AnimeStatistics, MangaStatistics } from '../schemas/media.js';
import type { AnimeReview, MangaReview } from '../schemas/review.js';
import type { AnimeSearch, CatalogueStore, EntryReviewQuery, IdsQuery, MangaSearch, Page, Paging } from '../store.js';
import type { RecordStore } from '../seam/types.js';
import {
  animeCastOf,
  animeStaffOf,
  episodeOf,
  episodesOf,
  forumOf,
  streamingOf,
  themesOf,
  videosOf,
} from './anime-details.js';
import { ANIME, MANGA, type KindSpec } from './kinds.js';
import {
  articlesOf,
  externalOf,
  mangaCastOf,
  moreinfoOf,
  newsOf,
  picturesOf,
  recommendationsOf,
  relationsOf,
  reviewsOf,
  stacksOf,
  statisticsOf,
} from './media-details.js';
import { deletedIds, listIds, searchEntries, type MediaSearch } from './media-search.js';

/** The `CatalogueStore` methods of the anime and manga sections. */
export type EntryMethods = Pick<
  CatalogueStore,
  'getAnime' | 'searchAnime' | 'getAnimeFull' | 'getAnimeRelations' | 'getAnimeRecommendations' | 'getAnimeNews' | 'getAnimeReviews' | 'getAnimeVideos' | 'getAnimeVideoEpisodes' | 'getAnimeCharacters' | 'getAnimeStaff' | 'getAnimeEpisodes' | 'getAnimeEpisode' | 'getAnimeForum' | 'getAnimeStacks' | 'getAnimeArticles' | 'getAnimePictures' | 'getAnimeStatistics' | 'getAnimeMoreinfo' | 'getAnimeThemes' | 'getAnimeExternal' | 'getAnimeStreaming' | 'getDeletedAnimeIds' | 'listAnimeIds' | 'getManga' | 'searchManga' | 'getMangaFull' | 'getMangaRelations' | 'getMangaRecommendations' | 'getMangaNews' | 'getMangaReviews' | 'getMangaStacks' | 'getMangaArticles' | 'getMangaCharacters' | 'getMangaPictures' | 'getMangaStatistics' | 'getMangaMoreinfo' | 'getMangaExternal' | 'getDeletedMangaIds' | 'listMangaIds'
>;

/**
 * The methods every kind of entry has, over a record store: each per-entry method answers
 * `undefined` when the entry does not exist.
 * @param records - The record store.
 * @param spec - The kind.
 */
function kindMethods(records: RecordStore, spec: KindSpec) {
  const { kind } = spec;
  const get = (id: number) => records.get(kind, id) as Promise<Anime | Manga | undefined>;
  /** The answer of `part` when the entry exists, else `undefined`. */
  const ofEntry =
    <A extends unknown[], T>(part: (id: number, ...args: A) => Promise<T>) =>
    async (id: number, ...args: A): Promise<T | undefined> =>
      (await get(id)) ? part(id, ...args) : undefined;
  return {
    get,
    search: (s: MediaSearch) => searchEntries(records, spec, s),
    relations: ofEntry((id, sfw: SfwMode) => relationsOf(records, kind, id, sfw)),
    recommendations: ofEntry((id, sfw: SfwMode) => recommendationsOf(records, kind, id, sfw)),
    news: ofEntry((id, paging: Paging, sfw: SfwMode) => newsOf(records, kind, id, paging, sfw)),
    reviews: ofEntry((id, q: EntryReviewQuery) => reviewsOf(records, kind, id, q)),
    stacks: ofEntry((id, paging: Paging) => stacksOf(records, kind, id, paging)),
    articles: ofEntry((id, paging: Paging) => articlesOf(records, kind, id, paging)),
    pictures: ofEntry((id) => picturesOf(records, kind, id)),
    statistics: ofEntry((id) => statisticsOf(records, spec, id)),
    moreinfo: ofEntry(async (id) => ({ moreinfo: await moreinfoOf(records, kind, id) })),
    external: ofEntry((id) => externalOf(records, kind, id)),
    deleted: () => deletedIds(records, spec),
    ids: (q: IdsQuery) => listIds(records, spec, q),
    ofEntry,
  };
}

/**
 * The anime methods over a record store.
 * @param records - The record store.
 */
function animeMethods(records: RecordStore) {
  const m = kindMethods(records, ANIME);
  const { ofEntry } = m;
  return {
    getAnime: m.get as (id: number) => Promise<Anime | undefined>,
    searchAnime: m.search as (s: AnimeSearch) => Promise<Page<Anime>>,
    async getAnimeFull(id: number, sfw: SfwMode): Promise<AnimeFull | undefined> {
      const a = (await m.get(id)) as Anime | undefined;
      if (!a) return undefined;
      const [relations, theme, external, streaming, moreinfo] = await Promise.all([
        relationsOf(records, 'anime', id, sfw),
        themesOf(records, id),
        externalOf(records, 'anime', id),
        streamingOf(records, id),
        moreinfoOf(records, 'anime', id),
      ]);
      return { ...a, relations, theme, external, streaming, moreinfo };
    },
    getAnimeRelations: m.relations,
    getAnimeRecommendations: m.recommendations,
    getAnimeNews: m.news,
    getAnimeReviews: m.reviews as (id: number, q: EntryReviewQuery) => Promise<Page<AnimeReview> | undefined>,
    getAnimeVideos: ofEntry((id) => videosOf(records, id)),
    getAnimeVideoEpisodes: ofEntry(async (id, p: Paging) => {
      const episodes = (await videosOf(records, id)).episodes;
      return { data: pageSlice(episodes, p.page, p.limit), total: episodes.length };
    }),
    getAnimeCharacters: ofEntry((id) => animeCastOf(records, id)),
    getAnimeStaff: ofEntry((id) => animeStaffOf(records, id)),
    getAnimeEpisodes: ofEntry((id, paging: Paging) => episodesOf(records, id, paging)),
    getAnimeEpisode: (id: number, episode: number) => episodeOf(records, id, episode),
    getAnimeForum: ofEntry((id) => forumOf(records, id)),
    getAnimeStacks: m.stacks,
    getAnimeArticles: m.articles,
    getAnimePictures: m.pictures,
    getAnimeStatistics: m.statistics as (id: number) => Promise<AnimeStatistics | undefined>,
    getAnimeMoreinfo: m.moreinfo,
    getAnimeThemes: ofEntry((id) => themesOf(records, id)),
    getAnimeExternal: m.external,
    getAnimeStreaming: ofEntry((id) => streamingOf(records, id)),
    getDeletedAnimeIds: m.deleted,
    listAnimeIds: m.ids,
  };
}

/**
 * The manga methods over a record store.
 * @param records - The record store.
 */
function mangaMethods(records: RecordStore) {
  const m = kindMethods(records, MANGA);
  return {
    getManga: m.get as (id: number) => Promise<Manga | undefined>,
    searchManga: m.search as (s: MangaSearch) => Promise<Page<Manga>>,
    async getMangaFull(id: number, sfw: SfwMode): Promise<MangaFull | undefined> {
      const e = (await m.get(id)) as Manga | undefined;
      if (!e) return undefined;
      const [relations, external] = await Promise.all([relationsOf(records, 'manga', id, sfw), externalOf(records, 'manga', id)]);
      return { ...e, relations, external };
    },
    getMangaRelations: m.relations,
    getMangaRecommendations: m.recommendations,
    getMangaNews: m.news,
    getMangaReviews: m.reviews as (id: number, q: EntryReviewQuery) => Promise<Page<MangaReview> | undefined>,
    getMangaStacks: m.stacks,
    getMangaArticles: m.articles,
    getMangaCharacters: m.ofEntry((id) => mangaCastOf(records, id)),
    getMangaPictures: m.pictures,
    getMangaStatistics: m.statistics as (id: number) => Promise<MangaStatistics | undefined>,
    getMangaMoreinfo: m.moreinfo,
    getMangaExternal: m.external,
    getDeletedMangaIds: m.deleted,
    listMangaIds: m.ids,
  };
}

/**
 * The anime and manga methods over a record store.
 * @param records - The record store.
 */
export function entryMethods(records: RecordStore): EntryMethods {
  return { ...animeMethods(records), ...mangaMethods(records) };
}
