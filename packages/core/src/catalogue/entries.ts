/**
 * Anime and manga: search, one entry, its `full` object and every sub-resource, id lists. The
 * methods both kinds have are written once (`entryParts`, named per kind) over the kind table
 * (`kinds.ts`); anime add the sub-resources only they have.
 * @module
 */
import { pageSlice } from './paginate.js';
import { extendRecord } from '../seam/record-json.js';
import type { SfwMode } from '../seam/sfw.js';
import type { Anime, AnimeFull } from '../schemas/anime.js';
import type { Manga, MangaFull } from '../schemas/manga.js';
import type { AnimeStatistics, MangaStatistics } from '../schemas/media.js';
import type { AnimeReview, MangaReview } from '../schemas/review.js';
import type { AnimeCharacter, MangaCharacter } from '../schemas/cast.js';
import type { Catalogue, EntryParts, EntryReviewQuery, IdsQuery, KindMethods, Page, Paging } from './store.js';
import type { CatalogueStore } from '../seam/types.js';
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
import { guarded, named } from './shared.js';

/** The `Catalogue` methods of the anime and manga sections. */
export type EntryMethods = Pick<Catalogue, keyof KindMethods<'Anime' | 'Manga', EntryParts<never, never, never, never, never>> | Lists | AnimeOnly>;
type Lists = `search${'Anime' | 'Manga'}` | `getDeleted${'Anime' | 'Manga'}Ids` | `list${'Anime' | 'Manga'}Ids`;
type AnimeOnly = 'getAnimeVideos' | 'getAnimeVideoEpisodes' | 'getAnimeStaff' | 'getAnimeEpisodes' | 'getAnimeEpisode' | 'getAnimeForum' | 'getAnimeThemes' | 'getAnimeStreaming';

/** What differs between the parts of anime and manga: the `full` object and the cast. */
interface OwnParts<E, F, C> {
  full(entry: E, sfw: SfwMode): Promise<F>;
  characters(id: number): Promise<C[]>;
}

/**
 * The parts every kind of entry has, over a record store.
 * @param records - The record store.
 * @param spec - The kind.
 * @param own - What the kind builds its own way.
 */
function entryParts<E, F, R, C, S>(records: CatalogueStore, spec: KindSpec, own: OwnParts<E, F, C>): EntryParts<E, F, R, C, S> {
  const { kind } = spec;
  const ofEntry = guarded(records, kind);
  const get = (id: number) => records.get(kind, id) as Promise<E | undefined>;
  return {
    '': get,
    Full: async (id, sfw) => {
      const entry = await get(id);
      return entry && own.full(entry, sfw);
    },
    Relations: ofEntry((id, sfw: SfwMode) => relationsOf(records, kind, id, sfw)),
    Recommendations: ofEntry((id, sfw: SfwMode) => recommendationsOf(records, kind, id, sfw)),
    News: ofEntry((id, paging: Paging, sfw: SfwMode) => newsOf(records, kind, id, paging, sfw)),
    Reviews: ofEntry((id, q: EntryReviewQuery) => reviewsOf(records, kind, id, q) as Promise<Page<R>>),
    Stacks: ofEntry((id, paging: Paging) => stacksOf(records, kind, id, paging)),
    Articles: ofEntry((id, paging: Paging) => articlesOf(records, kind, id, paging)),
    Characters: ofEntry(own.characters),
    Pictures: ofEntry((id) => picturesOf(records, kind, id)),
    Statistics: ofEntry((id) => statisticsOf(records, spec, id) as Promise<S>),
    Moreinfo: ofEntry(async (id) => ({ moreinfo: await moreinfoOf(records, kind, id) })),
    External: ofEntry((id) => externalOf(records, kind, id)),
  };
}

/**
 * The search and the id lists of a kind, under its method names (`searchAnime`, `getDeletedAnimeIds`,
 * `listAnimeIds`…).
 * @param records - The record store.
 * @param spec - The kind.
 * @param name - Its name in the methods.
 */
function listsOf<K extends 'Anime' | 'Manga'>(records: CatalogueStore, spec: KindSpec, name: K) {
  return {
    [`search${name}`]: (s: MediaSearch) => searchEntries(records, spec, s),
    [`getDeleted${name}Ids`]: () => deletedIds(records, spec),
    [`list${name}Ids`]: (q: IdsQuery) => listIds(records, spec, q),
  } as unknown as Pick<Catalogue, `search${K}` | `getDeleted${K}Ids` | `list${K}Ids`>;
}

/**
 * The anime methods over a record store.
 * @param records - The record store.
 */
function animeMethods(records: CatalogueStore) {
  const ofEntry = guarded(records, 'anime');
  const parts = entryParts<Anime, AnimeFull, AnimeReview, AnimeCharacter, AnimeStatistics>(records, ANIME, {
    async full(anime, sfw) {
      const id = anime.mal_id;
      const [relations, theme, external, streaming, moreinfo] = await Promise.all([
        relationsOf(records, 'anime', id, sfw),
        themesOf(records, id),
        externalOf(records, 'anime', id),
        streamingOf(records, id),
        moreinfoOf(records, 'anime', id),
      ]);
      return extendRecord(anime, { relations, theme, external, streaming, moreinfo });
    },
    characters: (id) => animeCastOf(records, id),
  });
  return {
    ...named('Anime', parts),
    ...listsOf(records, ANIME, 'Anime'),
    getAnimeVideos: ofEntry((id) => videosOf(records, id)),
    getAnimeVideoEpisodes: ofEntry(async (id, p: Paging) => {
      const episodes = (await videosOf(records, id)).episodes;
      return { data: pageSlice(episodes, p.page, p.limit), total: episodes.length };
    }),
    getAnimeStaff: ofEntry((id) => animeStaffOf(records, id)),
    getAnimeEpisodes: ofEntry((id, paging: Paging) => episodesOf(records, id, paging)),
    getAnimeEpisode: (id: number, episode: number) => episodeOf(records, id, episode),
    getAnimeForum: ofEntry((id) => forumOf(records, id)),
    getAnimeThemes: ofEntry((id) => themesOf(records, id)),
    getAnimeStreaming: ofEntry((id) => streamingOf(records, id)),
  };
}

/**
 * The manga methods over a record store.
 * @param records - The record store.
 */
function mangaMethods(records: CatalogueStore) {
  const parts = entryParts<Manga, MangaFull, MangaReview, MangaCharacter, MangaStatistics>(records, MANGA, {
    async full(manga, sfw) {
      const id = manga.mal_id;
      const [relations, external] = await Promise.all([relationsOf(records, 'manga', id, sfw), externalOf(records, 'manga', id)]);
      return extendRecord(manga, { relations, external });
    },
    characters: (id) => mangaCastOf(records, id),
  });
  return {
    ...named('Manga', parts),
    ...listsOf(records, MANGA, 'Manga'),
  };
}

/**
 * The anime and manga methods over a record store.
 * @param records - The record store.
 */
export function entryMethods(records: CatalogueStore): EntryMethods {
  return { ...animeMethods(records), ...mangaMethods(records) };
}
