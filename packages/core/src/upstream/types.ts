/**
 * The shapes of keeping a catalogue current from an upstream Jikan v4-compatible API: what a
 * source serves, how its request budget is shared, and what the refresher keeps between runs.
 * Runtime-agnostic: sources speak `fetch`, state lives behind interfaces a store implements.
 * @module
 */
import type { CollectionName, CollectionRecord } from '../seam/collections.js';

// The kinds of entry an upstream keeps current: the catalogue's own `MediaKind` ('anime' | 'manga'),
// one declaration, so the API reference lists it once.
import type { MediaKind } from '../catalogue/queries.js';
export type { MediaKind };

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
   * @param limits - The windows: at most `perSecond` slots in any (now − 1 s − margin, now], `perMinute` in (now − 60 s − margin, now].
   * @param marginMs - How much wider than 1 s and 60 s the windows are counted (a slot's request reaches the upstream a little after its instant). @default 0
   * @returns 0 when the slot was taken (and recorded); else how many ms to wait before asking again.
   */
  tryTake(now: number, limits: UpstreamLimits, marginMs?: number): Promise<number>;
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
  /** The margin every window is widened by (ms): see `BudgetOptions.marginMs`. */
  readonly marginMs: number;
  /**
   * Waits until a slot is free in every window (and any pause is over), then takes it.
   * Rejects with the signal's reason when aborted.
   * @returns The slot's instant (ms since the epoch): hand the request to `fetch` at once, unless {@link Budget.late}.
   */
  take(signal?: AbortSignal): Promise<number>;
  /**
   * Whether a slot is too old to send on: the request was not handed to `fetch` within half the
   * margin of it, so its arrival upstream might crowd the next slots. The slot stays spent; take another.
   * @param slot - What `take()` answered.
   */
  late(slot: number): boolean;
  /** Pauses the whole source (`Retry-After` on a 429 or 503). */
  pause(until: number): Promise<void>;
}

/** The records one upstream body maps to, by collection. */
export type MappedRecords = { readonly [C in CollectionName]?: readonly CollectionRecord<C>[] };

/** What writing one fetched body did. */
export type WriteOutcome =
  /** The body was valid and changed at least one record (the store's change feed has it). */
  | { readonly outcome: 'changed'; readonly keys: readonly string[] }
  /** The body was valid and every record it maps to was already stored as it is: nothing written. */
  | { readonly outcome: 'unchanged' }
  /** The body did not map to valid records (an error body, a score outside 0–10…): nothing written. */
  | { readonly outcome: 'invalid'; readonly reason: string };

/**
 * Maps upstream bodies to records and writes them safely: every record validated with the
 * collections' schemas first, nothing written when any is invalid, nothing written when nothing
 * changed, an entry's own parts replaced as a whole (rows the upstream no longer lists go), and
 * `updates` noted for an entry whose record or parts changed. The importer and the refresher
 * write through the same one.
 */
export interface RecordWriter {
  /**
   * Writes one part of one entry as the upstream served it.
   * @param kind - Anime or manga.
   * @param id - The entry's `mal_id`.
   * @param part - Which part the body is.
   * @param body - The body (`{ data: … }`).
   * @param now - When it was fetched (ms since the epoch): the `updated_at` of a change.
   */
  part(kind: MediaKind, id: number, part: EntryPart, body: unknown, now: number): Promise<WriteOutcome>;
  /**
   * Writes the entries of one listing page (each the same object as `/{kind}/{id}`): their own
   * records only, never their parts.
   * @returns What happened to each item, in order (an invalid item is skipped, the others written).
   */
  items(kind: MediaKind, items: readonly unknown[], now: number): Promise<WriteOutcome[]>;
  /**
   * Deletes an entry with its parts and lists its id as deleted.
   * @returns Whether there was anything to delete.
   */
  remove(kind: MediaKind, id: number, now: number): Promise<boolean>;
}

/**
 * The tiers of refresh, in priority order (a short budget stretches the last first):
 * - `new`: ids just discovered (every part, within minutes);
 * - `hot`: airing or publishing entries and those of the current and next season (about twice a day);
 * - `stats`: scores, members, ranks and popularity of every entry, from listing pages (daily);
 * - `popular`: the most popular entries, every part (every few days);
 * - `full`: every other entry, every part (within a month).
 */
export type TierName = 'new' | 'hot' | 'stats' | 'popular' | 'full';

/** One unit of the refresher's work: a part of an entry, or a page of a listing. */
export interface Task {
  /** Unique: `anime:20:full`, `anime:20:characters`, `manga:sweep:12`, `anime:newest:1`… */
  readonly key: string;
  /** Its tier. */
  readonly tier: TierName;
  /** When it is due (real time, ms since the epoch). */
  readonly dueAt: number;
  /** Anime or manga. */
  readonly kind: MediaKind;
  /** For an entry task: the entry and the part. */
  readonly id?: number | undefined;
  readonly part?: EntryPart | undefined;
  /** For a listing task: the listing and the page. */
  readonly list?: ListName | undefined;
  readonly page?: number | undefined;
  /** Failures in a row (backs the task off). */
  readonly failures: number;
  /** When the upstream first answered 404 for it, in the current run of 404s. */
  readonly notFoundAt?: number | undefined;
  /** The last `ok`'s validator, for a conditional request. */
  readonly validator?: string | undefined;
}

/** How many tasks of a tier are due, and since when the oldest one is. */
export interface TierBacklog {
  readonly due: number;
  readonly oldestDueAt: number | null;
}

/**
 * What the refresher keeps between runs, shared by every instance on one store (PostgreSQL:
 * tables; memory: one process, saved to a snapshot file by the host): the lease, the tasks, the
 * budget's ledger and named cursors. A killed refresher resumes from it with nothing lost.
 */
export interface RefreshState extends BudgetLedger {
  /** Takes or renews the lease (real time); `false` while another holder's lease runs. */
  acquireLease(holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `holder` holds it. */
  releaseLease(holder: string): Promise<void>;
  /** The tasks due at `now`, by tier priority then `dueAt`, at most `limit`. */
  due(now: number, limit: number): Promise<Task[]>;
  /** Adds tasks or replaces them by key. */
  put(tasks: readonly Task[]): Promise<void>;
  /** Removes tasks by key. */
  remove(keys: readonly string[]): Promise<void>;
  /** The backlog of each tier at `now`. */
  backlog(now: number): Promise<Record<TierName, TierBacklog>>;
  /** How many tasks are kept in all. */
  size(): Promise<number>;
  /** A named cursor (the last `changedIds` instant, the file drops applied…). */
  getCursor(name: string): Promise<string | undefined>;
  /** Sets a named cursor. */
  setCursor(name: string, value: string): Promise<void>;
}
