/**
 * The change feed of an in-memory store: the changes of one process, numbered from 1, the most
 * recent ones kept (older ones are forgotten, as `ChangeFeed.since` allows), and listeners told
 * synchronously inside the write that made them.
 * @module
 */
import type { ChangeFeed, RecordChange } from './changes.js';
import type { CollectionName } from './collections.js';

/** How many changes an in-memory feed keeps by default. */
export const MEMORY_FEED_CHANGES = 10_000;

/** A change feed and the one way to add to it. */
export interface ChangeLog {
  /** The feed, for `CatalogueStore.changes`. */
  readonly feed: ChangeFeed;
  /**
   * Notes one committed change (listeners are told at {@link ChangeLog.flush}).
   * @param collection - The collection written.
   * @param key - The record's key.
   * @param op - What happened to it.
   * @param owners - Its `owners` before and after, together.
   */
  add(collection: CollectionName, key: string, op: RecordChange['op'], owners: readonly string[]): void;
  /** Tells the listeners, when changes were added since the last call. */
  flush(): void;
}

/**
 * Creates the change log of an in-memory store.
 * @param max - How many changes it keeps. @default 10_000
 * @returns The log.
 */
export function createChangeLog(max = MEMORY_FEED_CHANGES): ChangeLog {
  let kept: RecordChange[] = [];
  let seq = 0;
  let added = false;
  const listeners = new Set<() => void>();
  // A store of one process: its numbers mean nothing to a cache kept by another process or a
  // later one, which tells them apart by this id.
  const id = `memory:${crypto.randomUUID()}`;
  const feed: ChangeFeed = {
    id,
    async head() {
      return seq;
    },
    async since(after, limit) {
      const first = kept[0]?.seq ?? seq + 1;
      const start = Math.max(0, Math.floor(after) + 1 - first);
      return kept.slice(start, start + Math.max(0, limit));
    },
    subscribe(listener) {
      const own = () => listener();
      listeners.add(own);
      return () => void listeners.delete(own);
    },
  };
  return {
    feed,
    add(collection, key, op, owners) {
      kept.push({ seq: ++seq, collection, key, op, owners, at: Date.now() });
      added = true;
      // Halved when full, so that a write costs amortized constant time.
      if (kept.length > max) kept = kept.slice(kept.length - Math.floor(max / 2));
    },
    flush() {
      if (!added) return;
      added = false;
      for (const listener of listeners) {
        try {
          listener();
        } catch {
          // A listener's failure is its own; the write has happened.
        }
      }
    },
  };
}

/**
 * The `owners` of a change: those a record had before and has after, each once.
 * @param before - Its owners before (none for an insert).
 * @param after - Its owners after (none for a delete).
 */
export function changedOwners(before: readonly (string | number)[], after: readonly (string | number)[]): string[] {
  if (before.length === 0) return after.map(String);
  if (after.length === 0) return before.map(String);
  return [...new Set([...before, ...after].map(String))];
}
