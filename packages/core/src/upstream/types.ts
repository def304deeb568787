/**
 * The shapes of keeping a catalogue current from an upstream Jikan v4-compatible API: what a
 * source serves, how its request budget is shared, and what the refresher keeps between runs.
 * Runtime-agnostic: sources speak `fetch`, state lives behind interfaces a store implements.
 * @module
 */
import type { CollectionName, CollectionRecord } from '../seam/collections.js';

/** The kinds of entry an upstream keeps current. */
export type MediaKind = 'anime' | 'manga';

/**
 * The parts of an entry, each one request upstream: `full` is `/{kind}/{id}/full` (the entry with
 * its relations, theme songs, external and streaming links); the others are Jikan's sub-resources
 * (`/{kind}/{id}/characters`…), answered as `{ data: … }`.
 */
export type EntryPart =
  | 'full'
  | 'characters'
  | 'staff'
  | 'episodes'
  | 'pictures'
  | 'statistics'
  | 'moreinfo'
  | 'recommendations'
  | 'videos'
  | 'news'
  | 'reviews'
  | 'relations'
  | 'themes'
  | 'external'
  | 'streaming';

/**
 * The listings a source pages through (25 full entries a page on Jikan):
 * - `newest`: `/{kind}?order_by=mal_id&sort=desc` (new ids show first on page 1);
 * - `sweep`: `/{kind}?order_by=mal_id&sort=asc` (every entry, for the daily scores and members);
 * - `top`: `/top/{kind}`; `upcoming`: `/top/anime?filter=upcoming` (anime);
 * - `seasonNow`, `seasonUpcoming`: `/seasons/now`, `/seasons/upcoming` (anime);
 * - `schedules`: `/schedules` (anime airing this week);
 * - `current`: `/anime?status=airing` or `/manga?status=publishing`.
 */
export type ListName = 'newest' | 'sweep' | 'top' | 'upcoming' | 'seasonNow' | 'seasonUpcoming' | 'schedules' | 'current';

/** What a source allows, in real time. */
export interface UpstreamLimits {
  /** Requests in any sliding second. @default 3 */
  readonly perSecond: number;
  /** Requests in any sliding minute. @default 60 */
  readonly perMinute: number;
}

/**
 * The outcome of one request upstream:
 * - `ok`: a 200 whose body is JSON of the expected shape (`{ data: … }`); `validator` is its
 *   `ETag` or `Last-Modified`, for a later conditional request;
 * - `unchanged`: a 304 to a conditional request;
 * - `not-found`: a 404 (one 404 never deletes: the refresher asks again a day later);
 * - `failed`: anything else (429 and 5xx after their retries, a timeout, an error body served as
 *   200, an open circuit); nothing is written.
 */
export type Fetched<T> =
  | { readonly outcome: 'ok'; readonly body: T; readonly validator?: string | undefined }
  | { readonly outcome: 'unchanged' }
  | { readonly outcome: 'not-found' }
  | { readonly outcome: 'failed'; readonly reason: string };

/** One page of a listing, as the upstream serves it. */
export interface ListPage {
  /** The entries on the page, each as Jikan serves it in a list (the same object as `/{kind}/{id}`). */
  readonly items: readonly unknown[];
  /** Whether a next page exists (`pagination.has_next_page`). */
  readonly hasNextPage: boolean;
  /** The last page's number (`pagination.last_visible_page`), when given. */
  readonly lastPage?: number | undefined;
}

/** The state of a source's circuit breaker. */
export interface SourceHealth {
  /** `closed`: requests flow; `open`: failing, none sent until a probe is due; `half-open`: one probe in flight. */
  readonly circuit: 'closed' | 'open' | 'half-open';
  /** The last failure, when there was one. */
  readonly lastError?: string | undefined;
  /** When the source may be asked again, when paused (`Retry-After`) or open (ms since the epoch). */
  readonly until?: number | undefined;
}

/** A Jikan v4-compatible upstream: the public Jikan, a self-hosted jikan-rest, or another instance of this library. */
export interface UpstreamSource {
  /** A name for logs, metrics and the status API (the host, e.g. `api.jikan.moe`). */
  readonly name: string;
  /** What the source allows; every request it sends takes a slot of its {@link Budget}. */
  readonly limits: UpstreamLimits;
  /** Its circuit breaker's state, now. */
  health(): SourceHealth;
  /**
   * One part of one entry.
   * @param kind - Anime or manga.
   * @param id - The entry's `mal_id`.
   * @param part - Which part.
   * @param validator - The `validator` of the last `ok` for this part, sent as `If-None-Match` or `If-Modified-Since`.
   * @param signal - Aborts the wait for a budget slot and the request.
   * @returns The body as the upstream sent it (`{ data: … }`), unmapped.
   */
  entry(kind: MediaKind, id: number, part: EntryPart, validator?: string, signal?: AbortSignal): Promise<Fetched<unknown>>;
  /**
   * One page of a listing.
   * @param kind - Anime or manga (`seasonNow`, `seasonUpcoming`, `schedules`, `upcoming`: anime only).
   * @param list - Which listing.
   * @param page - From 1.
   * @param signal - Aborts the wait and the request.
   */
  list(kind: MediaKind, list: ListName, page: number, signal?: AbortSignal): Promise<Fetched<ListPage>>;
  /**
   * Optional, for an upstream that is this library: the ids changed at or after an instant
   * (`/v1/{kind}/ids?updated_at=`), all pages.
   */
  changedIds?(kind: MediaKind, since: number, signal?: AbortSignal): Promise<Fetched<number[]>>;
  /** Optional, for an upstream that is this library: the ids it lists as deleted (`/v1/{kind}/deleted`). */
  deletedIds?(kind: MediaKind, signal?: AbortSignal): Promise<Fetched<number[]>>;
}

/**
 * Where a source's spending is written, shared by every instance and kept across a change of
 * leader (PostgreSQL: a table; memory: one process). Both operations are atomic.
 */
export interface BudgetLedger {
  /**
   * Takes one request slot at `now` when every sliding window has room and the source is not
   * paused.
   * @param now - Real time, ms since the epoch.
   * @param limits - The windows: at most `perSecond` slots in any (now − 1 s, now], `perMinute` in (now − 60 s, now].
   * @returns 0 when the slot was taken (and recorded); else how many ms to wait before asking again.
   */
  tryTake(now: number, limits: UpstreamLimits): Promise<number>;
  /**
   * Pauses the whole source until an instant (a `Retry-After`); a later pause than the current one wins.
   * @param until - Ms since the epoch.
   */
  pause(until: number): Promise<void>;
  /** How many slots were taken in the last second and the last minute before `now`, and the pause. */
  usage(now: number): Promise<{ second: number; minute: number; pausedUntil: number }>;
}

/** A source's spending, over its ledger: what each request waits on. */
export interface Budget {
  /** Waits until a slot is free in every window (and any pause is over), then takes it. Rejects with the signal's reason when aborted. */
  take(signal?: AbortSignal): Promise<void>;
  /** Pauses the whole source (`Retry-After` on a 429 or 503). */
  pause(until: number): Promise<void>;
}

/** The records one upstream body maps to, by collection. */
export type MappedRecords = { readonly [C in CollectionName]?: readonly CollectionRecord<C>[] };
