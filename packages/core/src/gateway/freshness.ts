/**
 * How the gateway knows whether a cached answer still holds: it follows the store's change feed
 * (`CatalogueStore.changes`) and keeps, per dependency token (`reads.ts`), the position of the
 * last change that touched it. An entry made at position `p` is stale once a change after `p`
 * touched one of its tokens. The log is bounded: when it forgets, it raises a floor, and entries
 * made below the floor are stale (nothing can vouch for them). At start-up it reads the feed's
 * recent history, so that entries another instance (or an earlier process) put in a shared cache
 * can be checked; older ones, and entries made under another feed id, are not trusted.
 * @module
 */
import type { ChangeFeed } from '../seam/changes.js';
import type { CachedResponse } from './back-end.js';
import { changeTokens } from './reads.js';

/** Options of {@link createFreshness}. */
export interface FreshnessOptions {
  /** Most tokens remembered; past it the oldest go and the floor rises. @default 100_000 */
  maxTokens?: number | undefined;
  /** How many changes back to read at start-up (after it starts serving: entries older than its start are checked once they are read). @default 20_000 */
  history?: number | undefined;
  /** Told when the feed starts failing (then answers are not cached until it answers again); once per outage. */
  onError?: ((error: unknown) => void) | undefined;
}

/** What the gateway asks. */
export interface Freshness {
  /**
   * When the log is catching up with the feed (at start-up, or just after changes were
   * announced), the promise of it; else `undefined` (nothing to wait for).
   */
  pending(): Promise<void> | undefined;
  /** Whether the log follows the feed (it started, and its last read worked): answers may be served from and kept in the cache. */
  readonly usable: boolean;
  /** The feed position the log has read up to: what an answer made now reflects at least. */
  readonly position: number;
  /** The feed's id, when it has one. */
  readonly feedId: string | undefined;
  /**
   * Whether a cached entry may no longer hold.
   * @param entry - The entry.
   */
  stale(entry: CachedResponse): boolean;
  /** Stops following the feed. */
  stop(): void;
}

/** Changes read per call of `since`. */
const PAGE = 1_000;
/** After a failure, how long before the feed is asked again (unless it announces changes). */
const RETRY_MS = 1_000;

/**
 * Follows a change feed for the gateway.
 * @param feed - The store's feed.
 * @param options - Bounds and error reporting.
 * @returns The log.
 */
export function createFreshness(feed: ChangeFeed, options: FreshnessOptions = {}): Freshness {
  const maxTokens = Math.max(16, options.maxTokens ?? 100_000);
  const history = Math.max(0, options.history ?? 20_000);
  /** Token → position of the last change touching it; in ascending position (re-inserted on each). */
  const tokens = new Map<string, number>();
  /** Entries verified at a position, so that repeated hits on a memory-cache entry check once per change. */
  const verified = new WeakMap<CachedResponse, number>();
  let position = 0;
  /** Below it nothing can be checked: the start, until the history is read; raised when the log forgets. */
  let floor = 0;
  let started = false;
  let forgotten = false;
  let reported = false;
  let failedAt = -Infinity;
  let usable = false;
  let dirty = false;
  let running: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;

  const note = (seq: number, list: readonly string[]) => {
    for (const token of list) {
      const known = tokens.get(token);
      // The history, read after newer changes, never lowers what a token holds.
      if (known !== undefined && known >= seq) continue;
      tokens.delete(token);
      tokens.set(token, seq);
    }
    if (tokens.size > maxTokens) {
      // Forget the oldest tenth: entries made before what they held can no longer be checked.
      let drop = tokens.size - Math.floor(maxTokens * 0.9);
      for (const [token, at] of tokens) {
        if (drop-- <= 0) break;
        tokens.delete(token);
        forgotten = true;
        if (at > floor) floor = at;
      }
    }
  };

  /** Reads every change after `position`. */
  async function catchUp(): Promise<void> {
    for (;;) {
      const changes = await feed.since(position, PAGE);
      const first = changes[0];
      // The feed no longer holds what came right after: nothing before it can be checked.
      if (first && first.seq > position + 1) floor = Math.max(floor, first.seq - 1);
      for (const change of changes) {
        if (change.seq <= position) continue;
        note(change.seq, changeTokens(change));
        position = change.seq;
      }
      if (changes.length < PAGE) return;
    }
  }

  async function start(): Promise<void> {
    const head = await feed.head();
    if (!unsubscribe) unsubscribe = feed.subscribe(announce);
    // Serving starts at the head: what was cached before it is checked once the history is read.
    position = head;
    floor = head;
    started = true;
    void readHistory(head).catch((error: unknown) => options.onError?.(error));
  }

  /** Reads the changes up to `head`, then lowers the floor to where they start. */
  async function readHistory(head: number): Promise<void> {
    const from = Math.max(0, head - history);
    let after = from;
    let lowest = from;
    while (after < head) {
      const changes = await feed.since(after, Math.min(PAGE, head - after));
      if (changes.length === 0) break;
      if (after === from && changes[0]!.seq > from + 1) lowest = changes[0]!.seq - 1;
      for (const change of changes) if (change.seq <= head) note(change.seq, changeTokens(change));
      after = changes.at(-1)!.seq;
    }
    // Each forgotten token raised the floor above what it held: only a lower floor than that is kept.
    if (after >= head && lowest < floor && !forgotten) floor = lowest;
  }

  function run(): Promise<void> {
    return (running ??= (async () => {
      try {
        do {
          dirty = false;
          await (started ? catchUp() : start());
        } while (dirty);
        usable = true;
        reported = false;
      } catch (error) {
        usable = false;
        failedAt = Date.now();
        // Once per outage, not once per retry.
        if (!reported) options.onError?.(error);
        reported = true;
      } finally {
        running = undefined;
      }
    })());
  }

  function announce(): void {
    dirty = true;
    void run();
  }

  return {
    pending() {
      if (running) return running;
      if (!usable && Date.now() - failedAt >= RETRY_MS) return run();
      return undefined;
    },
    get usable() {
      return usable;
    },
    get position() {
      return position;
    },
    get feedId() {
      return feed.id;
    },
    stale(entry) {
      const seq = entry.seq;
      if (typeof seq !== 'number' || seq < floor) return true;
      if (feed.id !== undefined && entry.feed !== feed.id) return true;
      // Nothing known after it: an entry of this very position, or of an instance a little ahead.
      if (seq >= position) return false;
      if (verified.get(entry) === position) return false;
      const deps = entry.deps;
      // Without its dependencies, any change since makes it stale.
      if (deps === undefined) return true;
      for (let i = 0; i < deps.length; i++) if ((tokens.get(deps[i]!) ?? 0) > seq) return true;
      verified.set(entry, position);
      return false;
    },
    stop() {
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}
