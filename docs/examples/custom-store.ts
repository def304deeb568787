/**
 * A complete `CatalogueStore` of your own, over plain `Map`s: shown in docs/custom-store.md and checked
 * by custom-store.test.ts with the record store contract. Swap the `Map`s for your database and keep
 * the meaning of each method.
 * @module
 */
// #region store
import {
  COLLECTIONS,
  collectionKey,
  compareFields,
  fieldValues,
  holdsAll,
  normalizeTitle,
  type CollectionName,
  type CollectionRecord,
  type Fields,
  type RecordQuery,
  type CatalogueStore,
  type Tally,
} from '@catalogue-api/core/store';

/** What the store keeps per record: the record as written, its field values, its folded search texts. */
interface Row {
  record: unknown;
  fields: Fields;
  texts: string[];
}

/** Creates an empty store that keeps every collection in a `Map` (insertion order is the stored order). */
export function createMapStore(): CatalogueStore {
  const collections = new Map<CollectionName, Map<string, Row>>();
  const rowsOf = (collection: CollectionName) => {
    let rows = collections.get(collection);
    if (!rows) collections.set(collection, (rows = new Map()));
    return rows;
  };

  /**
   * This store's own search: a text equal to the query first, then one starting with it, then one
   * containing it (all folded by `normalizeTitle`); equally good hits by the collection's `relevance`.
   */
  function search(collection: CollectionName, text: string): Row[] {
    const query = normalizeTitle(text);
    const tier = (row: Row) => Math.min(...row.texts.map((t) => (t === query ? 0 : t.startsWith(query) ? 1 : t.includes(query) ? 2 : 3)));
    const tie = compareFields(COLLECTIONS[collection].relevance ?? []);
    return [...rowsOf(collection).values()]
      .map((row) => ({ row, tier: tier(row) }))
      .filter((hit) => hit.tier < 3)
      .sort((x, y) => x.tier - y.tier || tie(x.row.fields, y.row.fields))
      .map((hit) => hit.row);
  }

  return {
    async get(collection, key) {
      return rowsOf(collection).get(String(key))?.record as CollectionRecord<typeof collection> | undefined;
    },

    async getMany(collection, keys) {
      const rows = rowsOf(collection);
      return keys.map((key) => rows.get(String(key))?.record as CollectionRecord<typeof collection> | undefined);
    },

    async query<C extends CollectionName>(collection: C, q: RecordQuery) {
      const stored = [...rowsOf(collection).values()];
      let rows = (q.search === undefined ? stored : search(collection, q.search)).filter((row) => holdsAll(row.fields, q.where));
      if (q.orderBy) {
        // Array sort is stable, so ties keep the stored order: put search hits back in it first.
        const hits = new Set(rows);
        const compare = compareFields(q.orderBy);
        rows = stored.filter((row) => hits.has(row)).sort((a, b) => compare(a.fields, b.fields));
      }
      const data = rows.slice(q.offset, q.offset + q.limit).map((row) => {
        if (!q.select) return row.record;
        const record = row.record as Record<string, unknown>;
        return Object.fromEntries(q.select.map((field) => [field, record[field]]));
      });
      return { data: data as CollectionRecord<C>[], total: rows.length };
    },

    async pluck(collection, field, q) {
      // A store with columns reads the one field of every match; this one picks it off the records.
      const { data } = await this.query(collection, { ...q, select: [field] });
      return data.map((record) => (record as Record<string, unknown>)[field]);
    },

    async tally(collection, field, where) {
      const counts = new Map<number | string, number>();
      for (const row of rowsOf(collection).values()) {
        if (!holdsAll(row.fields, where)) continue;
        const value = row.fields[field];
        const values = Array.isArray(value) ? value : typeof value === 'number' || typeof value === 'string' ? [value] : [];
        for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      return [...counts] as Tally;
    },

    async upsert(collection, records) {
      const rows = rowsOf(collection);
      const search = COLLECTIONS[collection].search as ((record: unknown) => readonly string[]) | undefined;
      const written = new Set<string>();
      for (const record of records) {
        const key = collectionKey(collection, record);
        // `Map.set` on an existing key keeps its place: an upsert does not move a record.
        rows.set(key, { record, fields: fieldValues(collection, record), texts: (search?.(record) ?? []).map(normalizeTitle) });
        written.add(key);
      }
      return written.size;
    },

    async delete(collection, keys) {
      const rows = rowsOf(collection);
      let removed = 0;
      for (const key of keys) if (rows.delete(String(key))) removed++;
      return removed;
    },
  };
}
// #endregion store

// #region serve
import { createCatalogueApp } from '@catalogue-api/core';
import { loadCatalogue, type CatalogueData } from '@catalogue-api/core/store';

/** The API over the store, loaded with a dataset (e.g. `demoData`). */
export async function createMyApp(data: CatalogueData) {
  // The app computes every endpoint in core from the store's records.
  return createCatalogueApp({ store: await loadCatalogue(createMapStore(), data) });
}
// #endregion serve
