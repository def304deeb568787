import { describe, expect, it } from 'vitest';
import { demoData } from '@catalogue-api/demo-data';
import { COLLECTIONS, COLLECTION_NAMES, collectionKey, fieldValues, type CollectionName } from './collections.js';
import { createMemoryStore } from './memory-store.js';
import { createRecordStore } from './record-store.js';
import { loadCatalogue } from './load.js';
import type { Condition, OrderKey, RecordQuery, CatalogueStore } from './types.js';

/** mulberry32: a small seeded PRNG, so that a failing query can be replayed. */
function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}
type Random = ReturnType<typeof createRandom>;

/** The values each declared field of a collection holds in a dataset (array fields: their elements). */
function valuePools(name: CollectionName, records: readonly unknown[]): Map<string, Array<number | string>> {
  const pools = new Map<string, Array<number | string>>();
  for (const field of Object.keys(COLLECTIONS[name].fields)) pools.set(field, []);
  for (const record of records.slice(0, 2000)) {
    for (const [field, v] of Object.entries(fieldValues(name, record))) {
      const pool = pools.get(field)!;
      for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'number' || typeof x === 'string') pool.push(x);
    }
  }
  return pools;
}

function generateCondition(r: Random, name: CollectionName, pools: Map<string, Array<number | string>>, depth = 0): Condition {
  const fields = [...pools.keys()];
  if (depth === 0 && r.next() < 0.1) {
    const of = Array.from({ length: 1 + r.int(3) }, () => Array.from({ length: 1 + r.int(2) }, () => generateCondition(r, name, pools, 1)));
    return { op: 'any', of };
  }
  const field = r.next() < 0.03 ? 'no_such_field' : r.pick(fields);
  const type = COLLECTIONS[name].fields[field]?.type ?? 'int';
  const pool = pools.get(field) ?? [];
  const value = () => (pool.length > 0 && r.next() < 0.9 ? r.pick(pool) : r.pick([0, 1, 'x', 'anime:1', 2024]));
  const values = () => Array.from({ length: r.int(4) }, value);
  if (type === 'ints' || type === 'texts') {
    const op = r.pick(['has', 'hasAll', 'hasAny', 'hasNone', 'null', 'notNull'] as const);
    if (op === 'has') return { field, op, value: value() };
    return op === 'null' || op === 'notNull' ? { field, op } : { field, op, values: values() };
  }
  const op = r.pick(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'prefix', 'null', 'notNull'] as const);
  switch (op) {
    case 'eq':
    case 'ne':
      return { field, op, value: type === 'bool' ? r.next() < 0.5 : value() };
    case 'in':
    case 'notIn':
      return { field, op, values: values() };
    case 'prefix': {
      const v = String(value());
      return { field, op, value: v.slice(0, r.int(v.length + 1)) };
    }
    case 'null':
    case 'notNull':
      return { field, op };
    default:
      return { field, op, value: value() };
  }
}

function generateQuery(r: Random, name: CollectionName, pools: Map<string, Array<number | string>>, texts: readonly string[]): RecordQuery {
  const spec = COLLECTIONS[name];
  const fields = Object.keys(spec.fields);
  const where = r.next() < 0.2 ? undefined : Array.from({ length: r.int(4) }, () => generateCondition(r, name, pools));
  const orderBy: OrderKey[] | undefined =
    fields.length === 0 || r.next() < 0.3
      ? undefined
      : Array.from({ length: 1 + r.int(3) }, () => ({ field: r.pick(fields), dir: r.pick(['asc', 'desc'] as const) }));
  let search: string | undefined;
  if (spec.search && texts.length > 0 && r.next() < 0.3) {
    const text = r.pick(texts);
    search = r.pick([text, text.slice(0, 1 + r.int(6)), text.split(' ')[0]!, `${text}x`, 'zzqq']);
  }
  const select = r.next() < 0.2 ? r.pick([['mal_id'], ['mal_id', 'title', 'no_such_field'], ['anime_id']]) : undefined;
  return { where, search, orderBy, offset: r.pick([0, 0, 1, 5, 24, 100, 1e6]), limit: r.pick([0, 1, 10, 25, 1000, 100_000]), select };
}

/** Runs the same generated questions against both stores and expects the same JSON. */
async function expectSameAnswers(seed: number, indexed: CatalogueStore, reference: CatalogueStore, queriesPerCollection: number): Promise<number> {
  const r = createRandom(seed);
  let asked = 0;
  for (const name of COLLECTION_NAMES) {
    const records = (await reference.query(name, { offset: 0, limit: 1e9 })).data as unknown[];
    const pools = valuePools(name, records);
    const search = COLLECTIONS[name].search as ((record: unknown) => readonly string[]) | undefined;
    const texts = search ? records.slice(0, 300).flatMap((x) => search(x)).filter(Boolean) : [];
    const keys = records.slice(0, 50).map((x) => collectionKey(name, x));
    expect(JSON.stringify(await indexed.getMany(name, [...keys, 'nope', -1]))).toBe(JSON.stringify(await reference.getMany(name, [...keys, 'nope', -1])));
    // The biggest collections (episodes, deleted ids) cost the reference a sort of thousands per query.
    const n = records.length > 5000 ? Math.ceil(queriesPerCollection / 4) : queriesPerCollection;
    for (let i = 0; i < n; i++) {
      const q = generateQuery(r, name, pools, texts);
      const want = JSON.stringify(await reference.query(name, q));
      // Twice: the second may come from the memo.
      expect(JSON.stringify(await indexed.query(name, q)), `${name} ${JSON.stringify(q)}`).toBe(want);
      expect(JSON.stringify(await indexed.query(name, q)), `${name} again ${JSON.stringify(q)}`).toBe(want);
      const field = r.pick([...pools.keys(), 'no_such_field']);
      const where = q.where;
      expect(JSON.stringify(await indexed.tally(name, field, where)), `${name} tally ${field}`).toBe(JSON.stringify(await reference.tally(name, field, where)));
      expect(JSON.stringify(await indexed.tally(name, field))).toBe(JSON.stringify(await reference.tally(name, field)));
      asked++;
    }
  }
  return asked;
}

/** A record like `model` but under the key of `keyOf` (or a new key when `keyOf` is absent). */
function rekeyed(name: CollectionName, model: unknown, keyOf: unknown, fresh: number): unknown {
  const key = COLLECTIONS[name].key;
  if (key.length === 0) return keyOf ?? (model as number) + 10_000_000 + fresh;
  const out = { ...(model as Record<string, unknown>) };
  if (keyOf) for (const field of key) out[field] = (keyOf as Record<string, unknown>)[field];
  else {
    const first = key[0]!;
    const v = out[first];
    out[first] = typeof v === 'number' ? 1_000_000 + fresh : typeof v === 'string' ? `${v}~${fresh}` : v;
    if (typeof v !== 'number' && typeof v !== 'string') out[key.at(-1)!] = 1_000_000 + fresh;
  }
  return out;
}

/** Writes to a store, the same for every store given the same seed: new keys, existing keys with other content, deletes. */
async function write(seed: number, store: CatalogueStore): Promise<number[]> {
  const r = createRandom(seed);
  const counts: number[] = [];
  for (const name of COLLECTION_NAMES) {
    const records = (demoData[name] ?? []) as readonly unknown[];
    if (records.length === 0) continue;
    const batch: unknown[] = [];
    for (let i = 0; i < 20; i++) batch.push(rekeyed(name, r.pick(records), r.next() < 0.5 ? r.pick(records) : undefined, i));
    batch.push(batch[0]); // a key repeated in one batch counts once
    const gone: Array<string | number> = Array.from({ length: 10 }, () => collectionKey(name, r.pick(records)));
    gone.push('no-such-key');
    if (name === 'deletedAnimeIds') gone.push(...records.slice(0, 20_000).map((x) => x as number)); // past compaction
    counts.push(await store.upsert(name, batch as never[]), await store.delete(name, gone));
    // Deleted and written back: the record goes to the end of the stored order.
    const back = records.filter((x) => !gone.includes(collectionKey(name, x))).slice(1, 3);
    counts.push(await store.delete(name, back.map((x) => collectionKey(name, x))), await store.upsert(name, back as never[]));
  }
  return counts;
}

describe('the indexed memory store', () => {
  it('answers generated queries on the demo data exactly as the reference store does', async () => {
    const reference = await loadCatalogue(createRecordStore(), demoData);
    const indexed = await loadCatalogue(createMemoryStore(), demoData);
    expect(await expectSameAnswers(1, indexed, reference, 60)).toBeGreaterThan(1500);
  }, 120_000);

  it('answers the same after upserts of new and existing keys and deletes', async () => {
    const reference = await loadCatalogue(createRecordStore(), demoData);
    const indexed = await loadCatalogue(createMemoryStore(), demoData);
    // Warm its orderings, memo, tallies and search indexes first, so that stale ones would show.
    await expectSameAnswers(2, indexed, reference, 20);
    expect(await write(3, indexed)).toEqual(await write(3, reference));
    await expectSameAnswers(4, indexed, reference, 40);
  }, 120_000);

  it('keeps an upserted existing key in its place and puts a new key last', async () => {
    const store = createMemoryStore();
    const [a, b, c] = demoData.anime!;
    await store.upsert('anime', [a!, b!]);
    await store.upsert('anime', [c!, { ...a!, title: 'Renamed' }]);
    const page = await store.query('anime', { offset: 0, limit: 10, select: ['mal_id', 'title'] });
    expect(page.data).toEqual([
      { mal_id: a!.mal_id, title: 'Renamed' },
      { mal_id: b!.mal_id, title: b!.title },
      { mal_id: c!.mal_id, title: c!.title },
    ]);
    expect(await store.delete('anime', [b!.mal_id, String(b!.mal_id), 'nope'])).toBe(1);
    await store.upsert('anime', [b!]);
    const again = await store.query('anime', { offset: 0, limit: 10, select: ['mal_id'] });
    expect(again.data.map((x) => x.mal_id)).toEqual([a!.mal_id, c!.mal_id, b!.mal_id]);
    expect(await store.get('anime', `0${a!.mal_id}`)).toBeUndefined();
  });
});
