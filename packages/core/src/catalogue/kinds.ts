/**
 * Anime and manga, described once: what differs between the two kinds of entry (their collections,
 * the record field of their dates, their `type`/`status`/`rating` vocabularies, the `order_by` values
 * their lists take and the seam field each one orders by, the filter that matches companies, the
 * sub-resources each has). The search, the detail methods and the routes of both kinds read this
 * table instead of repeating it.
 * @module
 */
import { SEASONS, WEEKDAYS, type Season, type Weekday } from '../seam/collections.js';
import type { Condition } from '../seam/types.js';

/** The kinds of entry: the collections `anime` and `manga` and the `owners` prefix of their sub-records. */
export const MEDIA_KINDS = ['anime', 'manga'] as const;
/** A media kind: `anime` or `manga`. */
export type MediaKind = (typeof MEDIA_KINDS)[number];
/** A media kind (the short name the catalogue functions use). */
export type Kind = MediaKind;

// The seasons and the weekdays are the seam's: it files each anime under its premiere season and
// its broadcast day (`COLLECTIONS.anime`); they are named here with the kinds' other vocabularies.
export { SEASONS, WEEKDAYS, type Season, type Weekday };

/** Which approval states a list includes (spec, `unapproved`): `approved` (default), `all` or `unapproved` (`unapproved=only`). */
export type Approval = 'approved' | 'all' | 'unapproved';

/**
 * The condition of an approval state on the `approved` field of an entry (none for `all`).
 * @param approval - Which approval states to include.
 */
export function approvalWhere(approval: Approval): Condition[] {
  return approval === 'all' ? [] : [{ field: 'approved', op: 'eq', value: approval === 'approved' }];
}

/** `type` values of `/v1/anime` and their labels (Jikan v4 anime types). */
export const ANIME_TYPES = {
  tv: 'TV',
  movie: 'Movie',
  ova: 'OVA',
  special: 'Special',
  ona: 'ONA',
  music: 'Music',
  cm: 'CM',
  pv: 'PV',
  tv_special: 'TV Special',
} as const;

/** `status` values of `/v1/anime` and their labels. */
export const ANIME_STATUSES = {
  airing: 'Currently Airing',
  complete: 'Finished Airing',
  upcoming: 'Not yet aired',
} as const;

/** `rating` values of `/v1/anime` and their labels, in the spec's order. */
export const ANIME_RATINGS = {
  g: 'G - All Ages',
  pg: 'PG - Children',
  pg13: 'PG-13 - Teens 13 or older',
  r17: 'R - 17+ (violence & profanity)',
  r: 'R+ - Mild Nudity',
  rx: 'Rx - Hentai',
} as const;

/** `type` values of `/v1/manga` and their labels (Jikan v4 manga types, docs/specification.md: Jikan query parameters). */
export const MANGA_TYPES = {
  manga: 'Manga',
  novel: 'Novel',
  lightnovel: 'Light Novel',
  oneshot: 'One-shot',
  doujin: 'Doujinshi',
  manhwa: 'Manhwa',
  manhua: 'Manhua',
} as const;

/** `status` values of `/v1/manga` and their labels (docs/specification.md: Jikan query parameters). */
export const MANGA_STATUSES = {
  publishing: 'Publishing',
  complete: 'Finished',
  hiatus: 'On Hiatus',
  discontinued: 'Discontinued',
  upcoming: 'Not yet published',
} as const;

/** The `order_by` values both kinds take first, each the seam field (of `COLLECTIONS`) it orders by. */
const LEADING_ORDER = { mal_id: 'mal_id', title: 'title_key', start_date: 'start_date', end_date: 'end_date' } as const;
/** The `order_by` values both kinds take last. */
const TRAILING_ORDER = {
  score: 'score',
  scored_by: 'scored_by',
  rank: 'rank',
  popularity: 'popularity',
  members: 'members',
  favorites: 'favorites',
} as const;

/** The `order_by` values of `/v1/anime`, each the seam field it orders by, in the spec's order. */
export const ANIME_ORDER_BY = { ...LEADING_ORDER, episodes: 'episodes', ...TRAILING_ORDER } as const;

/** The `order_by` values of `/v1/manga`, each the seam field it orders by, in the spec's order. */
export const MANGA_ORDER_BY = { ...LEADING_ORDER, chapters: 'chapters', volumes: 'volumes', ...TRAILING_ORDER } as const;

/** What one kind of entry is, for the methods and routes written once for both. */
export interface KindSpec {
  /** `anime` or `manga`: the collection of the entries and the `owners` prefix of their sub-records. */
  readonly kind: Kind;
  /** The `type` vocabulary (query value → label). */
  readonly types: Readonly<Record<string, string>>;
  /** The `status` vocabulary (query value → label). */
  readonly statuses: Readonly<Record<string, string>>;
  /** The `rating` vocabulary, for the kind that has ratings. */
  readonly ratings?: Readonly<Record<string, string>>;
  /** `order_by` value → the seam field it orders by. */
  readonly orderBy: Readonly<Record<string, string>>;
  /** The search parameter (`AnimeSearch.producers`, `MangaSearch.magazines`) of company ids, any of which an entry must have. */
  readonly companyParam: 'producers' | 'magazines';
  /** The seam field (array of ids) that the company parameter matches. */
  readonly companies: 'companies' | 'magazines';
  /** The collection of the entries' statistics, and the answer for an entry without (its keys, in Jikan's order). */
  readonly statistics: { readonly collection: 'animeStatistics' | 'mangaStatistics'; readonly empty: Readonly<Record<string, unknown>> };
  /** The collection of the deleted ids. */
  readonly deleted: 'deletedAnimeIds' | 'deletedMangaIds';
}

/** Anime. */
export const ANIME = {
  kind: 'anime',
  types: ANIME_TYPES,
  statuses: ANIME_STATUSES,
  ratings: ANIME_RATINGS,
  orderBy: ANIME_ORDER_BY,
  companyParam: 'producers',
  companies: 'companies',
  statistics: {
    collection: 'animeStatistics',
    empty: { watching: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0, total: 0, scores: [] },
  },
  deleted: 'deletedAnimeIds',
} as const satisfies KindSpec;

/** Manga. */
export const MANGA = {
  kind: 'manga',
  types: MANGA_TYPES,
  statuses: MANGA_STATUSES,
  orderBy: MANGA_ORDER_BY,
  companyParam: 'magazines',
  companies: 'magazines',
  statistics: {
    collection: 'mangaStatistics',
    empty: { reading: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_read: 0, total: 0, scores: [] },
  },
  deleted: 'deletedMangaIds',
} as const satisfies KindSpec;

/**
 * The `order_by` parameter's values of a kind, each standing for itself (what `enumParam` takes).
 * @param orderBy - A kind's `order_by` table.
 * @example
 * ```ts
 * enumParam('order_by', orderByValues(ANIME_ORDER_BY)); // mal_id, title, start_date, …
 * ```
 */
export function orderByValues<O extends string>(orderBy: Readonly<Record<O, string>>): { readonly [K in O]: K } {
  return Object.fromEntries(Object.keys(orderBy).map((k) => [k, k])) as { [K in O]: K };
}

/** Both kinds, by name. */
export const KINDS: Readonly<Record<Kind, KindSpec>> = { anime: ANIME, manga: MANGA };
