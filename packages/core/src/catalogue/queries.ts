/**
 * The validated queries the catalogue functions take (what a route's query schema gives its row),
 * the page they answer, and `CatalogueData`, a whole dataset of records.
 * @module
 */
import type { ANIME_ORDER_BY, Approval, Kind, MANGA_ORDER_BY, MediaKind, Season, Weekday } from './kinds.js';
import type { DatePeriod } from '../edge/query.js';
import type { SfwMode } from '../seam/sfw.js';
import type { Page } from '../seam/types.js';

export type { Page };

/** Fields an anime list can be ordered by (spec, `order_by`): the keys of `ANIME_ORDER_BY`. */
export type AnimeOrderBy = keyof typeof ANIME_ORDER_BY;

export type { Approval };

/**
 * What an anime and a manga search share (`GET /v1/anime`, `GET /v1/manga`), validated and with
 * labels already mapped (docs/specification.md: Jikan query parameters; Jikan filters).
 * @typeParam O - The fields the kind can be ordered by.
 */
export interface MediaSearch<O extends string> extends Paging {
  /** Fuzzy title text; results are ordered by relevance unless `order_by` is given. */
  q?: string | undefined;
  /** Type labels (`TV`, `Movie`, `Manga`, `Light Novel`…), OR-ed. */
  type?: string[] | undefined;
  /** Status label (`Currently Airing`, `Publishing`…). */
  status?: string | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Exact score. */
  score?: number | undefined;
  /** Lowest score, inclusive. */
  min_score?: number | undefined;
  /** Highest score, inclusive. */
  max_score?: number | undefined;
  /** Genre ids the entry must all have (genres, explicit genres, themes, demographics). */
  genres?: number[] | undefined;
  /** Genre ids the entry must have none of. */
  genres_exclude?: number[] | undefined;
  /** Field to order by; absent: relevance with `q`, else `mal_id` ascending. */
  order_by?: O | undefined;
  /** Direction of the ordering. */
  sort: 'asc' | 'desc';
  /** First character of the title. */
  letter?: string | undefined;
  /** Start date (`aired.from`, `published.from`) on or after this period's first day. */
  start_date?: DatePeriod | undefined;
  /** End date (`aired.to`, `published.to`) on or before this period's last day. */
  end_date?: DatePeriod | undefined;
}

/** A validated anime search (`GET /v1/anime`). */
export interface AnimeSearch extends MediaSearch<AnimeOrderBy> {
  /** Rating labels (`PG-13 - Teens 13 or older`…), OR-ed. */
  rating?: string[] | undefined;
  /** Producer ids, any of which (producers, studios, licensors). */
  producers?: number[] | undefined;
}

/** A page request of a list: 1-based page and page size (already validated). */
export interface Paging {
  /** 1-based page number (already validated). */
  page: number;
  /** Page size (already validated against the route's bounds). */
  limit: number;
}

export type { MediaKind };

/** Fields a manga list can be ordered by (spec, `order_by`): the keys of `MANGA_ORDER_BY`. */
export type MangaOrderBy = keyof typeof MANGA_ORDER_BY;

/** A validated manga search (`GET /v1/manga`). */
export interface MangaSearch extends MediaSearch<MangaOrderBy> {
  /** Magazine ids, any of which (`serializations`). */
  magazines?: number[] | undefined;
}

/**
 * A validated search over named records (characters, people, producers, magazines): relevance
 * with `q`, else `order_by` (nulls last, ties by `mal_id`), else `mal_id` ascending.
 * @typeParam O - The fields the list can be ordered by.
 */
export interface NamedSearch<O extends string> extends Paging {
  /** Fuzzy name text; results are ordered by relevance unless `order_by` is given. */
  q?: string | undefined;
  /** Field to order by; absent: relevance with `q`, else `mal_id` ascending. */
  order_by?: O | undefined;
  /** Direction of the ordering. */
  sort: 'asc' | 'desc';
  /** First character of the name (producers: of the first title). */
  letter?: string | undefined;
}

/** `GET /v1/characters`. */
export type CharacterSearch = NamedSearch<'mal_id' | 'name' | 'favorites'>;
/** `GET /v1/people`. */
export type PersonSearch = NamedSearch<'mal_id' | 'name' | 'birthday' | 'favorites'>;
/** `GET /v1/producers`. */
export type ProducerSearch = NamedSearch<'mal_id' | 'count' | 'favorites' | 'established'>;
/** `GET /v1/magazines`. */
export type MagazineSearch = NamedSearch<'mal_id' | 'name' | 'count'>;

/** Genre categories (`filter` of `/v1/genres/*`). */
export type GenreCategory = 'genres' | 'explicit_genres' | 'themes' | 'demographics';

/** Filters shared by the season, upcoming and schedule lists (docs/specification.md: Jikan filters; docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface AiringFilter extends Paging {
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Absent: no filter; true: only Kids demographic (15); false: none of it. */
  kids?: boolean | undefined;
  /** Type labels, OR-ed (`filter` of the season endpoints). */
  type?: string[] | undefined;
}

/** `GET /v1/seasons/{year}/{season}` and `/now`: anime of one season, most members first. */
export interface SeasonQuery extends AiringFilter {
  /** The season's year. */
  year: number;
  /** The season. */
  season: Season;
  /** Also long-running shows still airing that began before the season. */
  continuing?: boolean | undefined;
}

/** Weekday or special value of `/v1/schedules` `filter`. */
export type ScheduleDay = Weekday | 'other' | 'unknown';

/** `GET /v1/schedules`: airing TV anime by broadcast day, fewest members first (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface ScheduleQuery extends AiringFilter {
  /** Broadcast day; absent: every day. */
  day?: ScheduleDay | undefined;
}

/** `GET /v1/top/anime` (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface TopAnimeQuery extends Paging {
  /** Type labels, OR-ed. */
  type?: string[] | undefined;
  /** `airing`, `upcoming`, `bypopularity` or `favorite`; absent: by rank. The order of each is `TOP_ORDER`. */
  filter?: 'airing' | 'upcoming' | 'bypopularity' | 'favorite' | undefined;
  /** Rating labels, OR-ed. */
  rating?: string[] | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** `GET /v1/top/manga` (docs/specification.md: Jikan seasons, schedules, top lists and random picks). */
export interface TopMangaQuery extends Paging {
  /** Type labels, OR-ed. */
  type?: string[] | undefined;
  /** `publishing`, `upcoming`, `bypopularity` or `favorite`; absent: by rank. The order of each is `TOP_ORDER`. */
  filter?: 'publishing' | 'upcoming' | 'bypopularity' | 'favorite' | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** `GET /v1/random/anime|manga`: the filters, and a number in [0, 1) that picks among the matches. */
export interface RandomQuery {
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Which approval states to include: `approved` (default), `all` (`unapproved`) or `unapproved` (`unapproved=only`). */
  approval: Approval;
  /** Supplied by the caller (e.g. `Math.random()`), so that the store stays deterministic. */
  pick: number;
}

/** Global and top review lists (`/v1/reviews/*`, `/v1/top/reviews`). */
export interface ReviewQuery extends Paging {
  /** Anime or manga reviews. */
  type: MediaKind;
  /** Include preliminary reviews (written before the reviewer finished the entry). */
  preliminary: boolean;
  /** Include reviews marked as spoilers. */
  spoilers: boolean;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** `mostVoted` (default; reactions desc), `newest` or `oldest`. Top reviews always use `mostVoted`. */
  sort?: 'mostVoted' | 'newest' | 'oldest' | undefined;
}

/** One entry's reviews (`/v1/anime/{id}/reviews`, `/v1/manga/{id}/reviews`). */
export interface EntryReviewQuery extends Paging {
  /** Include preliminary reviews (written before the reviewer finished the entry). */
  preliminary: boolean;
  /** Include reviews marked as spoilers. */
  spoilers: boolean;
  /** `mostVoted` (reactions desc), `newest` or `oldest`. */
  sort: 'mostVoted' | 'newest' | 'oldest';
}

/** `GET /v1/recommendations/anime|manga`: newest first. */
export interface RecentRecommendationQuery extends Paging {
  /** Anime or manga recommendations. */
  type: MediaKind;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
}

/** News and article browsing: newest first, or by relevance with `q`. */
export interface PostSearch extends Paging {
  /** Fuzzy title text. */
  q?: string | undefined;
  /** A tag id; only posts carrying it. */
  tag?: number | undefined;
}

/** `GET /v1/stacks`: newest first, or by relevance with `q`. */
export interface StackSearch extends Paging {
  /** Fuzzy name text. */
  q?: string | undefined;
  /** Only stacks of this kind. */
  type?: Kind | 'mixed' | undefined;
}

/** `GET /v1/anime/ids`, `/v1/manga/ids`: every matching id, ascending. */
export interface IdsQuery {
  /** Type labels, OR-ed. */
  type?: string[] | undefined;
  /** Status label. */
  status?: string | undefined;
  /** Rating labels, OR-ed (anime only; manga has no rating). */
  rating?: string[] | undefined;
  /** SFW filtering: `off`, `normal` (`sfw`) or `strict` (`sfw` + `sfw-strict`); see `sfwClass`. */
  sfw: SfwMode;
  /** Only entries updated at or after this instant (ms since the epoch). */
  updated_at?: number | undefined;
  /** Top-level field names to return beside each id (validated by the route); absent: bare ids. */
  include?: readonly string[] | undefined;
}

/** The result of an ids query: bare ids, or objects with `mal_id` and the included fields. */
export interface IdsResult {
  /** How many ids matched. */
  total: number;
  /** The ids, ascending: bare numbers, or objects with `mal_id` and the included fields. */
  data: Array<number | ({ mal_id: number } & Record<string, unknown>)>;
}

export type { CatalogueData } from '../seam/collections.js';
