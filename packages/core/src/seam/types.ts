/**
 * The store seam: what a catalogue back end must do. A store keeps the collections of records
 * described in `collections.ts` and answers a handful of record-level questions about them; every
 * rule of the API (joins, `full` objects, SFW of referenced media, seasons, schedules, top lists,
 * reviews, random picks) is written once in core over these methods.
 *
 * The meaning of every method is fixed here and checked by the store contract suite of
 * `@catalogue-api/testkit`, so that any two stores that pass it answer every route byte for byte the
 * same (fuzzy `search` ranking excepted: it is the one place a store may use its own matcher).
 * @module
 */
import type { ChangeFeed } from './changes.js';
import type { CollectionName, CollectionRecord, FieldValue, OrderKey } from './collections.js';

// Declared beside the collections, whose fields and orderings they describe (the seam's files import one way).
export type { FieldValue, OrderKey };

/** One record's key in its collection, as `collectionKey` gives it (`"20"`, `"20:17"`…). */
export type RecordKey = string;

/**
 * A test on one field of a record (the fields a collection declares in `COLLECTIONS`). A value of
 * `null` never matches a comparison, `in`, `prefix` or an array test; `ne` is true for `null`.
 * Numbers compare as numbers, strings by UTF-16 code units (PostgreSQL: `collate "C"`).
 */
export type Condition =
  /** Equal / not equal (`ne` is true when the field is `null`). */
  | { readonly field: string; readonly op: 'eq' | 'ne'; readonly value: number | string | boolean }
  /** Less than, at most, greater than, at least. */
  | { readonly field: string; readonly op: 'lt' | 'lte' | 'gt' | 'gte'; readonly value: number | string }
  /** The (scalar) field is one of the values, or none of them (`notIn` is true when `null`). */
  | { readonly field: string; readonly op: 'in' | 'notIn'; readonly values: readonly (number | string)[] }
  /** The string field starts with the value. */
  | { readonly field: string; readonly op: 'prefix'; readonly value: string }
  /** The field is `null`, or is not. */
  | { readonly field: string; readonly op: 'null' | 'notNull' }
  /** The array field holds the value. */
  | { readonly field: string; readonly op: 'has'; readonly value: number | string }
  /** The array field holds every value, at least one of them, or none of them. */
  | { readonly field: string; readonly op: 'hasAll' | 'hasAny' | 'hasNone'; readonly values: readonly (number | string)[] }
  /** At least one of the nested conditions lists holds (each list: all of its conditions). */
  | { readonly op: 'any'; readonly of: readonly (readonly Condition[])[] };

/**
 * A question about one collection: which records (all `where` conditions hold, and `search` matches
 * when given), in which order, which slice.
 *
 * Order: by `orderBy`, key after key (nulls last); records equal on every key keep the order the
 * store holds them in, which is the order they were first written (an upsert of an existing key
 * keeps its place). Core always ends `orderBy` with a unique field where the order must be total.
 * With `search` and no `orderBy`, the order is the store's relevance ranking (best first; ties by
 * the collection's `relevance` keys).
 */
export interface RecordQuery {
  /** Conditions that must all hold. */
  readonly where?: readonly Condition[] | undefined;
  /** Text to match against the collection's search texts (`COLLECTIONS[c].search`). */
  readonly search?: string | undefined;
  /** The ordering; absent: relevance with `search`, else the stored order. */
  readonly orderBy?: readonly OrderKey[] | undefined;
  /** How many matching records to skip. */
  readonly offset: number;
  /** How many to return at most (0: none; only `total` is wanted). */
  readonly limit: number;
  /**
   * `false` when only the page is wanted (its place is known already): a store may then skip
   * counting the matches, and `total` is only a lower bound. Default `true`.
   */
  readonly count?: boolean | undefined;
  /**
   * Top-level record fields to return instead of whole records, in this order (an id list needs a
   * few fields of thousands of records, not the records).
   */
  readonly select?: readonly string[] | undefined;
}

/** The question of a `pluck`: a `RecordQuery` without its selection and count. */
export type PluckQuery = Omit<RecordQuery, 'select' | 'count'>;

/** One page of a list: the records on it and how many matched in all. */
export interface Page<T> {
  /** The records on this page. */
  data: T[];
  /** How many records matched in all, across pages. */
  total: number;
}

/** The values of a `pluck`, or the records of a `query`, written as JSON (see `CatalogueStore.pluckJson` and `selectJson`). */
export interface PluckedJson {
  /** How many values the array holds. */
  count: number;
  /** The array as JSON text, UTF-8 (`[1,2,3]`, `[{"mal_id":1,"title":"Cowboy Bebop"}]`). */
  json: Uint8Array;
}

/** How many records hold each value of a field: `[value, count]` pairs, in no particular order. */
export type Tally = Array<[value: number | string, count: number]>;

/**
 * Where the catalogue lives: collections of plain records (see `COLLECTIONS`), read and written by
 * key and queried by declared fields. A store holds no rule of the API.
 *
 * @example
 * ```ts
 * const naruto = await store.get('anime', 20);
 * const cast = await store.query('animeCharacters', {
 *   where: [{ field: 'owners', op: 'has', value: 'anime:20' }],
 *   offset: 0,
 *   limit: 1000,
 * });
 * ```
 */
export interface CatalogueStore {
  /**
   * One record by its key.
   * @param collection - The collection.
   * @param key - The record's key (`collectionKey`); a number is taken as its decimal string.
   * @returns The record, or `undefined` when there is none.
   */
  get<C extends CollectionName>(collection: C, key: RecordKey | number): Promise<CollectionRecord<C> | undefined>;
  /**
   * Several records by key, in the order asked (`undefined` where there is none).
   * @param collection - The collection.
   * @param keys - The keys.
   */
  getMany<C extends CollectionName>(collection: C, keys: readonly (RecordKey | number)[]): Promise<Array<CollectionRecord<C> | undefined>>;
  /**
   * One page of the records a query matches, and how many match in all.
   * @param collection - The collection.
   * @param query - Conditions, search text, order and slice.
   */
  query<C extends CollectionName>(collection: C, query: RecordQuery): Promise<Page<CollectionRecord<C>>>;
  /**
   * One top-level field of each record a query matches, in its order: what `query` with
   * `select: [field]` gives, as a list of values rather than of one-field records (an id list of
   * 70k entries is one array, not 70k objects). `undefined` where a record lacks the field.
   * @param collection - The collection.
   * @param field - A top-level record field.
   * @param query - Conditions, search text, order and slice, as in `query`.
   */
  pluck(collection: CollectionName, field: string, query: PluckQuery): Promise<unknown[]>;
  /**
   * Optional: what `pluck` gives, already written as a JSON array: the UTF-8 bytes of
   * `JSON.stringify(await pluck(…))`, and how many values it holds. Core sends whole id lists
   * this way without reading them. A store whose back end writes JSON itself spares the process
   * parsing 70k ids and printing them again (PostgreSQL: `/v1/manga/ids` median 14.5 → 11.2 ms).
   * Without it, core serializes what `pluck` gives.
   * @param collection - The collection.
   * @param field - A top-level record field.
   * @param query - Conditions, search text, order and slice, as in `query`.
   */
  pluckJson?(collection: CollectionName, field: string, query: PluckQuery): Promise<PluckedJson>;
  /**
   * Optional: what `query` gives with `select`, already written as a JSON array: the UTF-8 bytes
   * of `JSON.stringify((await query(collection, { ...query, select })).data)`, and how many
   * records it holds; `undefined` when the store does not write these fields itself, and core
   * then asks `query`. Core sends an id list with included fields this way without reading it
   * (`/v1/anime/ids?include=title`: 4,000 titles, ~290 KB a request would otherwise parse).
   * @param collection - The collection.
   * @param select - The top-level fields of each record, in this order.
   * @param query - Conditions, search text, order and slice, as in `query`.
   */
  selectJson?(collection: CollectionName, select: readonly string[], query: PluckQuery): Promise<PluckedJson | undefined>;
  /**
   * How many of the records matching `where` hold each value of a field (each element once per
   * record, for an array field).
   * @param collection - The collection.
   * @param field - A field the collection declares.
   * @param where - Conditions, as in `query`.
   */
  tally(collection: CollectionName, field: string, where?: readonly Condition[]): Promise<Tally>;
  /**
   * Inserts records, or replaces those whose key exists (keeping their place in the stored order).
   * A record equal to the one stored (the same JSON text) is not written: nothing changes, and no
   * change is fed to `changes`.
   * @param collection - The collection.
   * @param records - Valid records (see `COLLECTIONS[c].schema`).
   * @returns How many records were written: inserted, or replaced by a different one (a key
   *   repeated in `records` counts once; the last wins; a record written again as it is stored
   *   does not count).
   */
  upsert<C extends CollectionName>(collection: C, records: readonly CollectionRecord<C>[]): Promise<number>;
  /**
   * Removes records by key; keys that do not exist are ignored.
   * @param collection - The collection.
   * @param keys - The keys.
   * @returns How many records were removed.
   */
  delete(collection: CollectionName, keys: readonly (RecordKey | number)[]): Promise<number>;
  /**
   * Optional: the feed of committed changes (see `changes.ts`), whoever wrote them: this process,
   * another instance, the importer. The gateway's response caches read it to drop every answer a
   * change made stale, on every instance, as soon as the change is committed. A store without it
   * has its answers cached until they expire.
   */
  readonly changes?: ChangeFeed | undefined;
}
