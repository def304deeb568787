/**
 * Anime and manga: one entry, its `full` object and every sub-resource. What both kinds have is
 * written once (`entryParts`) over the kind table (`kinds.ts`), one table a kind; anime add the
 * sub-resources only they have. Each part answers `undefined` when there is no such entry (the
 * route answers 404).
 * @module
 */
import { pageSlice } from './paginate.js';
import { extendRecord } from '../seam/record-json.js';
import type { SfwMode } from '../seam/sfw.js';
import type { Anime, AnimeFull } from '../schemas/anime.js';
import type { Manga, MangaFull } from '../schemas/manga.js';
import type { EpisodeVideo } from '../schemas/video.js';
import type { EntryReviewQuery, Page, Paging } from './queries.js';
import type { CatalogueStore } from '../seam/types.js';
import { animeCastOf, animeStaffOf, episodesOf, forumOf, streamingOf, themesOf, videosOf } from './anime-details.js';
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
import { guarded } from './shared.js';

/**
 * The parts every kind of entry has, by the path segment after the id (`''` is the entry itself).
 * @param spec - The kind.
 * @param own - What the kind builds its own way: the `full` object and the cast.
 */
function entryParts<E, F, C>(
  spec: KindSpec,
  own: { full(records: CatalogueStore, entry: E, sfw: SfwMode): Promise<F>; characters(records: CatalogueStore, id: number): Promise<C[]> },
) {
  const { kind } = spec;
  const get = (records: CatalogueStore, id: number) => records.get(kind, id) as Promise<E | undefined>;
  return {
    '': get,
    async Full(records: CatalogueStore, id: number, sfw: SfwMode): Promise<F | undefined> {
      const entry = await get(records, id);
      return entry && own.full(records, entry, sfw);
    },
    Relations: guarded(kind, (records, id, sfw: SfwMode) => relationsOf(records, kind, id, sfw)),
    Recommendations: guarded(kind, (records, id, sfw: SfwMode) => recommendationsOf(records, kind, id, sfw)),
    News: guarded(kind, (records, id, paging: Paging, sfw: SfwMode) => newsOf(records, kind, id, paging, sfw)),
    Reviews: guarded(kind, (records, id, q: EntryReviewQuery) => reviewsOf(records, kind, id, q)),
    Stacks: guarded(kind, (records, id, paging: Paging) => stacksOf(records, kind, id, paging)),
    Articles: guarded(kind, (records, id, paging: Paging) => articlesOf(records, kind, id, paging)),
    Characters: guarded(kind, own.characters),
    Pictures: guarded(kind, (records, id) => picturesOf(records, kind, id)),
    Statistics: guarded(kind, (records, id) => statisticsOf(records, spec, id)),
    Moreinfo: guarded(kind, async (records, id) => ({ moreinfo: await moreinfoOf(records, kind, id) })),
    External: guarded(kind, (records, id) => externalOf(records, kind, id)),
  };
}

/** An anime's parts both kinds have (`GET /v1/anime/{id}/…`). */
export const ANIME_PARTS = entryParts(ANIME, {
  async full(records, anime: Anime, sfw): Promise<AnimeFull> {
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
  characters: animeCastOf,
});

/** A manga's parts (`GET /v1/manga/{id}/…`). */
export const MANGA_PARTS = entryParts(MANGA, {
  async full(records, manga: Manga, sfw): Promise<MangaFull> {
    const id = manga.mal_id;
    const [relations, external] = await Promise.all([relationsOf(records, 'manga', id, sfw), externalOf(records, 'manga', id)]);
    return extendRecord(manga, { relations, external });
  },
  characters: mangaCastOf,
});

/** The parts of each kind of entry. */
export const ENTRY_PARTS = { anime: ANIME_PARTS, manga: MANGA_PARTS } as const;

/** The sub-resources only anime have (`GET /v1/anime/{id}/videos`, `staff`, `episodes`, `forum`, `themes`, `streaming`). */
export const ANIME_ONLY = {
  Videos: guarded('anime', videosOf),
  VideoEpisodes: guarded('anime', async (records, id, p: Paging): Promise<Page<EpisodeVideo>> => {
    const episodes = (await videosOf(records, id)).episodes;
    return { data: pageSlice(episodes, p.page, p.limit), total: episodes.length };
  }),
  Staff: guarded('anime', animeStaffOf),
  Episodes: guarded('anime', episodesOf),
  Forum: guarded('anime', forumOf),
  Themes: guarded('anime', themesOf),
  Streaming: guarded('anime', streamingOf),
};
