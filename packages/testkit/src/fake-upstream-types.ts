/**
 * The types of the fake Jikan v4 upstream (`fake-upstream.ts` runs it, `fake-upstream-routes.ts`
 * builds its answers): its records, failures, request log, options and controls.
 * @module
 */
import type { EntryPart, MediaKind, UpstreamLimits } from '@catalogue-api/core/upstream';

/** A record as Jikan serves it at `/{kind}/{id}` (its `data`): at least a `mal_id`. */
export type FakeRecord = { readonly mal_id: number } & Record<string, unknown>;

/** A failure the fake serves instead of its answer. */
export type FakeFailure =
  /** This status (a 429 or 503 with `retryAfter` seconds, a 5xx, a 404…) and a Jikan-shaped error body. */
  | { readonly type: 'status'; readonly status: number; readonly retryAfter?: number | string | undefined; readonly body?: unknown }
  /** No answer at all until the client gives up or the fake closes. */
  | { readonly type: 'hang' }
  /** A 200 whose body is an error (`{ "status": 500, "type": "UpstreamException", … }` by default). */
  | { readonly type: 'error-body'; readonly body?: unknown }
  /** A 200 whose body is not JSON (an HTML error page). */
  | { readonly type: 'not-json' }
  /** The real answer with `score: 11` in the record (or in every item of a listing): valid JSON, an invalid record. */
  | { readonly type: 'invalid' };

/** Where and how often a failure applies. */
export interface FakeFailureScope {
  /** The path after the base (`/anime/1/full`); a string matches the path without its query, a RegExp the path with it. @default every path */
  readonly path?: string | RegExp | undefined;
  /** How many matching requests fail; then the rule is spent (a 404 that heals after N). @default every one */
  readonly times?: number | undefined;
}

/** One request the fake received. */
export interface FakeRequestRecord {
  /** When it arrived, by the fake's clock (ms since the epoch). */
  readonly time: number;
  readonly method: string;
  /** The path after the base, with its query (`/anime?order_by=mal_id&sort=desc&page=1`). */
  readonly path: string;
  /** The status answered; 0 for a request left hanging. */
  status: number;
  /** The request's headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A catalogue app the fake asks for the parts a test has not set (e.g. `createCatalogueApp({ store, gateway: false })`). */
export interface FakeBacking {
  /** Answers a Web request, as `CatalogueApp.fetch` does. */
  fetch(request: Request): Promise<Response>;
}

/** Options of {@link createFakeUpstream}. */
export interface FakeUpstreamOptions {
  /** The anime, as `/anime/{id}` serves them. */
  readonly anime?: readonly FakeRecord[];
  /** The manga, as `/manga/{id}` serves them. */
  readonly manga?: readonly FakeRecord[];
  /**
   * A catalogue app (e.g. `createCatalogueApp` over the demo data) answering `/v1/{kind}/{id}/full` and the
   * sub-resources the test has not set; its `/full` gets the fake's current record laid over it.
   */
  readonly backing?: FakeBacking | undefined;
  /** Act as this library: base path `/v1`, with `/{kind}/ids?updated_at=` and `/{kind}/deleted`. @default false (base path `/v4`) */
  readonly thisLibrary?: boolean;
  /** Limits the fake enforces itself: a request over them answers 429 with `Retry-After: 1` and counts as a violation. */
  readonly limits?: UpstreamLimits | undefined;
  /**
   * Arrival jitter forgiven when enforcing `limits` (a window is `(t − w + slack, t]`): a request
   * reaches the fake a few ms after its client took its slot, by a delay that varies, so two
   * requests sent exactly a window apart can arrive a little less than that apart. @default 25
   */
  readonly slackMs?: number;
  /** Delay before every answer (real time). @default 0 */
  readonly latencyMs?: number;
  /** The fake's clock: log times, `updated_at` of changes, rate windows, the current season. @default Date.now */
  readonly clock?: () => number;
  /** The current season for `/seasons/now`. @default the clock's (winter: January–March…) */
  readonly season?: { readonly year: number; readonly season: 'winter' | 'spring' | 'summer' | 'fall' } | undefined;
  /** Send `ETag` on 200 and answer 304 to a matching `If-None-Match`. @default true */
  readonly etags?: boolean;
}

/** A running fake upstream. */
export interface FakeUpstream {
  /** The base URL to give a source: `http://127.0.0.1:<port>/v4` (or `/v1` when acting as this library). */
  readonly url: string;
  /** Every request received, in order of arrival. */
  readonly log: readonly FakeRequestRecord[];
  /** Requests answered 429 because they exceeded the fake's own `limits`. */
  readonly violations: number;
  /** Adds an entry or replaces its record (served at once, its `updated_at` now); `hidden` serves it by id only. */
  set(kind: MediaKind, record: FakeRecord, options?: { hidden?: boolean }): void;
  /** The current record of an entry. */
  get(kind: MediaKind, id: number): FakeRecord | undefined;
  /** Sets the body (`{ data: … }`) of one part of an entry. */
  setPart(kind: MediaKind, id: number, part: EntryPart, body: unknown): void;
  /** Removes an entry (404 from now on) and lists its id in `/{kind}/deleted`. */
  remove(kind: MediaKind, id: number): void;
  /** Leaves an entry out of every listing (or puts it back), like an unapproved entry. */
  hide(kind: MediaKind, id: number, hidden?: boolean): void;
  /**
   * Serves a failure instead of the answer.
   * @returns A function removing the rule.
   */
  fail(failure: FakeFailure, scope?: FakeFailureScope): () => void;
  /** Removes every failure rule. */
  clearFailures(): void;
  /** Sets the delay before every answer. */
  setLatency(ms: number): void;
  /** Empties the log and the violation count. */
  clearLog(): void;
  /** Stops the server, dropping hanging requests. */
  close(): Promise<void>;
}
