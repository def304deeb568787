/**
 * Turning an anime or manga record into the typed columns and folded titles the search tables
 * hold. The values come from the same core functions the memory store uses (`sfwClass`,
 * `normalizeTitle`), so both stores classify and match every record identically.
 * @module
 */
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import { normalizeTitle, sfwClass } from '@catalogue-api/core/store';

/** The columns both search tables (`anime`, `manga`) have. */
interface MediaRow {
  mal_id: number;
  title_key: string;
  type: string | null;
  status: string;
  score: number | null;
  scored_by: number | null;
  rank: number | null;
  popularity: number | null;
  members: number | null;
  favorites: number | null;
  approved: boolean;
  sfw: number;
  tags: number[];
  /** The one- and two-letter prefixes of every word of every folded title (as code points). */
  prefixes: string[];
}

/** One row of the `anime` table. */
export interface AnimeRow extends MediaRow {
  type: string;
  rating: string | null;
  episodes: number | null;
  aired_from: string | null;
  aired_to: string | null;
  /** Producer, studio and licensor ids. */
  companies: number[];
}

/** One row of the `manga` table. */
export interface MangaRow extends MediaRow {
  chapters: number | null;
  volumes: number | null;
  published_from: string | null;
  published_to: string | null;
  /** Serialization ids. */
  magazines: number[];
}

/** The statistics columns of both kinds, in table order; each is also an order column. */
export const STAT_COLUMNS = ['score', 'scored_by', 'rank', 'popularity', 'members', 'favorites'] as const;

/** The columns of {@link AnimeRow}, in table order. */
export const ANIME_COLUMNS: ReadonlyArray<keyof AnimeRow> = [
  'mal_id',
  'title_key',
  'type',
  'status',
  'rating',
  ...STAT_COLUMNS,
  'episodes',
  'approved',
  'sfw',
  'aired_from',
  'aired_to',
  'tags',
  'companies',
  'prefixes',
];

/** The columns of {@link MangaRow}, in table order. */
export const MANGA_COLUMNS: ReadonlyArray<keyof MangaRow> = [
  'mal_id',
  'title_key',
  'type',
  'status',
  ...STAT_COLUMNS,
  'chapters',
  'volumes',
  'approved',
  'sfw',
  'published_from',
  'published_to',
  'tags',
  'magazines',
  'prefixes',
];

const ids = (lists: ReadonlyArray<ReadonlyArray<{ mal_id: number }>>) => [...new Set(lists.flatMap((l) => l.map((r) => r.mal_id)))];

/** The columns an anime and a manga derive alike, as core's `indexAnime` and `indexManga` do. */
function toMediaRow(e: Anime | Manga): MediaRow {
  return {
    mal_id: e.mal_id,
    // JS lower-casing, stored with the "C" collation, orders exactly like `titleKey` comparisons in core.
    title_key: e.title.toLowerCase(),
    type: e.type,
    status: e.status,
    score: e.score,
    scored_by: e.scored_by,
    rank: e.rank,
    popularity: e.popularity,
    members: e.members,
    favorites: e.favorites,
    approved: e.approved,
    sfw: sfwClass(e),
    tags: ids([e.genres, e.explicit_genres, e.themes, e.demographics]),
    prefixes: toWordPrefixes(toMediaTitles(e)),
  };
}

/**
 * The filter and order columns of an anime, as core's `indexAnime` derives them.
 * @param a - The record.
 */
export function toAnimeRow(a: Anime): AnimeRow {
  return {
    ...toMediaRow(a),
    type: a.type,
    rating: a.rating,
    episodes: a.episodes,
    aired_from: a.aired.from,
    aired_to: a.aired.to,
    companies: ids([a.producers, a.studios, a.licensors]),
  };
}

/**
 * The filter and order columns of a manga, as core's `indexManga` derives them.
 * @param m - The record.
 */
export function toMangaRow(m: Manga): MangaRow {
  return {
    ...toMediaRow(m),
    chapters: m.chapters,
    volumes: m.volumes,
    published_from: m.published.from,
    published_to: m.published.to,
    magazines: ids([m.serializations]),
  };
}

/**
 * Every distinct folded title of an anime or manga (default, synonyms, typed titles, English,
 * Japanese), as the memory store's search index holds them.
 * @param e - The record.
 */
export function toMediaTitles(e: Anime | Manga): string[] {
  const titles = [e.title, ...e.title_synonyms, ...e.titles.map((t) => t.title)];
  if (e.title_english) titles.push(e.title_english);
  if (e.title_japanese) titles.push(e.title_japanese);
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
