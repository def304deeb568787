/**
 * Searching and listing anime and manga over the seam, once for both kinds: the filters of
 * `/v1/anime` and `/v1/manga` as seam conditions, their orderings, and the id lists.
 * @module
 */
import type { Anime } from '../schemas/anime.js';
import type { Manga } from '../schemas/manga.js';
import type { AnimeSearch, IdsQuery, IdsResult, MangaSearch, Page } from './queries.js';
import type { Condition, OrderKey, CatalogueStore, PluckQuery, RecordQuery } from '../seam/types.js';
import { freezeDeep } from '../internal/freeze.js';
import { approvalWhere, type KindSpec } from './kinds.js';
import { ALL, sfwWhere, slice } from './shared.js';
import { holdsImagePath, parseStoredRecord } from '../seam/record-json.js';

/** An anime or manga search. */
export type MediaSearch = AnimeSearch | MangaSearch;

const BY_ID: OrderKey = { field: 'mal_id', dir: 'asc' };

/**
 * The conditions of a search, everything except `q` (docs/specification.md: Jikan filters):
 * approval, SFW, type, status, rating, score bounds, genres (all of / none of), companies (any of),
 * the title's first letter, and the start and end date bounds.
 * @param spec - The kind.
 * @param s - The validated search.
 */
export function searchWhere(spec: KindSpec, s: MediaSearch): Condition[] {
  const where: Condition[] = approvalWhere(s.approval);
  where.push(...sfwWhere(s.sfw));
  if (s.type) where.push({ field: 'type', op: 'in', values: s.type });
  if (s.status) where.push({ field: 'status', op: 'eq', value: s.status });
  const ratings = 'rating' in s ? s.rating : undefined;
  if (ratings) where.push({ field: 'rating', op: 'in', values: ratings });
  if (s.score !== undefined) where.push({ field: 'score', op: 'eq', value: s.score });
  if (s.min_score !== undefined) where.push({ field: 'score', op: 'gte', value: s.min_score });
  if (s.max_score !== undefined) where.push({ field: 'score', op: 'lte', value: s.max_score });
  if (s.genres) where.push({ field: 'tags', op: 'hasAll', values: s.genres });
  if (s.genres_exclude) where.push({ field: 'tags', op: 'hasNone', values: s.genres_exclude });
  const companies = (s as Partial<Record<KindSpec['companyParam'], number[]>>)[spec.companyParam];
  if (companies) where.push({ field: spec.companies, op: 'hasAny', values: companies });
  const letter = s.letter?.toLowerCase();
  if (letter) where.push({ field: 'title_key', op: 'prefix', value: letter });
  if (s.start_date) where.push({ field: 'start_day', op: 'gte', value: s.start_date.first });
  if (s.end_date) where.push({ field: 'end_day', op: 'lte', value: s.end_date.last });
  return where;
}

/**
 * The order of a search: by `order_by` and `sort` (nulls last, ties by `mal_id` ascending); else
 * relevance with `q` (none here: the store's ranking); else `mal_id` ascending.
 * @param spec - The kind.
 * @param s - The validated search.
 */
export function searchOrder(spec: KindSpec, s: MediaSearch): OrderKey[] | undefined {
  if (s.order_by) return [{ field: spec.orderBy[s.order_by]!, dir: s.sort }, BY_ID];
  return s.q === undefined ? [BY_ID] : undefined;
}

/**
 * One page of a search.
 * @param records - The store.
 * @param spec - The kind.
 * @param s - The validated search.
 */
export async function searchEntries(records: CatalogueStore, spec: KindSpec, s: MediaSearch): Promise<Page<Anime | Manga>> {
  return records.query(spec.kind, recordQueryOf(spec, s));
}

/** The store queries of frozen searches (the pipeline hands out parsed queries frozen and shared; see `readQuery`), by kind. */
const recordQueries = { anime: new WeakMap<MediaSearch, RecordQuery>(), manga: new WeakMap<MediaSearch, RecordQuery>() };

/**
 * A search's store query. A frozen search is never changed, so its query is made once, frozen
 * too, and the same object is handed to the store every time: a store may then know it again by
 * its identity (the memory store's memory of matches does).
 */
function recordQueryOf(spec: KindSpec, s: MediaSearch): RecordQuery {
  const frozen = Object.isFrozen(s);
  const known = frozen ? recordQueries[spec.kind].get(s) : undefined;
  if (known !== undefined) return known;
  const query: RecordQuery = { where: searchWhere(spec, s), search: s.q, orderBy: searchOrder(spec, s), ...slice(s) };
  if (frozen) recordQueries[spec.kind].set(s, freezeDeep(query));
  return query;
}

/**
 * The condition of `updated_at` on an id list: entries updated at or after the instant, an entry
 * without an update record counting as updated at 0 (the epoch).
 * @param records - The store.
 * @param spec - The kind.
 * @param since - Milliseconds since the epoch.
 */
async function updatedSinceWhere(records: CatalogueStore, spec: KindSpec, since: number): Promise<Condition> {
  // Past the epoch only entries with a late enough update record pass; at or before it, every entry
  // passes except those whose update record is older.
  const later = since > 0;
  const where: Condition[] = [
    { field: 'type', op: 'eq', value: spec.kind },
    { field: 'updated_at', op: later ? 'gte' : 'lt', value: since },
  ];
  const updated = (await records.pluck('updates', 'mal_id', { where, ...ALL })) as number[];
  return { field: 'mal_id', op: later ? 'in' : 'notIn', values: updated };
}

/** The question behind an id list: its filters, every match, by id. */
async function idsPluck(records: CatalogueStore, spec: KindSpec, q: IdsQuery): Promise<PluckQuery> {
  const where: Condition[] = [];
  if (q.type) where.push({ field: 'type', op: 'in', values: q.type });
  if (q.status) where.push({ field: 'status', op: 'eq', value: q.status });
  if (q.rating) where.push({ field: 'rating', op: 'in', values: q.rating });
  where.push(...sfwWhere(q.sfw));
  if (q.updated_at !== undefined) where.push(await updatedSinceWhere(records, spec, q.updated_at));
  return { where, orderBy: [BY_ID], ...ALL };
}

/**
 * Every matching id, ascending, with the chosen fields (`/v1/anime/ids`, `/v1/manga/ids`).
 * @param records - The store.
 * @param spec - The kind.
 * @param q - The validated query.
 */
export async function listIds(records: CatalogueStore, spec: KindSpec, q: IdsQuery): Promise<IdsResult> {
  const query = await idsPluck(records, spec, q);
  const include = q.include;
  const data = include
    ? ((await records.query(spec.kind, { ...query, select: ['mal_id', ...include] })).data as unknown as IdsResult['data'])
    : ((await records.pluck(spec.kind, 'mal_id', query)) as number[]);
  return { total: data.length, data };
}

const encoder = new TextEncoder();

/**
 * An id list as `listIds` would give it, from the store's own JSON array (`pluckJson` for bare ids,
 * `selectJson` with `include`): the answer's JSON text, written without reading the array; or,
 * when the array holds an image path (`"/s/…`, resolved per host as the answer is written), the
 * answer itself, its array parsed once. `undefined` when the store writes no such array.
 * @param records - The store.
 * @param spec - The kind.
 * @param q - The validated query.
 */
export async function listIdsJson(records: CatalogueStore, spec: KindSpec, q: IdsQuery): Promise<Uint8Array | IdsResult | undefined> {
  const include = q.include;
  if (include ? !records.selectJson : !records.pluckJson) return undefined;
  const query = await idsPluck(records, spec, q);
  const written = include ? await records.selectJson!(spec.kind, ['mal_id', ...include], query) : await records.pluckJson!(spec.kind, 'mal_id', query);
  if (written === undefined) return undefined;
  const { count, json } = written;
  if (include && holdsImagePath(json)) return { total: count, data: parseStoredRecord(json) as IdsResult['data'] };
  // {"total":N,"data":[…]}: the keys in the order of `IdsResult`, as JSON.stringify writes them.
  const head = encoder.encode(`{"total":${count},"data":`);
  const body = new Uint8Array(head.length + json.length + 1);
  body.set(head);
  body.set(json, head.length);
  body[body.length - 1] = 0x7d; // }
  return body;
}

/**
 * The deleted ids of a kind, ascending.
 * @param records - The store.
 * @param spec - The kind.
 */
export async function deletedIds(records: CatalogueStore, spec: KindSpec): Promise<number[]> {
  return (await records.query(spec.deleted, { orderBy: [BY_ID], ...ALL })).data;
}
