/**
 * What a cached answer depends on: the store reads of the request that made it, as dependency
 * tokens, and the tokens a committed change touches. An answer is stale once a change touching
 * one of its tokens is committed after the feed position it was made at (see `freshness.ts`).
 *
 * Tokens:
 * - `collection:key` — one record (`anime:20`, `animeCharacters:20:17`); written whether or not
 *   the record existed when read, so that its insert counts too;
 * - an owner (`anime:20`, `character:17`) — every record that belongs to it, before and after a
 *   change (the `owners` field): a sub-resource page depends on its owner, and an owner's record
 *   token is the same text (`anime:20`), so an entry page and its parts go together;
 * - `collection+` — the collection's membership (a record inserted or deleted): list pages;
 * - `collection*` — any change of the collection: id lists and tallies, which read it whole.
 *
 * A list page depends on its members and its collection's membership: a record that starts to
 * match a filter or moves in an ordering without being a member is seen when the page expires,
 * which is why list pages live an hour at most (`GatewayCacheOptions.listTtlMs`).
 * @module
 */
import type { RecordChange } from '../seam/changes.js';
import { COLLECTIONS, collectionKey, type CollectionName } from '../seam/collections.js';
import type { CatalogueStore, Condition, PluckQuery } from '../seam/types.js';
import type { PlainRequest } from '../edge/http.js';

/** Most tokens one answer keeps; past it, a collection's record tokens become its `collection*`. */
export const MAX_DEPENDENCIES = 256;

/** Most values of a key or owner condition that count as record tokens; more read as the collection's. */
const MAX_NARROW = 64;

/** The reads of one request, as dependency tokens. */
export class Reads {
  /** Record keys read, by collection. */
  readonly records = new Map<CollectionName, Set<string>>();
  /** Owner, membership and collection tokens. */
  readonly others = new Set<string>();
  /** Whether a list was read (members and membership only: capped lifetime). */
  list = false;
  /** Whether the routes ran over a tracking view at all (an answer that did not cannot be checked). */
  tracked = false;

  /** Notes one record read. */
  record(collection: CollectionName, key: string): void {
    let keys = this.records.get(collection);
    if (!keys) this.records.set(collection, (keys = new Set()));
    keys.add(key);
  }

  /**
   * The tokens, bounded by `MAX_DEPENDENCIES` (256): the collections read by most keys first read
   * as their `collection*`.
   * @returns The tokens, or `undefined` when even that is too many (the answer is then not kept).
   */
  tokens(): string[] | undefined {
    let size = this.others.size;
    for (const keys of this.records.values()) size += keys.size;
    const whole = new Set<CollectionName>();
    if (size > MAX_DEPENDENCIES) {
      for (const [collection, keys] of [...this.records].sort((a, b) => b[1].size - a[1].size)) {
        whole.add(collection);
        size -= keys.size - 1;
        if (size <= MAX_DEPENDENCIES) break;
      }
      if (size > MAX_DEPENDENCIES) return undefined;
    }
    const out = [...this.others];
    for (const [collection, keys] of this.records) {
      if (whole.has(collection)) out.push(`${collection}*`);
      else for (const key of keys) out.push(`${collection}:${key}`);
    }
    return out;
  }
}

/** The reads of each request whose answer the gateway will keep: set by the gateway, read by the app's routes. */
const tracked = new WeakMap<PlainRequest, Reads>();

/**
 * Starts tracking the reads of a request.
 * @param request - The request the gateway is about to answer from the routes.
 * @returns Its reads, filled in as the routes read the store.
 */
export function trackRequest(request: PlainRequest): Reads {
  const reads = new Reads();
  tracked.set(request, reads);
  return reads;
}

/**
 * The reads of a request being tracked, for the routes to read through {@link trackReads}.
 * @param request - The request.
 */
export function readsOf(request: PlainRequest): Reads | undefined {
  return tracked.get(request);
}

/**
 * The tokens a condition list narrows a read to, when it names its records exactly: by key (the
 * collection's one key field `eq` or `in`) or by owner (`owners` `has`, `hasAll`, `hasAny`).
 * @returns `[kind, values]`, or `undefined` when the read may see any record of the collection.
 */
function narrowed(collection: CollectionName, where: readonly Condition[] | undefined): ['record' | 'owner', string[]] | undefined {
  if (!where) return undefined;
  const key = COLLECTIONS[collection].key;
  let best: ['record' | 'owner', string[]] | undefined;
  const offer = (kind: 'record' | 'owner', values: readonly (number | string | boolean)[]) => {
    if (values.length <= MAX_NARROW && (!best || values.length < best[1].length)) best = [kind, values.map(String)];
  };
  for (const c of where) {
    if (c.op === 'any') continue;
    if (c.field === 'owners') {
      if (c.op === 'has') offer('owner', [c.value]);
      else if (c.op === 'hasAll' && c.values.length > 0) offer('owner', [c.values[0]!]);
      else if (c.op === 'hasAny') offer('owner', c.values);
    } else if (key.length === 1 && c.field === key[0]) {
      if (c.op === 'eq') offer('record', [c.value]);
      else if (c.op === 'in') offer('record', c.values);
    }
  }
  return best;
}

/** Notes a read of a collection narrowed by `where`; `false` when it was not narrowed. */
function noteNarrowed(reads: Reads, collection: CollectionName, where: readonly Condition[] | undefined): boolean {
  const narrow = narrowed(collection, where);
  if (!narrow) return false;
  if (narrow[0] === 'owner') for (const owner of narrow[1]) reads.others.add(owner);
  else for (const key of narrow[1]) reads.record(collection, key);
  return true;
}

/** A read of a whole collection (an id list, a tally): any change of it. */
function noteWhole(reads: Reads, collection: CollectionName, q: Pick<PluckQuery, 'where'> | undefined): void {
  if (!noteNarrowed(reads, collection, q?.where)) reads.others.add(`${collection}*`);
}

/**
 * A view of a store that notes every read of one request in its {@link Reads}; writes pass
 * through. Made per request on a cache miss only.
 * @param store - The store the routes would read.
 * @param reads - Where the reads go.
 * @returns The view.
 */
export function trackReads(store: CatalogueStore, reads: Reads): CatalogueStore {
  reads.tracked = true;
  const view: CatalogueStore = {
    get(collection, key) {
      reads.record(collection, String(key));
      return store.get(collection, key);
    },
    getMany(collection, keys) {
      for (const key of keys) reads.record(collection, String(key));
      return store.getMany(collection, keys);
    },
    async query(collection, q) {
      const narrow = noteNarrowed(reads, collection, q.where);
      const page = await store.query(collection, q);
      if (!narrow) {
        reads.list = true;
        reads.others.add(`${collection}+`);
        const key = COLLECTIONS[collection].key;
        // Its members; a selection without the key fields cannot name them: any change then.
        if (q.select && !key.every((field) => q.select!.includes(field))) reads.others.add(`${collection}*`);
        else for (const record of page.data) reads.record(collection, collectionKey(collection, record));
      }
      return page;
    },
    pluck(collection, field, q) {
      noteWhole(reads, collection, q);
      return store.pluck(collection, field, q);
    },
    tally(collection, field, where) {
      noteWhole(reads, collection, { where });
      return store.tally(collection, field, where);
    },
    upsert: (collection, records) => store.upsert(collection, records),
    delete: (collection, keys) => store.delete(collection, keys),
  };
  if (store.pluckJson) {
    const pluckJson = store.pluckJson.bind(store);
    view.pluckJson = (collection, field, q) => {
      noteWhole(reads, collection, q);
      return pluckJson(collection, field, q);
    };
  }
  if (store.selectJson) {
    const selectJson = store.selectJson.bind(store);
    view.selectJson = (collection, select, q) => {
      noteWhole(reads, collection, q);
      return selectJson(collection, select, q);
    };
  }
  return view;
}

/**
 * The tokens a committed change touches (see the module's description).
 * @param change - The change.
 * @returns Its tokens.
 */
export function changeTokens(change: RecordChange): string[] {
  const tokens = [`${change.collection}:${change.key}`, `${change.collection}*`, ...change.owners];
  if (change.op !== 'update') tokens.push(`${change.collection}+`);
  return tokens;
}
