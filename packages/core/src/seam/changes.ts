/**
 * The change feed of a catalogue store: every committed write that changed a record, in commit
 * order, numbered by a sequence that only grows. Response caches read it to drop what a change made
 * stale (whoever wrote: the refresher, the importer, any `upsert` or `delete`); the feed is part of
 * the store because only the store knows what was committed (PostgreSQL: a trigger and
 * `LISTEN`/`NOTIFY`, so a write by another process counts too; memory: in process, at once).
 *
 * A write that changes nothing (the same record written again, a key that does not exist deleted)
 * is no change and appears nowhere.
 * @module
 */
import type { CollectionName } from './collections.js';

/** One committed change of one record. */
export interface RecordChange {
  /** Its place in the feed: greater than every change committed before it. */
  readonly seq: number;
  /** The collection written. */
  readonly collection: CollectionName;
  /** The record's key (`collectionKey`). */
  readonly key: string;
  /** A record added, replaced by a different one, or removed. */
  readonly op: 'insert' | 'update' | 'delete';
  /** The record's `owners` before and after the change, together (`"anime:20"`…); empty when it has none. */
  readonly owners: readonly string[];
  /** When it was committed, in milliseconds since the epoch. */
  readonly at: number;
}

/** What a store tells of its changes. */
export interface ChangeFeed {
  /**
   * Optional: names the numbering. Two feeds with the same id number the same changes (the
   * instances of one database); a cache entry made under another id (a memory store of an earlier
   * process, a database made anew) cannot be checked against this feed and is not trusted. Known
   * once `head()` has resolved (PostgreSQL reads it from the database).
   */
  readonly id?: string | undefined;
  /** The sequence number of the last committed change (0 when there has been none). */
  head(): Promise<number>;
  /**
   * The changes after a sequence number, oldest first.
   * @param after - A sequence number seen before (0: from the start the store still keeps).
   * @param limit - How many at most.
   * @returns The changes; fewer than `limit` when there are no more. When the store no longer
   * keeps changes that far back, the first one returned has a `seq` above `after + 1` and a reader
   * must treat everything it cached before as stale.
   */
  since(after: number, limit: number): Promise<RecordChange[]>;
  /**
   * Calls `listener` soon after changes commit (memory: synchronously, inside the write; PostgreSQL:
   * on `NOTIFY`, with a poll as a fallback). The listener then reads `since`.
   * @returns A function that stops the calls.
   */
  subscribe(listener: () => void): () => void;
}
