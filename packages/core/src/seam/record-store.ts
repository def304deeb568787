/**
 * A plain in-memory `CatalogueStore` over the seam: each collection a `Map` from key to record and
 * its field values, every query a scan. It is the reference the faster memory store is checked
 * against, and the shape a third-party store can start from.
 * @module
 */
import { COLLECTIONS, collectionKey, fieldValues, type CollectionName, type CollectionRecord } from './collections.js';
import { changedOwners, createChangeLog } from './change-log.js';
import { compareFields, holdsAll, type Fields } from './evaluate.js';
import { createSearchIndex, MatchTier, type SearchIndex } from './search.js';
import type { Page, RecordKey, RecordQuery, CatalogueStore, Tally } from './types.js';

interface Row {
  record: unknown;
  fields: Fields;
}

/** The `owners` a row holds (none when it has no row, or its collection no owners). */
function ownersIn(row: Row | undefined): readonly (string | number)[] {
  const owners = row?.fields.owners;
  return Array.isArray(owners) ? owners : [];
}

/**
 * Creates an empty store that keeps every collection in `Map`s and answers queries by scanning.
 * @returns The store.
 */
export function createRecordStore(): CatalogueStore {
  const collections = new Map<CollectionName, Map<string, Row>>();
  const searchIndexes = new Map<CollectionName, { index: SearchIndex; rows: Row[] }>();
  const changes = createChangeLog();
  const rowsOf = (c: CollectionName) => {
    let rows = collections.get(c);
    if (!rows) collections.set(c, (rows = new Map()));
    return rows;
  };

  /** Rows matching `search`, best first (ties by the collection's relevance order). */
  function searched(c: CollectionName, text: string): Row[] {
    const spec = COLLECTIONS[c];
    if (!spec.search) throw new TypeError(`${c} is not searchable`);
    let built = searchIndexes.get(c);
    if (!built) {
      const rows = [...rowsOf(c).values()];
      const search = spec.search as (r: unknown) => readonly string[];
      const tie = compareFields(spec.relevance ?? []);
      const order = rows.map((_, i) => i).sort((x, y) => tie(rows[x]!.fields, rows[y]!.fields));
      built = { index: createSearchIndex(rows.map((r) => search(r.record)), { order }), rows };
      searchIndexes.set(c, built);
    }
    const { index, rows } = built;
    const tie = compareFields(spec.relevance ?? []);
    return index
      .search(text)
      .sort((x, y) => {
        if (x.tier !== y.tier) return x.tier - y.tier;
        if (x.tier === MatchTier.Fuzzy && x.score !== y.score) return x.score - y.score;
        return tie(rows[x.index]!.fields, rows[y.index]!.fields);
      })
      .map((hit) => rows[hit.index]!);
  }

  const store: CatalogueStore = {
    async get(collection, key) {
      return rowsOf(collection).get(String(key))?.record as CollectionRecord<typeof collection> | undefined;
    },
    async getMany(collection, keys) {
      const rows = rowsOf(collection);
      return keys.map((k) => rows.get(String(k))?.record as CollectionRecord<typeof collection> | undefined);
    },
    async query<C extends CollectionName>(collection: C, q: RecordQuery): Promise<Page<CollectionRecord<C>>> {
      let rows = q.search !== undefined ? searched(collection, q.search) : [...rowsOf(collection).values()];
      rows = rows.filter((r) => holdsAll(r.fields, q.where));
      if (q.orderBy) {
        const compare = compareFields(q.orderBy);
        if (q.search !== undefined) {
          // Search hits in the stored order first, so that ties keep it.
          const hits = new Set(rows);
          rows = [...rowsOf(collection).values()].filter((r) => hits.has(r));
        }
        rows.sort((a, b) => compare(a.fields, b.fields));
      }
      const page = rows.slice(q.offset, q.offset + q.limit);
      const select = q.select;
      const data = page.map((r) => {
        if (!select) return r.record;
        const record = r.record as Record<string, unknown>;
        return Object.fromEntries(select.map((f) => [f, record[f]]));
      });
      return { data: data as CollectionRecord<C>[], total: rows.length };
    },
    async pluck(collection, field, q) {
      const { data } = await store.query(collection, { ...q, select: [field] });
      return data.map((r) => (r as Record<string, unknown>)[field]);
    },
    async tally(collection, field, where) {
      const counts = new Map<number | string, number>();
      for (const row of rowsOf(collection).values()) {
        if (!holdsAll(row.fields, where)) continue;
        const v = row.fields[field];
        for (const x of Array.isArray(v) ? v : v === null || typeof v === 'boolean' || v === undefined ? [] : [v]) {
          counts.set(x, (counts.get(x) ?? 0) + 1);
        }
      }
      return [...counts] as Tally;
    },
    async upsert(collection, records) {
      const rows = rowsOf(collection);
      const unique = new Map<string, unknown>();
      for (const record of records) unique.set(collectionKey(collection, record), record);
      let written = 0;
      for (const [key, record] of unique) {
        const before = rows.get(key);
        // The same record again is no write (compared as the JSON text it is served as).
        if (before && (before.record === record || JSON.stringify(before.record) === JSON.stringify(record))) continue;
        const row = { record, fields: fieldValues(collection, record) };
        rows.set(key, row);
        written++;
        changes.add(collection, key, before ? 'update' : 'insert', changedOwners(ownersIn(before), ownersIn(row)));
      }
      if (written > 0) searchIndexes.delete(collection);
      changes.flush();
      return written;
    },
    async delete(collection, keys: readonly (RecordKey | number)[]) {
      const rows = rowsOf(collection);
      let removed = 0;
      for (const k of keys) {
        const row = rows.get(String(k));
        if (!row || !rows.delete(String(k))) continue;
        removed++;
        changes.add(collection, String(k), 'delete', changedOwners(ownersIn(row), []));
      }
      if (removed > 0) searchIndexes.delete(collection);
      changes.flush();
      return removed;
    },
    changes: changes.feed,
  };
  return store;
}
