/**
 * The abstract catalogue store. Stores return plain, spec-shaped records; the API decides
 * validation, envelopes and headers. A store may push filtering, ordering and paging down into its
 * back end, as long as it passes the store contract suite of `@catalogue-api/testkit`.
 * @module
 */
import type { DatePeriod } from './query.js';
import type { SfwMode } from './sfw.js';
import type { Anime } from './schemas/anime.js';

/** One page of a list: the records on it and how many matched in all. */
export interface Page<T> {
  data: T[];
  total: number;
}

/** Fields an anime list can be ordered by (spec, `order_by`). */
export type AnimeOrderBy =
  | 'mal_id'
  | 'title'
  | 'start_date'
  | 'end_date'
  | 'episodes'
  | 'score'
  | 'scored_by'
  | 'rank'
  | 'popularity'
  | 'members'
  | 'favorites';

/** Which approval states to include (spec, `unapproved`). */
export type Approval = 'approved' | 'all' | 'unapproved';

/** A validated anime search (`GET /v1/anime`), with labels already mapped. */
export interface AnimeSearch {
  /** Fuzzy title text; results are ordered by relevance unless `orderBy` is given. */
  q?: string | undefined;
  page: number;
  limit: number;
  /** Type labels (`TV`, `Movie`…), OR-ed. */
  types?: string[] | undefined;
  /** Status label (`Currently Airing`…). */
  status?: string | undefined;
  /** Rating labels (`PG-13 - Teens 13 or older`…), OR-ed. */
  ratings?: string[] | undefined;
  sfw: SfwMode;
  approval: Approval;
  /** Exact score. */
  score?: number | undefined;
  minScore?: number | undefined;
  maxScore?: number | undefined;
  /** Genre ids the entry must all have (genres, explicit genres, themes, demographics). */
  genres?: number[] | undefined;
  /** Genre ids the entry must have none of. */
  genresExclude?: number[] | undefined;
  /** Producer ids, any of which (producers, studios, licensors). */
  producers?: number[] | undefined;
  orderBy?: AnimeOrderBy | undefined;
  sort: 'asc' | 'desc';
  /** First character of the title. */
  letter?: string | undefined;
  /** `aired.from` on or after this period's first day. */
  startDate?: DatePeriod | undefined;
  /** `aired.to` on or before this period's last day. */
  endDate?: DatePeriod | undefined;
}

/**
 * Where the catalogue lives. Every method is async so that a store may live in a database.
 *
 * @example
 * ```ts
 * const store: CatalogueStore = createMemoryStore({ anime: demoAnime });
 * const naruto = await store.getAnime(20);
 * ```
 */
export interface CatalogueStore {
  /**
   * One anime by id.
   * @returns The record, or `undefined` when there is none.
   */
  getAnime(id: number): Promise<Anime | undefined>;
  /**
   * One page of anime matching a search. Ordering: by relevance with `q` (ties: more popular first),
   * by `orderBy` when given (nulls last, ties by `mal_id`), else by `mal_id` ascending.
   */
  searchAnime(search: AnimeSearch): Promise<Page<Anime>>;
}

/** Records to load into a store. */
export interface CatalogueData {
  anime?: readonly Anime[];
}
