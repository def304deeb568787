/**
 * The fast in-memory `CatalogueStore`: the same answers as the plain reference store
 * (`record-store.ts`, with the meaning of conditions and orderings from `evaluate.ts`), but kept
 * fast at catalogue scale by indexes:
 *
 * - records sit in slots, in stored order; a key → slot map answers `get`;
 * - field values are held per field in columns (numbers in a `Float64Array`, booleans in an
 *   `Int8Array`), not as one object per record;
 * - an `owners` index (owner → slots in stored order) answers sub-resource queries without a scan;
 * - each ordering asked for is sorted once and kept, as is the search index and a small memo of
 *   whole match lists, so that paging a repeated list costs a slice.
 *
 * A write invalidates the orderings, memo, tallies and search index of its collection only; a
 * record written again as it is stored is no write. Every change is fed to `changes` (in process,
 * synchronously inside the write).
 * @module
 */
import { COLLECTION_NAMES, COLLECTIONS, collectionKey, type CollectionName, type CollectionRecord, type FieldSpec, type FieldType } from './collections.js';
import { changedOwners, createChangeLog } from './change-log.js';
import { compareFields, holdsAll, type Fields } from './evaluate.js';
import { markStoredRecord } from './record-json.js';
import { createSearchIndex, MatchTier, type SearchIndex } from './search.js';
import type { CatalogueData } from './collections.js';
import type { Condition, FieldValue, OrderKey, Page, RecordKey, RecordQuery, CatalogueStore, Tally } from './types.js';

/** How many whole match lists a collection keeps for repeated queries. */
const MEMO_ENTRIES = 48;
/** How many slots those lists may hold in all (4 bytes each: 8 MiB). */
const MEMO_SLOTS = 1 << 21;
/** A query that looks at fewer records than this is cheap to repeat and is not kept. */
const MEMO_MIN_SCANNED = 256;
/** Dead slots a collection tolerates (and at least as many as live ones) before it is compacted. */
const MAX_HOLES = 4096;

type ArrayValue = readonly (number | string)[];
type Value = FieldValue | ArrayValue;
const EMPTY: ArrayValue = Object.freeze([]);

/** One field's values, by slot. Numbers: `NaN` is `null`; booleans: -1 is `null`. */
type Column =
  | { readonly kind: 'number'; data: Float64Array }
  | { readonly kind: 'bool'; data: Int8Array }
  | { readonly kind: 'text'; readonly data: Array<string | null> }
  | { readonly kind: 'array'; readonly data: ArrayValue[] };

function createColumn(type: FieldType): Column {
  if (type === 'int' || type === 'float') return { kind: 'number', data: new Float64Array(64).fill(Number.NaN) };
  if (type === 'bool') return { kind: 'bool', data: new Int8Array(64).fill(-1) };
  return type === 'text' ? { kind: 'text', data: [] } : { kind: 'array', data: [] };
}

function readColumn(column: Column, slot: number): Value {
  switch (column.kind) {
    case 'number': {
      const x = column.data[slot]!;
      return x === x ? x : null;
    }
    case 'bool': {
      const x = column.data[slot]!;
      return x < 0 ? null : x === 1;
    }
    case 'text':
      return column.data[slot] ?? null;
    case 'array':
      return column.data[slot] ?? EMPTY;
  }
}

function writeColumn(column: Column, slot: number, value: Value | undefined): void {
  if (column.kind === 'number' || column.kind === 'bool') {
    if (slot >= column.data.length) {
      const grown = column.kind === 'number' ? new Float64Array(column.data.length * 2).fill(Number.NaN) : new Int8Array(column.data.length * 2).fill(-1);
      grown.set(column.data);
      column.data = grown;
    }
    if (column.kind === 'number') column.data[slot] = typeof value === 'number' ? value : Number.NaN;
    else column.data[slot] = typeof value === 'boolean' ? Number(value) : -1;
  } else if (column.kind === 'text') column.data[slot] = typeof value === 'string' ? value : null;
  else column.data[slot] = Array.isArray(value) && value.length > 0 ? value : EMPTY;
}

/** One collection: its records by slot, their field columns, and what is derived from them. */
interface Collection {
  readonly name: CollectionName;
  /** The single key field, when the key is one field (most collections: `mal_id`). */
  readonly keyField: string | undefined;
  /** The declared fields' value functions and columns, side by side. */
  readonly values: ReadonlyArray<(record: unknown) => Value>;
  readonly columnList: readonly Column[];
  readonly columns: Map<string, Column>;
  /** Records by slot, in stored order; `undefined` for a deleted one. */
  records: unknown[];
  /** Key → slot; keys that are canonical integers are held as numbers (no string per record). */
  slots: Map<string | number, number>;
  holes: number;
  /** `owners` value → live slots holding it, ascending (stored order). */
  owners: Map<string, number[]> | undefined;
  // Derived, dropped on every write:
  live: Int32Array | undefined;
  orderings: Map<string, Int32Array>;
  memo: Map<string, Int32Array>;
  memoSlots: number;
  tallies: Map<string, Map<number | string, number>>;
  /** The search index over `rows`, and each row's place in the relevance order (by index position). */
  search: { index: SearchIndex; rows: Int32Array; rank: Int32Array } | undefined;
}

function createCollection(name: CollectionName): Collection {
  const specs = Object.entries(COLLECTIONS[name].fields) as Array<[string, FieldSpec<unknown>]>;
  const columnList = specs.map(([, spec]) => createColumn(spec.type));
  const key = COLLECTIONS[name].key;
  return {
    name,
    keyField: key.length === 1 ? key[0] : undefined,
    values: specs.map(([, spec]) => spec.value),
    columnList,
    columns: new Map(specs.map(([field], i) => [field, columnList[i]!])),
    records: [],
    slots: new Map(),
    holes: 0,
    owners: COLLECTIONS[name].fields.owners ? new Map() : undefined,
    live: undefined,
    orderings: new Map(),
    memo: new Map(),
    memoSlots: 0,
    tallies: new Map(),
    search: undefined,
  };
}

function invalidate(c: Collection): void {
  c.live = undefined;
  c.orderings.clear();
  c.memo.clear();
  c.memoSlots = 0;
  c.tallies.clear();
  c.search = undefined;
}

/** Integers of at most 15 digits: their decimal string and back is exact. */
const CANONICAL_INT = /^(?:0|-?[1-9]\d{0,14})$/;
const isSmallInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && Math.abs(n) < 1e15;
/** A key as the slot map holds it: a canonical integer string as its number. */
function mapKey(key: RecordKey | number): string | number {
  if (isSmallInt(key)) return key === 0 ? 0 : key;
  const s = String(key);
  return CANONICAL_INT.test(s) ? Number(s) : s;
}

/** The key of a record as the slot map holds it (no string for a plain integer key). */
function recordMapKey(c: Collection, record: unknown): string | number {
  if (c.keyField !== undefined) {
    const id = (record as Record<string, unknown>)[c.keyField];
    if (isSmallInt(id)) return id === 0 ? 0 : id;
  }
  return mapKey(collectionKey(c.name, record));
}

// ---- the owners index ----

function insertSorted(list: number[], slot: number): void {
  let lo = 0;
  let hi = list.length;
  if (hi === 0 || list[hi - 1]! < slot) {
    list.push(slot);
    return;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] !== slot) list.splice(lo, 0, slot);
}

function removeSorted(list: number[], slot: number): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] === slot) list.splice(lo, 1);
}

function indexOwners(c: Collection, slot: number, before: ArrayValue, after: ArrayValue): void {
  const index = c.owners!;
  for (const owner of before) {
    if (after.includes(owner)) continue;
    const list = index.get(owner as string);
    if (!list) continue;
    removeSorted(list, slot);
    if (list.length === 0) index.delete(owner as string);
  }
  for (const owner of after) {
    if (before.includes(owner)) continue;
    const list = index.get(owner as string);
    if (list) insertSorted(list, slot);
    else index.set(owner as string, [slot]);
  }
}

// ---- writes ----

/** Writes one record (a new key at the end, an existing one in its slot); returns its slot. */
function put(c: Collection, record: unknown): number {
  // Its JSON is made once, when first answered, and forgotten when written again (record-json.ts).
  markStoredRecord(record);
  const key = recordMapKey(c, record);
  let slot = c.slots.get(key);
  const owners = c.owners ? c.columns.get('owners')! : undefined;
  const before = slot !== undefined && owners ? (readColumn(owners, slot) as ArrayValue) : EMPTY;
  if (slot === undefined) {
    slot = c.records.length;
    c.records.push(record);
    c.slots.set(key, slot);
  } else c.records[slot] = record;
  const { values, columnList } = c;
  for (let i = 0; i < values.length; i++) writeColumn(columnList[i]!, slot, values[i]!(record));
  if (owners) indexOwners(c, slot, before, readColumn(owners, slot) as ArrayValue);
  return slot;
}

/** Removes one record by key; returns whether there was one. */
function remove(c: Collection, key: RecordKey | number): boolean {
  const k = mapKey(key);
  const slot = c.slots.get(k);
  if (slot === undefined) return false;
  if (c.owners) indexOwners(c, slot, readColumn(c.columns.get('owners')!, slot) as ArrayValue, EMPTY);
  c.slots.delete(k);
  c.records[slot] = undefined;
  for (const column of c.columns.values()) writeColumn(column, slot, null);
  c.holes++;
  return true;
}

/** A copy of a collection with its live records in fresh slots, in the same order. */
function compacted(c: Collection): Collection {
  const fresh = createCollection(c.name);
  for (const record of c.records) if (record !== undefined) put(fresh, record);
  return fresh;
}

// ---- reading ----

/** Live slots in stored order. */
function liveSlots(c: Collection): Int32Array {
  if (!c.live) {
    const live = new Int32Array(c.records.length - c.holes);
    let n = 0;
    for (let slot = 0; slot < c.records.length; slot++) if (c.records[slot] !== undefined) live[n++] = slot;
    c.live = live;
  }
  return c.live;
}

/** The fields a list of conditions reads (through `any` too). */
function fieldsOf(where: readonly Condition[], out = new Set<string>()): Set<string> {
  for (const cond of where) {
    if (cond.op === 'any') for (const all of cond.of) fieldsOf(all, out);
    else out.add(cond.field);
  }
  return out;
}

/**
 * A view of one slot's field values that `holds` and `compareFields` read: a reused object whose
 * named fields are refilled from the columns for each slot (no object per record).
 */
function createView(c: Collection, fields: Iterable<string>): { fill: (slot: number) => Fields } {
  // A field the collection does not declare reads as `null`, which `holds` and `compareFields`
  // treat as they treat an absent field.
  const view: Record<string, Value> = {};
  const readers = [...fields].map((field) => [field, c.columns.get(field)] as const);
  for (const [field] of readers) view[field] = null;
  return {
    fill(slot) {
      for (const [field, column] of readers) if (column) view[field] = readColumn(column, slot);
      return view;
    },
  };
}

/** A test of a slot against conditions; `undefined` when there are none. */
function predicate(c: Collection, where: readonly Condition[] | undefined): ((slot: number) => boolean) | undefined {
  if (!where || where.length === 0) return undefined;
  const view = createView(c, fieldsOf(where));
  return (slot) => holdsAll(view.fill(slot), where);
}

/** A comparator of slots by an ordering; ties by stored order (the slot). */
function slotComparator(c: Collection, orderBy: readonly OrderKey[]): (a: number, b: number) => number {
  const compare = compareFields(orderBy);
  const fields = orderBy.map((k) => k.field);
  const x = createView(c, fields);
  const y = createView(c, fields);
  return (a, b) => compare(x.fill(a), y.fill(b)) || a - b;
}

/** Every live slot in an ordering, sorted once and kept until the next write. */
function ordering(c: Collection, orderBy: readonly OrderKey[]): Int32Array {
  const name = JSON.stringify(orderBy);
  let sorted = c.orderings.get(name);
  if (!sorted) {
    const fields = orderBy.map((k) => k.field);
    const live = liveSlots(c);
    // One small object of the ordering's fields per slot, for the sort only.
    const views: Fields[] = [];
    const view = createView(c, fields);
    for (const slot of live) views[slot] = { ...view.fill(slot) };
    const compare = compareFields(orderBy);
    sorted = Int32Array.from(Array.from(live).sort((a, b) => compare(views[a]!, views[b]!) || a - b));
    c.orderings.set(name, sorted);
  }
  return sorted;
}

/** The collection's search index, built on first use over its live records. */
function searchIndex(c: Collection): NonNullable<Collection['search']> {
  if (!c.search) {
    const spec = COLLECTIONS[c.name];
    if (!spec.search) throw new TypeError(`${c.name} is not searchable`);
    const search = spec.search as (record: unknown) => readonly string[];
    const rows = liveSlots(c);
    const byRelevance = ordering(c, spec.relevance ?? []);
    const position = new Map<number, number>();
    rows.forEach((slot, i) => position.set(slot, i));
    const order = Int32Array.from(byRelevance, (slot) => position.get(slot)!);
    const rank = new Int32Array(rows.length);
    order.forEach((row, i) => (rank[row] = i));
    c.search = { index: createSearchIndex(Array.from(rows, (slot) => search(c.records[slot])), { order }), rows, rank };
  }
  return c.search;
}

/** Slots matching `text`, best first (ties by the collection's relevance order). */
function searched(c: Collection, text: string): number[] {
  const { index, rows, rank } = searchIndex(c);
  // Equally good hits by the relevance order, read as each row's place in it (every collection's
  // relevance ends with its unique key, so no two rows tie).
  return index
    .search(text)
    .sort((a, b) => {
      if (a.tier !== b.tier) return a.tier - b.tier;
      if (a.tier === MatchTier.Fuzzy && a.score !== b.score) return a.score - b.score;
      return rank[a.index]! - rank[b.index]!;
    })
    .map((hit) => rows[hit.index]!);
}

/** The shortest `owners` list a `has` condition on `owners` names, when there is one. */
function ownerCandidates(c: Collection, where: readonly Condition[] | undefined): readonly number[] | undefined {
  if (!c.owners || !where) return undefined;
  let best: readonly number[] | undefined;
  for (const cond of where) {
    if (cond.op !== 'has' || cond.field !== 'owners') continue;
    const list = (typeof cond.value === 'string' && c.owners.get(cond.value)) || [];
    if (!best || list.length < best.length) best = list;
  }
  return best;
}

function filtered(slots: ArrayLike<number>, test: ((slot: number) => boolean) | undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i < slots.length; i++) if (!test || test(slots[i]!)) out.push(slots[i]!);
  return out;
}

/** Every slot a query matches, in its order; repeated costly queries are answered from the memo. */
/** The memory's names of frozen queries (the catalogue hands a search's query frozen and shared): one lookup instead of writing the conditions as JSON. */
const queryNames = new WeakMap<RecordQuery, string>();

/** The name of a query's matches in a collection's memory: its conditions, search and order. */
function nameOf(q: RecordQuery): string {
  let name = queryNames.get(q);
  if (name === undefined) {
    name = JSON.stringify([q.where ?? null, q.search ?? null, q.orderBy ?? null]);
    if (Object.isFrozen(q)) queryNames.set(q, name);
  }
  return name;
}

function matches(c: Collection, q: RecordQuery): readonly number[] | Int32Array {
  const owned = q.search === undefined ? ownerCandidates(c, q.where) : undefined;
  // A record's own rows (an entry's relations, its cast) are found by the owners index, and too
  // few to be kept in the memo: not named at all (naming wrote the conditions as JSON, ~1.7 µs of
  // an anime's /full on Node 20).
  if (owned !== undefined && owned.length < MEMO_MIN_SCANNED) {
    const list = filtered(owned, predicate(c, q.where));
    if (q.orderBy) list.sort(slotComparator(c, q.orderBy));
    return list;
  }
  const name = nameOf(q);
  const kept = c.memo.get(name);
  if (kept) {
    c.memo.delete(name);
    c.memo.set(name, kept);
    return kept;
  }
  const test = predicate(c, q.where);
  let scanned: number;
  let out: readonly number[] | Int32Array;
  if (q.search !== undefined || owned) {
    const hits = q.search !== undefined ? searched(c, q.search) : owned!;
    const list = filtered(hits, test);
    if (q.orderBy) list.sort(slotComparator(c, q.orderBy));
    scanned = hits.length;
    out = list;
  } else {
    const base = q.orderBy ? ordering(c, q.orderBy) : liveSlots(c);
    out = test ? filtered(base, test) : base;
    scanned = base.length;
  }
  // A search costs its ranking whatever the number of hits: always kept.
  if (scanned >= MEMO_MIN_SCANNED || q.search !== undefined) {
    const list = out instanceof Int32Array ? out : Int32Array.from(out);
    while (c.memo.size > 0 && (c.memo.size >= MEMO_ENTRIES || c.memoSlots + list.length > MEMO_SLOTS)) {
      const [oldest, dropped] = c.memo.entries().next().value!;
      c.memo.delete(oldest);
      c.memoSlots -= dropped.length;
    }
    c.memo.set(name, list);
    c.memoSlots += list.length;
  }
  return out;
}

function pick(record: unknown, select: readonly string[] | undefined): unknown {
  if (!select) return record;
  const r = record as Record<string, unknown>;
  return Object.fromEntries(select.map((field) => [field, r[field]]));
}

/** How many of the slots matching `where` hold each value of a field, in first-seen order. */
function tallied(c: Collection, field: string, where: readonly Condition[] | undefined): Map<number | string, number> {
  const counts = new Map<number | string, number>();
  const column = c.columns.get(field);
  if (!column) return counts;
  const test = predicate(c, where);
  const slots = ownerCandidates(c, where) ?? liveSlots(c);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (test && !test(slot)) continue;
    const v = readColumn(column, slot);
    if (Array.isArray(v)) for (const x of v) counts.set(x, (counts.get(x) ?? 0) + 1);
    else if (typeof v === 'number' || typeof v === 'string') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

/** The stores `createMemoryStore` made: see {@link answersInProcess}. */
const inProcess = new WeakSet<object>();

/**
 * Whether `store` is one `createMemoryStore` made (itself, not an object wrapping it): its calls
 * do all their work during the call, in this process, and never wait on anything. Core neither
 * times them out nor queues them behind an admission gate (`createCatalogueApp`): by the time
 * either could act the work is done, so both would only cost time: more than half of a
 * `/v1/anime/{id}/full` answer's in process, which makes a dozen store calls. A wrapper (a proxy,
 * a spread copy, a store with a slow method of its own) is bounded as any other store is.
 * @param store - A store.
 * @returns Whether it is a memory store itself.
 */
export function answersInProcess(store: object): boolean {
  return inProcess.has(store);
}

/**
 * Creates the in-memory store, holding a dataset: the default store, for one process and for
 * tests. Loading is synchronous; every later write is visible to the next call. Its calls are
 * neither timed out nor queued by `createCatalogueApp` (`storeTimeoutMs`, `admission`): each does
 * its work as it is called.
 * @param data - The records; they are not copied, so do not mutate them afterwards.
 * @returns The store.
 * @example
 * ```ts
 * import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 *
 * const app = createCatalogueApp({ store: createMemoryStore(demoData) });
 * ```
 */
export function createMemoryStore(data: CatalogueData = {}): CatalogueStore {
  const collections = new Map<CollectionName, Collection>();
  const of = (name: CollectionName) => {
    let c = collections.get(name);
    if (!c) collections.set(name, (c = createCollection(name)));
    return c;
  };
  for (const name of COLLECTION_NAMES) {
    const records = data[name];
    if (!records || records.length === 0) continue;
    const c = of(name);
    for (const record of records) put(c, record);
  }
  const changes = createChangeLog();
  const recordAt = (c: Collection, key: RecordKey | number) => {
    const slot = c.slots.get(mapKey(key));
    return slot === undefined ? undefined : c.records[slot];
  };

  const store: CatalogueStore = {
    async get(collection, key) {
      return recordAt(of(collection), key) as CollectionRecord<typeof collection> | undefined;
    },
    async getMany(collection, keys) {
      const c = of(collection);
      return keys.map((k) => recordAt(c, k) as CollectionRecord<typeof collection> | undefined);
    },
    async query<C extends CollectionName>(collection: C, q: RecordQuery): Promise<Page<CollectionRecord<C>>> {
      const c = of(collection);
      const slots = matches(c, q);
      const start = Math.max(0, q.offset);
      const end = Math.min(slots.length, start + Math.max(0, q.limit));
      const data: unknown[] = [];
      for (let i = start; i < end; i++) data.push(pick(c.records[slots[i]!], q.select));
      return { data: data as CollectionRecord<C>[], total: slots.length };
    },
    async pluck(collection, field, q) {
      const c = of(collection);
      const slots = matches(c, q);
      const start = Math.max(0, q.offset);
      const end = Math.min(slots.length, start + Math.max(0, q.limit));
      const values: unknown[] = [];
      for (let i = start; i < end; i++) values.push((c.records[slots[i]!] as Record<string, unknown>)[field]);
      return values;
    },
    async tally(collection, field, where) {
      const c = of(collection);
      if (where && where.length > 0) return [...tallied(c, field, where)] as Tally;
      let counts = c.tallies.get(field);
      if (!counts) c.tallies.set(field, (counts = tallied(c, field, undefined)));
      return [...counts] as Tally;
    },
    async upsert(collection, records) {
      const c = of(collection);
      // The last of several records with one key wins, as in a sequence of single upserts.
      const unique = new Map<string | number, unknown>();
      for (const record of records) unique.set(recordMapKey(c, record), record);
      let written = 0;
      for (const [k, record] of unique) {
        const slot = c.slots.get(k);
        const before = slot === undefined ? undefined : c.records[slot];
        // A write that changes nothing changes nothing: no write, no change fed.
        if (before !== undefined && (before === record || JSON.stringify(before) === JSON.stringify(record))) continue;
        const owned = ownersOf(c, slot);
        const at = put(c, record);
        written++;
        changes.add(collection, collectionKey(collection, record), before === undefined ? 'insert' : 'update', changedOwners(owned, ownersOf(c, at)));
      }
      if (written > 0) invalidate(c);
      changes.flush();
      return written;
    },
    async delete(collection, keys) {
      let c = of(collection);
      let removed = 0;
      for (const k of keys) {
        const slot = c.slots.get(mapKey(k));
        if (slot === undefined) continue;
        const record = c.records[slot];
        const owned = ownersOf(c, slot);
        if (!remove(c, k)) continue;
        removed++;
        changes.add(collection, collectionKey(collection, record), 'delete', changedOwners(owned, EMPTY));
      }
      if (removed > 0) {
        invalidate(c);
        if (c.holes > MAX_HOLES && c.holes > c.records.length - c.holes) collections.set(collection, (c = compacted(c)));
      }
      changes.flush();
      return removed;
    },
    changes: changes.feed,
  };
  inProcess.add(store);
  return store;
}

/** The `owners` of the record in a slot (none without a slot, or for a collection without owners). */
function ownersOf(c: Collection, slot: number | undefined): ArrayValue {
  return slot !== undefined && c.owners ? (readColumn(c.columns.get('owners')!, slot) as ArrayValue) : EMPTY;
}
