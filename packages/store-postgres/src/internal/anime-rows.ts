/**
 * Turning an anime record into the typed columns and folded titles the search tables hold. The
 * values come from the same core functions the memory store uses (`sfwClass`, `normalizeTitle`),
 * so both stores classify and match every record identically.
 * @module
 */
import { normalizeTitle, sfwClass, type Anime } from '@catalogue-api/core';

/** One row of the `anime` table. */
export interface AnimeRow {
  mal_id: number;
  title_key: string;
  type: string;
  status: string;
  rating: string | null;
  score: number | null;
  scored_by: number | null;
  rank: number | null;
  popularity: number | null;
  members: number | null;
  favorites: number | null;
  episodes: number | null;
  approved: boolean;
  sfw: number;
  aired_from: string | null;
  aired_to: string | null;
  tags: number[];
  companies: number[];
  /** The one- and two-letter prefixes of every word of every folded title (as code points). */
  prefixes: string[];
}

/** The columns of {@link AnimeRow}, in table order. */
export const ANIME_COLUMNS: ReadonlyArray<keyof AnimeRow> = [
  'mal_id',
  'title_key',
  'type',
  'status',
  'rating',
  'score',
  'scored_by',
  'rank',
  'popularity',
  'members',
  'favorites',
  'episodes',
  'approved',
  'sfw',
  'aired_from',
  'aired_to',
  'tags',
  'companies',
  'prefixes',
];

const ids = (lists: ReadonlyArray<ReadonlyArray<{ mal_id: number }>>) => [...new Set(lists.flatMap((l) => l.map((r) => r.mal_id)))];

/**
 * The filter and order columns of an anime, as core's `indexAnime` derives them.
 * @param a - The record.
 */
export function toAnimeRow(a: Anime): AnimeRow {
  return {
    mal_id: a.mal_id,
    // JS lower-casing, stored with the "C" collation, orders exactly like `titleKey` comparisons in core.
    title_key: a.title.toLowerCase(),
    type: a.type,
    status: a.status,
    rating: a.rating,
    score: a.score,
    scored_by: a.scored_by,
    rank: a.rank,
    popularity: a.popularity,
    members: a.members,
    favorites: a.favorites,
    episodes: a.episodes,
    approved: a.approved,
    sfw: sfwClass(a),
    aired_from: a.aired.from,
    aired_to: a.aired.to,
    tags: ids([a.genres, a.explicit_genres, a.themes, a.demographics]),
    companies: ids([a.producers, a.studios, a.licensors]),
    prefixes: toWordPrefixes(toAnimeTitles(a)),
  };
}

/**
 * Every distinct folded title of an anime (default, synonyms, typed titles, English, Japanese), as
 * the memory store's search index holds them.
 * @param a - The record.
 */
export function toAnimeTitles(a: Anime): string[] {
  const titles = [a.title, ...a.title_synonyms, ...a.titles.map((t) => t.title)];
  if (a.title_english) titles.push(a.title_english);
  if (a.title_japanese) titles.push(a.title_japanese);
  return [...new Set(titles.map(normalizeTitle).filter(Boolean))];
}

/**
 * The one- and two-letter word prefixes of folded titles, as core's search index takes them (code
 * points, not UTF-16 units), sorted.
 * @param titles - Folded titles.
 */
export function toWordPrefixes(titles: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const title of titles) {
    for (const word of title.split(' ')) {
      const [first, second] = word;
      if (first) prefixes.add(first);
      if (first && second) prefixes.add(first + second);
    }
  }
  return [...prefixes].sort();
}
