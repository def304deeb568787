/**
 * What the fake upstream (`fake-upstream.ts`) answers, before failures: an entry or one of its
 * parts, a listing's page, and this library's id lists, from the records the test holds.
 * @module
 */
import type { EntryPart, MediaKind } from '@catalogue-api/core/upstream';
import type { FakeRecord, FakeUpstreamOptions } from './fake-upstream-types.js';

/** Jikan serves 25 entries a page. */
const PAGE_SIZE = 25;

/** The parts answered as an object rather than a list, with an empty default. */
const OBJECT_PARTS: Partial<Record<EntryPart, unknown>> = {
  statistics: { watching: 0, reading: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0, plan_to_read: 0, total: 0, scores: [] },
  moreinfo: { moreinfo: null },
  themes: { openings: [], endings: [] },
  videos: { promo: [], episodes: [], music_videos: [] },
};

const PARTS: ReadonlySet<string> = new Set<EntryPart>([
  'full', 'characters', 'staff', 'episodes', 'pictures', 'statistics', 'moreinfo', 'recommendations', 'videos', 'news', 'reviews', 'relations', 'themes', 'external', 'streaming',
]);

/** Jikan's `status` filter values and the labels they select. */
const STATUS: Record<MediaKind, Record<string, string>> = {
  anime: { airing: 'Currently Airing', complete: 'Finished Airing', upcoming: 'Not yet aired' },
  manga: { publishing: 'Publishing', complete: 'Finished', hiatus: 'On Hiatus', discontinued: 'Discontinued', upcoming: 'Not yet published' },
};

/** An entry the fake holds. */
export interface Entry {
  record: FakeRecord;
  parts: Map<EntryPart, unknown>;
  hidden: boolean;
  /** When the fake last changed it (its clock). */
  updatedAt: number;
  /** Added while the fake ran: listed first where new entries show first, left out of the current season and schedules. */
  addedAt?: number;
}

/** What the fake serves: its entries, the ids it deleted, and the options it was started with. */
export interface FakeCatalogue {
  readonly entries: Record<MediaKind, Map<number, Entry>>;
  readonly deleted: Record<MediaKind, Set<number>>;
  readonly options: FakeUpstreamOptions;
  readonly clock: () => number;
}

/** A status and a body (not yet JSON). */
export interface Answer {
  status: number;
  body: unknown;
}

type Listing = { kind: MediaKind; items: Entry[] };

const seasonOf = (time: number): { year: number; season: string } => {
  const date = new Date(time);
  return { year: date.getUTCFullYear(), season: ['winter', 'spring', 'summer', 'fall'][Math.floor(date.getUTCMonth() / 3)]! };
};

const num = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/**
 * A Jikan-shaped error body.
 * @param status - The HTTP status.
 * @param type - Jikan's exception type.
 * @param message - What went wrong.
 * @returns The body.
 */
export const errorBody = (status: number, type: string, message: string) => ({ status, type, message, error: null });

const listed = (cat: FakeCatalogue, kind: MediaKind) => [...cat.entries[kind].values()].filter((e) => !e.hidden && e.record.approved !== false);
const newFirst = (a: Entry, b: Entry) => (b.addedAt ?? -Infinity) - (a.addedAt ?? -Infinity);
const byMembers = (a: Entry, b: Entry) => num(b.record.members, 0) - num(a.record.members, 0) || a.record.mal_id - b.record.mal_id;

/** `/anime` or `/manga`: filtered by `status`, ordered by `order_by` and `sort`; `undefined` for an unknown status. */
function searchListing(cat: FakeCatalogue, kind: MediaKind, query: URLSearchParams): Listing | undefined {
  const status = query.get('status');
  let items = listed(cat, kind);
  if (status !== null) {
    const label = STATUS[kind][status.toLowerCase()];
    if (label === undefined) return undefined;
    items = items.filter((e) => e.record.status === label);
  }
  const orderBy = query.get('order_by') ?? 'mal_id';
  const sign = query.get('sort') === 'desc' ? -1 : 1;
  items.sort((a, b) => {
    const x = a.record[orderBy];
    const y = b.record[orderBy];
    if (typeof x !== 'number' || typeof y !== 'number') return (typeof x === 'number' ? -1 : typeof y === 'number' ? 1 : 0) || a.record.mal_id - b.record.mal_id;
    return sign * (x - y) || a.record.mal_id - b.record.mal_id;
  });
  return { kind, items };
}

/** `/top/{kind}`: by rank, or the upcoming ones newest first. */
function topListing(cat: FakeCatalogue, kind: MediaKind, query: URLSearchParams): Listing {
  // Top lists have no approval filter on Jikan; hidden entries stay out all the same.
  let items = [...cat.entries[kind].values()].filter((e) => !e.hidden);
  if (query.get('filter') === 'upcoming') {
    items = items.filter((e) => e.record.status === STATUS[kind].upcoming);
    return { kind, items: items.sort((a, b) => newFirst(a, b) || byMembers(a, b)) };
  }
  items = items.filter((e) => typeof e.record.rank === 'number');
  return { kind, items: items.sort((a, b) => num(a.record.rank, 0) - num(b.record.rank, 0) || a.record.mal_id - b.record.mal_id) };
}

/** `/seasons/now`, `/seasons/upcoming` and `/schedules` (anime); `undefined` for any other path. */
function seasonListing(cat: FakeCatalogue, path: string): Listing | undefined {
  if (path === '/seasons/now') {
    const { year, season } = cat.options.season ?? seasonOf(cat.clock());
    return { kind: 'anime', items: listed(cat, 'anime').filter((e) => e.addedAt === undefined && e.record.year === year && e.record.season === season).sort(byMembers) };
  }
  if (path === '/seasons/upcoming') return { kind: 'anime', items: listed(cat, 'anime').filter((e) => e.record.status === 'Not yet aired').sort((a, b) => newFirst(a, b) || byMembers(a, b)) };
  if (path === '/schedules') return { kind: 'anime', items: listed(cat, 'anime').filter((e) => e.addedAt === undefined && e.record.status === 'Currently Airing').sort(byMembers) };
  return undefined;
}

/** The entries of a listing, in order, or `undefined` for an unknown listing. */
function listing(cat: FakeCatalogue, path: string, query: URLSearchParams): Listing | undefined {
  if (path === '/anime' || path === '/manga') return searchListing(cat, path.slice(1) as MediaKind, query);
  if (path === '/top/anime' || path === '/top/manga') return topListing(cat, path.slice(5) as MediaKind, query);
  return seasonListing(cat, path);
}

/** The body of one part of an entry (`{ data: … }`). */
async function partBody(cat: FakeCatalogue, kind: MediaKind, entry: Entry, part: EntryPart): Promise<unknown> {
  const set = entry.parts.get(part);
  if (set !== undefined) return set;
  const id = entry.record.mal_id;
  let backed: { data?: unknown } | undefined;
  if (cat.options.backing) {
    const response = await cat.options.backing.fetch(new Request(`http://backing.invalid/v1/${kind}/${id}/${part}`));
    if (response.ok) backed = (await response.json()) as { data?: unknown };
  }
  if (part === 'full') {
    const parts = kind === 'anime' ? { relations: [], theme: { openings: [], endings: [] }, external: [], streaming: [] } : { relations: [], external: [] };
    return { data: { ...parts, ...((backed?.data as object | undefined) ?? {}), ...entry.record } };
  }
  return backed ?? { data: OBJECT_PARTS[part] ?? [] };
}

/** `/{kind}/{id}` and `/{kind}/{id}/{part}`. */
async function entryAnswer(cat: FakeCatalogue, kind: MediaKind, id: number, part: string | undefined): Promise<Answer> {
  if (part !== undefined && !PARTS.has(part)) return { status: 404, body: errorBody(404, 'HttpException', 'Not Found') };
  const entry = cat.entries[kind].get(id);
  if (!entry) return { status: 404, body: errorBody(404, 'BadResponseException', 'Resource does not exist') };
  return { status: 200, body: part === undefined ? { data: entry.record } : await partBody(cat, kind, entry, part as EntryPart) };
}

/** This library's `/{kind}/deleted` and `/{kind}/ids?updated_at=`. */
function idsAnswer(cat: FakeCatalogue, kind: MediaKind, which: string, query: URLSearchParams): Answer {
  if (which === 'deleted') {
    const data = [...cat.deleted[kind]].sort((a, b) => a - b);
    return { status: 200, body: { total: data.length, data } };
  }
  const since = query.get('updated_at');
  const at = since === null ? -Infinity : /^\d+$/.test(since) ? Number(since) * 1000 : Date.parse(since);
  if (Number.isNaN(at)) return { status: 400, body: { ...errorBody(400, 'ValidationException', 'updated_at is not a date') } };
  const data = [...cat.entries[kind].values()].filter((e) => e.updatedAt >= at).map((e) => e.record.mal_id).sort((a, b) => a - b);
  return { status: 200, body: { total: data.length, data } };
}

/** One page (`page`, from 1) of a listing, with Jikan's pagination. */
function pageAnswer(found: Listing, query: URLSearchParams): Answer {
  const pageText = query.get('page') ?? '1';
  if (!/^[1-9]\d*$/.test(pageText)) return { status: 400, body: errorBody(400, 'ValidationException', 'page must be at least 1') };
  const page = Number(pageText);
  const total = found.items.length;
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const data = found.items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((e) => e.record);
  return {
    status: 200,
    body: { pagination: { last_visible_page: last, has_next_page: page < last, current_page: page, items: { count: data.length, total, per_page: PAGE_SIZE } }, data },
  };
}

/**
 * The status and body of one request, before failures.
 * @param cat - What the fake serves.
 * @param path - The path after the base, without its query.
 * @param query - The query.
 * @returns The answer (a Jikan-shaped 404 for an unknown path).
 */
export async function answer(cat: FakeCatalogue, path: string, query: URLSearchParams): Promise<Answer> {
  const entryMatch = /^\/(anime|manga)\/(\d+)(?:\/([a-z]+))?$/.exec(path);
  if (entryMatch) return entryAnswer(cat, entryMatch[1] as MediaKind, Number(entryMatch[2]), entryMatch[3]);
  if (cat.options.thisLibrary) {
    const ids = /^\/(anime|manga)\/(ids|deleted)$/.exec(path);
    if (ids) return idsAnswer(cat, ids[1] as MediaKind, ids[2]!, query);
  }
  const found = listing(cat, path, query);
  if (!found) return { status: 404, body: errorBody(404, 'HttpException', 'Not Found') };
  return pageAnswer(found, query);
}
