/**
 * The meaning of the manga search filters and orderings, as pure functions over records
 * (docs/specification.md: Jikan filters; the anime rules with `published` for `aired` and
 * `magazines` matching serializations).
 * @module
 */
import type { SortKey } from './internal/ordering.js';
import { idsOf } from './select.js';
import { sfwClass, passesSfw, type SfwClass } from './sfw.js';
import type { MangaOrderBy, MangaSearch } from './store.js';
import type { Manga } from './schemas/manga.js';

/** A manga with values precomputed for filtering. */
export interface IndexedManga {
  manga: Manga;
  sfw: SfwClass;
  /** Every genre, explicit genre, theme and demographic id, once. */
  tags: readonly number[];
  /** Serialization (magazine) ids, once. */
  magazines: readonly number[];
  /** Lower-case title, for `letter` and `title` ordering. */
  titleKey: string;
}

/**
 * Precomputes what filtering needs.
 * @param manga - The record.
 */
export function indexManga(manga: Manga): IndexedManga {
  return {
    manga,
    sfw: sfwClass(manga),
    tags: idsOf(manga.genres, manga.explicit_genres, manga.themes, manga.demographics),
    magazines: idsOf(manga.serializations),
    titleKey: manga.title.toLowerCase(),
  };
}

/**
 * The filter of a manga search, everything except `q`.
 * @param s - The validated search.
 * @returns A predicate over indexed records.
 */
export function mangaFilter(s: MangaSearch): (entry: IndexedManga) => boolean {
  const letter = s.letter?.toLowerCase();
  return ({ manga: m, sfw, tags, magazines, titleKey }) => {
    if (s.approval === 'approved' ? !m.approved : s.approval === 'unapproved' && m.approved) return false;
    if (!passesSfw(sfw, s.sfw)) return false;
    if (s.types && (m.type === null || !s.types.includes(m.type))) return false;
    if (s.status && m.status !== s.status) return false;
    if (s.score !== undefined && m.score !== s.score) return false;
    if (s.minScore !== undefined && (m.score === null || m.score < s.minScore)) return false;
    if (s.maxScore !== undefined && (m.score === null || m.score > s.maxScore)) return false;
    if (s.genres && !s.genres.every((id) => tags.includes(id))) return false;
    if (s.genresExclude && s.genresExclude.some((id) => tags.includes(id))) return false;
    if (s.magazines && !s.magazines.some((id) => magazines.includes(id))) return false;
    if (letter && !titleKey.startsWith(letter)) return false;
    if (s.startDate && (m.published.from === null || m.published.from.slice(0, 10) < s.startDate.first)) return false;
    if (s.endDate && (m.published.to === null || m.published.to.slice(0, 10) > s.endDate.last)) return false;
    return true;
  };
}

/** The key of each `order_by` value of a manga search. */
export const MANGA_ORDER_KEYS: Record<MangaOrderBy, (e: IndexedManga) => SortKey> = {
  mal_id: (e) => e.manga.mal_id,
  title: (e) => e.titleKey,
  start_date: (e) => e.manga.published.from,
  end_date: (e) => e.manga.published.to,
  chapters: (e) => e.manga.chapters,
  volumes: (e) => e.manga.volumes,
  score: (e) => e.manga.score,
  scored_by: (e) => e.manga.scored_by,
  rank: (e) => e.manga.rank,
  popularity: (e) => e.manga.popularity,
  members: (e) => e.manga.members,
  favorites: (e) => e.manga.favorites,
};
