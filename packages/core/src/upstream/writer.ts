/**
 * The safe writer of upstream bodies (`RecordWriter`): maps a body with `mapping.ts`, validates
 * every record with its collection's schema (`COLLECTIONS[c].schema`) before anything is written,
 * compares with what the store holds and writes only what changed, replaces an entry's own rows
 * of a part as a whole, and notes an `updates` row for an entry whose records changed, so that
 * `/v1/{kind}/ids?updated_at=` follows real changes. The importer and the refresher write through
 * it. Runtime-agnostic: it speaks only the `CatalogueStore` seam.
 * @module
 */
import { COLLECTIONS, collectionKey, type CollectionName, type CollectionRecord } from '../seam/collections.js';
import type { CatalogueStore, Condition } from '../seam/types.js';
import { isVoteRecord, mapEntryPart, mapListItem, MappingError, PART_COLLECTIONS, type MappedPart } from './mapping.js';
import type { EntryPart, MediaKind, RecordWriter, WriteOutcome } from './types.js';

/** Options of {@link createRecordWriter}. */
export interface RecordWriterOptions {
  /**
   * More checks of a valid record, for what the store cannot keep (the PostgreSQL importer: a NUL
   * character, an id past 2³¹−1): issues as `path: message`, none when it can be written.
   */
  readonly check?: (collection: CollectionName, record: unknown) => readonly string[];
}

type Json = Record<string, unknown>;

/** Issues of one record named in an `invalid` reason; the rest are counted. */
const LISTED_ISSUES = 5;

/** Every row of a query: an entry's rows of one collection are few. */
const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER } as const;

/**
 * A value as JSON with object keys sorted: the same text for records equal but for key order
 * (a record read back from a store is then compared by value, not by how it was spelled).
 * @param value - A JSON value.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Whether two JSON values are equal as {@link canonicalJson} writes them (object keys in any order,
 * a key holding `undefined` as absent), without writing either: a refresh compares every record it
 * fetches with the stored one, and two sorted serializations cost several times this walk.
 * @param a - A JSON value.
 * @param b - Another.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    // An array's `undefined` is written as `null`.
    return a.every((item, i) => sameJson(item ?? null, b[i] ?? null));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (x[key] === undefined) continue;
    keys++;
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) keys--;
  return keys === 0;
}

/** `2026-11-28T00:15:00+00:00`: an instant as the `updates` records write it. */
const isoSeconds = (now: number) => new Date(now).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** The owner condition of an entry's rows (`owners` has `anime:20`). */
const ownedBy = (kind: MediaKind, id: number): Condition => ({
  field: 'owners',
  op: 'has',
  value: `${kind}:${id}`,
});

/** Whether a collection's records name their owners (`owners`), so an entry's rows are a query. */
const hasOwners = (c: CollectionName) => 'owners' in COLLECTIONS[c].fields;

/** The union of two id lists, in first-seen order. */
const union = (a: unknown, b: unknown): unknown[] => [...new Set([...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])])];

/**
 * How a record keeps what the store holds of the fields its body does not carry, beyond the
 * general rule (a top-level field the mapped record lacks keeps its stored value): a news item of
 * an entry's list keeps its stored text and tags, and adds the entry to those it concerns.
 */
const MERGES: Partial<Record<CollectionName, (mapped: Json, stored: Json) => Json>> = {
  news: (mapped, stored) => ({
    ...mapped,
    content: stored.content,
    tag_ids: stored.tag_ids,
    anime_ids: union(stored.anime_ids, mapped.anime_ids),
    manga_ids: union(stored.manga_ids, mapped.manga_ids),
  }),
};

/**
 * Whether an entry's one record of a collection keyed by its owner says nothing: the store then
 * keeps none, which every route answers alike (no theme songs, no links, no pictures, no videos,
 * `moreinfo: null`), so that an upstream's empty answer writes nothing where there was nothing.
 */
function isEmpty(c: CollectionName, r: Json): boolean {
  const none = (field: string) => Array.isArray(r[field]) && (r[field] as unknown[]).length === 0;
  switch (c) {
    case 'themes':
      return none('openings') && none('endings');
    case 'streaming':
    case 'external':
      return none('links');
    case 'pictures':
      return none('pictures');
    case 'videos':
      return none('promo') && none('episodes') && none('music_videos');
    case 'moreinfo':
      return r.moreinfo === null;
    default:
      return false;
  }
}

/** A plan: what to write for one body, computed before writing anything. */
interface Plan {
  upserts: Map<CollectionName, unknown[]>;
  deletes: Map<CollectionName, string[]>;
  keys: string[];
}

/** Thrown inside planning for a record that is not valid; becomes an `invalid` outcome. */
class Invalid extends Error {}

/**
 * Creates the writer over a store.
 * @param store - Where records are read and written.
 * @param options - More checks of a record.
 * @returns The writer.
 * @example
 * ```ts
 * const writer = createRecordWriter(store);
 * const outcome = await writer.part('anime', 20, 'full', await (await fetch('https://api.jikan.moe/v4/anime/20/full')).json(), Date.now());
 * if (outcome.outcome === 'invalid') console.warn(outcome.reason);
 * ```
 */
export function createRecordWriter(store: CatalogueStore, options: RecordWriterOptions = {}): RecordWriter {
  /** Validates one record (schema, then `check`); its schema output, or `Invalid` naming the field. */
  function validate(collection: CollectionName, record: unknown, at: string): Json {
    const parsed = COLLECTIONS[collection].schema.safeParse(record);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, LISTED_ISSUES).map((i) => `${[collection, at, ...i.path.map(String)].join('.')}: ${i.message}`);
      if (parsed.error.issues.length > LISTED_ISSUES) issues.push(`and ${parsed.error.issues.length - LISTED_ISSUES} more issues`);
      throw new Invalid(issues.join('; '));
    }
    const issues = options.check?.(collection, parsed.data) ?? [];
    if (issues.length > 0)
      throw new Invalid(
        issues
          .slice(0, LISTED_ISSUES)
          .map((i) => `${collection}.${at}.${i}`)
          .join('; '),
      );
    return parsed.data as Json;
  }

  /**
   * Validates the records of one collection, keeping for each field a record lacks what the
   * store holds (the general rule, then `MERGES`).
   * @returns The records by key (a key repeated: the last wins) and what the store holds for those keys.
   */
  async function prepare(collection: CollectionName, records: readonly unknown[], validated?: readonly Json[]): Promise<{ next: Map<string, Json>; stored: Map<string, Json> }> {
    const raw = records.map((r, i) => ({
      raw: r as Json,
      valid: validated?.[i] ?? validate(collection, r, String(i)),
      at: String(i),
    }));
    const keys = [...new Set(raw.map((r) => collectionKey(collection, r.valid)))];
    const found = keys.length > 0 ? await store.getMany(collection, keys) : [];
    const stored = new Map<string, Json>();
    keys.forEach((k, i) => found[i] !== undefined && stored.set(k, found[i] as Json));
    const next = new Map<string, Json>();
    for (const { raw: r, valid, at } of raw) {
      const key = collectionKey(collection, valid);
      const before = stored.get(key);
      let record = valid;
      if (before && r !== null && typeof r === 'object') {
        const kept = Object.fromEntries(Object.keys(valid).map((f) => [f, f in r || !(f in before) ? valid[f] : before[f]]));
        const merged = MERGES[collection]?.(kept, before) ?? kept;
        record = merged === valid ? valid : validate(collection, merged, at);
      }
      next.set(key, record);
    }
    return { next, stored };
  }

  /** What writing a mapped part would change, or `Invalid`. */
  async function plan(kind: MediaKind, id: number, mapped: MappedPart): Promise<Plan> {
    const result: Plan = { upserts: new Map(), deletes: new Map(), keys: [] };
    const upsert = (c: CollectionName, key: string, record: unknown) => {
      const list = result.upserts.get(c) ?? [];
      list.push(record);
      result.upserts.set(c, list);
      result.keys.push(`${c}:${key}`);
    };
    const remove = (c: CollectionName, key: string) => {
      const list = result.deletes.get(c) ?? [];
      list.push(key);
      result.deletes.set(c, list);
      result.keys.push(`${c}:${key}`);
    };
    // Every record is validated before anything is read for comparison: one invalid record
    // refuses the whole body.
    const validated = new Map<CollectionName, Json[]>();
    for (const [c, records] of Object.entries(mapped.records) as [CollectionName, unknown[]][]) validated.set(c, records.map((r, i) => validate(c, r, String(i))));
    const references = (Object.entries(mapped.references) as [CollectionName, unknown[]][]).map(([c, records]) => [c, records.map((r, i) => validate(c, r, String(i)))] as const);

    const collections = new Set<CollectionName>([...(Object.keys(mapped.records) as CollectionName[]), ...mapped.replaces]);
    for (const c of collections) {
      let records = (mapped.records[c] ?? []) as readonly unknown[];
      const replacing = mapped.replaces.includes(c) && hasOwners(c);
      const owned = replacing ? ((await store.query(c, { where: [ownedBy(kind, id)], ...ALL })).data as Json[]) : [];
      if (c === 'recommendations') records = votesToWrite(records as CollectionRecord<'recommendations'>[], owned as CollectionRecord<'recommendations'>[]);
      // The votes are recomputed from what the store holds, so they are checked again.
      const { next, stored } = await prepare(c, records, c === 'recommendations' ? undefined : validated.get(c));
      for (const [key, record] of next) {
        const before = stored.get(key);
        if (!replacing && isEmpty(c, record)) {
          if (before) remove(c, key);
        } else if (!before || !sameJson(before, record)) upsert(c, key, record);
      }
      if (replacing) {
        // Rows the upstream no longer lists go; of recommendations, only the votes (a user's
        // recommendation is not the entry's to remove).
        const gone = owned
          .filter((r) => c !== 'recommendations' || isVoteRecord(r as CollectionRecord<'recommendations'>))
          .map((r) => collectionKey(c, r))
          .filter((k) => !next.has(k));
        for (const k of gone) remove(c, k);
      }
    }
    // Characters and people a cast or staff list names: written only where the store has none.
    for (const [c, valid] of references) {
      const keys = valid.map((r) => collectionKey(c, r));
      const found = keys.length > 0 ? await store.getMany(c, keys) : [];
      valid.forEach((r, i) => found[i] === undefined && upsert(c, keys[i]!, r));
    }
    return result;
  }

  async function write(kind: MediaKind, id: number, mapped: () => MappedPart, now: number): Promise<WriteOutcome> {
    let p: Plan;
    try {
      p = await plan(kind, id, mapped());
    } catch (error) {
      if (error instanceof Invalid || error instanceof MappingError) return { outcome: 'invalid', reason: error.message };
      throw error;
    }
    return apply(store, kind, id, p, now);
  }

  return {
    part(kind, id, part: EntryPart, body, now) {
      return write(kind, id, () => mapEntryPart(kind, id, part, body), now);
    },
    async items(kind, list, now) {
      const outcomes: WriteOutcome[] = [];
      for (const [i, item] of list.entries()) {
        const id = (item as { mal_id?: unknown } | null)?.mal_id;
        if (typeof id !== 'number' || !Number.isInteger(id)) {
          outcomes.push({
            outcome: 'invalid',
            reason: `items.${i}.mal_id: expected an integer id`,
          });
          continue;
        }
        outcomes.push(
          await write(
            kind,
            id,
            () => ({
              records: mapListItem(kind, item),
              replaces: [kind],
              references: {},
            }),
            now,
          ),
        );
      }
      return outcomes;
    },
    async remove(kind, id) {
      let removed = 0;
      removed += await store.delete(kind, [id]);
      for (const c of ownedCollections(kind)) {
        if (hasOwners(c)) {
          const rows = (await store.query(c, { where: [ownedBy(kind, id)], ...ALL })).data as Json[];
          const keys = rows.filter((r) => c !== 'recommendations' || isVoteRecord(r as CollectionRecord<'recommendations'>)).map((r) => collectionKey(c, r));
          if (keys.length > 0) removed += await store.delete(c, keys);
        } else {
          removed += await store.delete(c, [singletonKey(c, kind, id)]);
        }
      }
      removed += await store.delete('updates', [`${kind}:${id}`]);
      const deleted = kind === 'anime' ? 'deletedAnimeIds' : 'deletedMangaIds';
      const listed = (await store.get(deleted, id)) !== undefined;
      if (!listed) await store.upsert(deleted, [id]);
      return removed > 0 || !listed;
    },
  };
}

/**
 * Writes a plan and the entry's `updates` row; `unchanged` when the plan is empty.
 * @param store - The store written.
 * @param kind - The entry's kind.
 * @param id - The entry's id.
 * @param p - What to write.
 * @param now - When, for the `updates` row.
 */
async function apply(store: CatalogueStore, kind: MediaKind, id: number, p: Plan, now: number): Promise<WriteOutcome> {
  if (p.keys.length === 0) return { outcome: 'unchanged' };
  for (const [c, records] of p.upserts) await store.upsert(c, records as CollectionRecord<typeof c>[]);
  for (const [c, keys] of p.deletes) await store.delete(c, keys);
  // Last: a write cut short is written again in full by the next fetch, and notes its change then.
  await store.upsert('updates', [{ type: kind, mal_id: id, updated_at: isoSeconds(now) }]);
  return { outcome: 'changed', keys: p.keys };
}

/**
 * Of the votes a recommendations body maps to, those the store needs besides the users'
 * recommendations it holds: Jikan's `votes` of a pair count every user's recommendation of it,
 * so a pair with `V` votes of which the store holds `R` users' recommendations gets `V − R` votes.
 */
function votesToWrite(votes: readonly CollectionRecord<'recommendations'>[], owned: readonly CollectionRecord<'recommendations'>[]): CollectionRecord<'recommendations'>[] {
  const pair = (r: CollectionRecord<'recommendations'>) => [...r.entry_ids].sort((a, b) => a - b).join('-');
  const count = (records: readonly CollectionRecord<'recommendations'>[]) => {
    const counts = new Map<string, number>();
    for (const r of records) counts.set(pair(r), (counts.get(pair(r)) ?? 0) + 1);
    return counts;
  };
  const total = count(votes);
  const users = count(owned.filter((r) => !isVoteRecord(r)));
  const taken = new Map<string, number>();
  return votes.filter((v) => {
    const p = pair(v);
    const n = (taken.get(p) ?? 0) + 1;
    taken.set(p, n);
    return n + (users.get(p) ?? 0) <= total.get(p)!;
  });
}

/** The collections an entry owns records in (those `remove` clears): its parts' and its forum. */
function ownedCollections(kind: MediaKind): CollectionName[] {
  const all = new Set<CollectionName>(Object.values(PART_COLLECTIONS[kind]).flat());
  all.delete(kind);
  // News are about several entries, and kept with the others.
  all.delete('news');
  if (kind === 'anime') all.add('forum');
  return [...all];
}

/** The key of an entry's one record in a collection keyed by its owner (`themes`: `20`; `pictures`: `anime:20`). */
function singletonKey(c: CollectionName, kind: MediaKind, id: number): string {
  const key = COLLECTIONS[c].key;
  return key.length === 1 ? String(id) : `${kind}:${id}`;
}
