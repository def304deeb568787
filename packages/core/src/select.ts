/**
 * The meaning of the anime search filters and orderings, as pure functions over records. The
 * memory store uses them directly; other stores must reproduce them (the store contract checks).
 * @module
 */
import { passesSfw, sfwClass, type SfwClass } from './sfw.js';
import type { AnimeOrderBy, AnimeSearch } from './store.js';
import type { Anime } from './schemas/anime.js';

/** An anime with values precomputed for filtering. */
export interface IndexedAnime {
  anime: Anime;
  sfw: SfwClass;
  /** Every genre, explicit genre, theme and demographic id, once. */
  tags: readonly number[];
  /** Every producer, studio and licensor id, once. */
  companies: readonly number[];
  /** Lower-case title, for `letter` and `title` ordering. */
  titleKey: string;
}

/**
 * Precomputes what filtering needs.
 * @param anime - The record.
 */
export function indexAnime(anime: Anime): IndexedAnime {
  return {
    anime,
    sfw: sfwClass(anime),
    tags: idsOf(anime.genres, anime.explicit_genres, anime.themes, anime.demographics),
    companies: idsOf(anime.producers, anime.studios, anime.licensors),
    titleKey: anime.title.toLowerCase(),
  };
}

/**
 * The distinct `mal_id`s of some lists of references, in first-seen order. An entry holds a few, so
 * an array searched with `includes` beats a `Set` both to build (half the load time of 100k
 * entries' filter values) and to probe.
 * @param lists - Lists of `{ mal_id }` references.
 */
export function idsOf(...lists: ReadonlyArray<ReadonlyArray<{ mal_id: number }>>): number[] {
  const ids: number[] = [];
  for (const list of lists) for (const { mal_id } of list) if (!ids.includes(mal_id)) ids.push(mal_id);
  return ids;
}

/**
 * The filter of an anime search, everything except `q`.
 * @param s - The validated search.
 * @returns A predicate over indexed records.
 */
export function animeFilter(s: AnimeSearch): (entry: IndexedAnime) => boolean {
  const letter = s.letter?.toLowerCase();
  return ({ anime: a, sfw, tags, companies, titleKey }) => {
    if (s.approval === 'approved' ? !a.approved : s.approval === 'unapproved' && a.approved) return false;
    if (!passesSfw(sfw, s.sfw)) return false;
    if (s.types && !s.types.includes(a.type)) return false;
    if (s.status && a.status !== s.status) return false;
    if (s.ratings && (a.rating === null || !s.ratings.includes(a.rating))) return false;
    if (s.score !== undefined && a.score !== s.score) return false;
    if (s.minScore !== undefined && (a.score === null || a.score < s.minScore)) return false;
    if (s.maxScore !== undefined && (a.score === null || a.score > s.maxScore)) return false;
    if (s.genres && !s.genres.every((id) => tags.includes(id))) return false;
    if (s.genresExclude && s.genresExclude.some((id) => tags.includes(id))) return false;
    if (s.producers && !s.producers.some((id) => companies.includes(id))) return false;
    if (letter && !titleKey.startsWith(letter)) return false;
    if (s.startDate && (a.aired.from === null || a.aired.from.slice(0, 10) < s.startDate.first)) return false;
    if (s.endDate && (a.aired.to === null || a.aired.to.slice(0, 10) > s.endDate.last)) return false;
    return true;
  };
}

type Key = string | number | null;

/** The key of each `order_by` value of an anime search. */
export const ANIME_ORDER_KEYS: Record<AnimeOrderBy, (e: IndexedAnime) => Key> = {
  mal_id: (e) => e.anime.mal_id,
  title: (e) => e.titleKey,
  start_date: (e) => e.anime.aired.from,
  end_date: (e) => e.anime.aired.to,
  episodes: (e) => e.anime.episodes,
  score: (e) => e.anime.score,
  scored_by: (e) => e.anime.scored_by,
  rank: (e) => e.anime.rank,
  popularity: (e) => e.anime.popularity,
  members: (e) => e.anime.members,
  favorites: (e) => e.anime.favorites,
};

/**
 * The ordering of `order_by` + `sort`: nulls last in both directions, ties by `mal_id` ascending so
 * that pages never repeat or skip an entry.
 * @param orderBy - The field.
 * @param sort - The direction.
 * @returns A comparator.
 */
export function animeComparator(orderBy: AnimeOrderBy, sort: 'asc' | 'desc'): (a: IndexedAnime, b: IndexedAnime) => number {
  const key = ANIME_ORDER_KEYS[orderBy];
  const dir = sort === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    }
    return a.anime.mal_id - b.anime.mal_id;
  };
}

/**
 * Relevance tie-break: more popular first (lower `popularity` rank; unranked last), then `mal_id`.
 * @param a - One entry.
 * @param b - The other.
 */
export function byPopularity(a: IndexedAnime, b: IndexedAnime): number {
  const x = a.anime.popularity ?? Number.MAX_SAFE_INTEGER;
  const y = b.anime.popularity ?? Number.MAX_SAFE_INTEGER;
  return x - y || a.anime.mal_id - b.anime.mal_id;
}
