/**
 * The anime and manga methods (`catalogue/entries.ts`) answer byte for byte the same over the
 * indexed memory store and over the plain reference record store (also written in reverse order):
 * every method, over a battery of arguments (every demo id and unknown ones, each SFW mode, several
 * pages, many search filters and orders, id-list queries). Until the seam replaced it, the oracle
 * was the old endpoint-shaped memory store, which these answers matched call for call.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../demo-data/src/index.js';
import { catalogueOver } from '../src/catalogue/index.js';
import { createMemoryStore } from '../src/seam/memory-store.js';
import { loadCatalogue } from '../src/seam/load.js';
import { createRecordStore } from '../src/seam/record-store.js';
import type { SfwMode } from '../src/seam/sfw.js';
import type { AnimeOrderBy, AnimeSearch, Approval, CatalogueData, Catalogue, EntryReviewQuery, IdsQuery, MangaOrderBy, MangaSearch, Paging } from '../src/catalogue/store.js';

const SFW: SfwMode[] = ['off', 'normal', 'strict'];
const APPROVAL: Approval[] = ['approved', 'all', 'unapproved'];
const PAGES: Paging[] = [
  { page: 1, limit: 25 },
  { page: 2, limit: 3 },
  { page: 1, limit: 1 },
  { page: 40, limit: 25 },
];
const UNKNOWN_IDS = [0, -1, 2, 999_999_999];
const animeIds = [...demoData.anime.map((a) => a.mal_id), ...UNKNOWN_IDS];
const mangaIds = [...(demoData.manga ?? []).map((m) => m.mal_id), ...UNKNOWN_IDS, 20];

/**
 * The collections whose lists the memory store orders by their own fields: written to the second
 * record store in reverse, so that an answer relying on the stored order instead of an explicit
 * `orderBy` (ties by `mal_id` included) shows up.
 */
const REORDERED = ['anime', 'manga', 'episodes', 'forum', 'news', 'articles', 'stacks', 'reviews', 'recommendations', 'updates', 'deletedAnimeIds', 'deletedMangaIds'] as const;
const reversed: CatalogueData = { ...demoData, ...Object.fromEntries(REORDERED.map((c) => [c, [...(demoData[c] ?? [])].reverse()])) };

let stores: [name: string, store: Catalogue][];
const memory = catalogueOver(createMemoryStore(demoData));
beforeAll(async () => {
  stores = [
    ['over records', catalogueOver(await loadCatalogue(createRecordStore(), demoData))],
    ['over records written in reverse', catalogueOver(await loadCatalogue(createRecordStore(), reversed))],
  ];
});

/** Calls a method on both stores with each argument list; the mismatching calls (at most 5). */
async function differences<K extends keyof Catalogue>(method: K, calls: ReadonlyArray<Parameters<Catalogue[K]>>): Promise<string[]> {
  const out: string[] = [];
  for (const args of calls) {
    const call = (s: Catalogue) => (s[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    const want = JSON.stringify(await call(memory));
    for (const [name, store] of stores) {
      const got = JSON.stringify(await call(store));
      if (got === want) continue;
      let at = 0;
      while (got?.[at] === want?.[at]) at++;
      const around = (s: string | undefined) => s?.slice(Math.max(0, at - 80), at + 120);
      out.push(`${method}(${JSON.stringify(args)}) ${name}, from character ${at}:\n  got:  ${around(got)}\n  want: ${around(want)}`);
    }
    if (out.length >= 5) break;
  }
  return out;
}

/** A small seeded pseudo-random generator (mulberry32), so the battery is the same on every run. */
function seeded(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const some = <T>(list: readonly T[], max: number): T[] => [...new Set(Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(list)))];
  return { next, pick, some, chance: (p: number) => next() < p };
}

const QUERIES = [undefined, 'naruto', 'one', 'sword art', 'a', 'frieren', 'xyzzy', 'kimi no', 'gintama', 'shingeki no kyojin', 'dragon ball', 'narto', 'Monster', 'high school', 'no'];
const LETTERS = [undefined, 's', 'S', 'k', '[', '5', 'z'];
const PERIODS = [
  { first: '2010-01-01', last: '2010-12-31' },
  { first: '2006-04-01', last: '2006-04-30' },
  { first: '1990-01-01', last: '1999-12-31' },
  { first: '2026-01-01', last: '2026-12-31' },
];
const SCORES = [6.5, 7, 7.5, 8, 8.5, 9];
const tagsOf = (e: { genres: { mal_id: number }[]; themes: { mal_id: number }[]; explicit_genres: { mal_id: number }[]; demographics: { mal_id: number }[] }) =>
  [...e.genres, ...e.themes, ...e.explicit_genres, ...e.demographics].map((t) => t.mal_id);
const ANIME_TAGS = [...new Set(demoData.anime.flatMap(tagsOf))];
const MANGA_TAGS = [...new Set((demoData.manga ?? []).flatMap(tagsOf))];
const PRODUCERS = [...new Set(demoData.anime.flatMap((a) => [...a.producers, ...a.studios, ...a.licensors].map((p) => p.mal_id))), 999_999];
const MAGAZINES = [...new Set((demoData.manga ?? []).flatMap((m) => m.serializations.map((s) => s.mal_id))), 999_999];
const ANIME_ORDERS: (AnimeOrderBy | undefined)[] = [undefined, 'mal_id', 'title', 'start_date', 'end_date', 'episodes', 'score', 'scored_by', 'rank', 'popularity', 'members', 'favorites'];
const MANGA_ORDERS: (MangaOrderBy | undefined)[] = [undefined, 'mal_id', 'title', 'start_date', 'end_date', 'chapters', 'volumes', 'score', 'scored_by', 'rank', 'popularity', 'members', 'favorites'];
const labels = <K extends 'type' | 'status'>(list: readonly ({ [k in K]: string | null })[], k: K) =>
  [...new Set(list.map((e) => e[k]).filter((x): x is string => x !== null))];

/** The searches of the battery: every plain browse, then seeded random filter combinations. */
function searches<S extends AnimeSearch | MangaSearch>(kind: 'anime' | 'manga', count: number): S[] {
  const out: S[] = [];
  const orders = kind === 'anime' ? ANIME_ORDERS : MANGA_ORDERS;
  for (const sfw of SFW) {
    for (const approval of APPROVAL) {
      for (const orderBy of orders) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const p of [PAGES[0]!, PAGES[1]!, { page: 4, limit: 50 }]) out.push({ ...p, sfw, approval, orderBy, sort } as S);
        }
      }
    }
  }
  for (const q of QUERIES) for (const orderBy of orders) out.push({ q, orderBy, sort: 'desc', page: 1, limit: 25, sfw: 'off', approval: 'all' } as S);
  const r = seeded(kind === 'anime' ? 20 : 11);
  const list = kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
  const types = [...labels(list as { type: string | null; status: string }[], 'type'), 'Nope'];
  const statuses = labels(list as { type: string | null; status: string }[], 'status');
  const tags = kind === 'anime' ? ANIME_TAGS : MANGA_TAGS;
  for (let i = 0; i < count; i++) {
    const s: Record<string, unknown> = {
      q: r.chance(0.4) ? r.pick(QUERIES) : undefined,
      page: r.pick([1, 1, 1, 2, 3]),
      limit: r.pick([1, 5, 25, 50]),
      sfw: r.pick(SFW),
      approval: r.pick(APPROVAL),
      orderBy: r.chance(0.5) ? r.pick(orders) : undefined,
      sort: r.pick(['asc', 'desc']),
    };
    if (r.chance(0.2)) s['types'] = r.some(types, 3);
    if (r.chance(0.15)) s['status'] = r.pick(statuses);
    if (kind === 'anime' && r.chance(0.15)) s['ratings'] = r.some(['G - All Ages', 'PG - Children', 'PG-13 - Teens 13 or older', 'R - 17+ (violence & profanity)', 'R+ - Mild Nudity', 'Rx - Hentai'], 3);
    if (r.chance(0.05)) s['score'] = r.pick([...SCORES, (list[0] as { score: number | null }).score ?? 8]);
    if (r.chance(0.15)) s['minScore'] = r.pick(SCORES);
    if (r.chance(0.15)) s['maxScore'] = r.pick(SCORES);
    if (r.chance(0.2)) s['genres'] = r.some(tags, 2);
    if (r.chance(0.15)) s['genresExclude'] = r.some(tags, 3);
    if (r.chance(0.15)) s[kind === 'anime' ? 'producers' : 'magazines'] = r.some(kind === 'anime' ? PRODUCERS : MAGAZINES, 3);
    if (r.chance(0.15)) s['letter'] = r.pick(LETTERS);
    if (r.chance(0.15)) s['startDate'] = r.pick(PERIODS);
    if (r.chance(0.15)) s['endDate'] = r.pick(PERIODS);
    out.push(s as unknown as S);
  }
  return out;
}

/** The id-list queries of the battery. */
function idsQueries(kind: 'anime' | 'manga'): IdsQuery[] {
  const list = kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
  const types = labels(list as { type: string | null; status: string }[], 'type');
  const statuses = labels(list as { type: string | null; status: string }[], 'status');
  const instants = [undefined, 0, -1, Date.parse('2025-06-01T00:00:00Z'), Date.parse('2025-01-10T10:35:07+00:00'), Date.parse('2100-01-01T00:00:00Z')];
  const includes = [undefined, [], ['title'], ['title', 'score', 'type'], ['nope'], ['mal_id', 'url']];
  const out: IdsQuery[] = [];
  for (const sfw of SFW) {
    for (const updatedSince of instants) for (const include of includes) out.push({ sfw, updatedSince, include });
    for (const t of types) out.push({ sfw, types: [t] });
    out.push({ sfw, types: types.slice(0, 2), status: statuses[0] });
    for (const status of statuses) out.push({ sfw, status, include: ['status'] });
    out.push({ sfw, ratings: ['PG-13 - Teens 13 or older', 'R+ - Mild Nudity'] }, { sfw, ratings: ['G - All Ages'], types: ['TV'], updatedSince: instants[3] });
  }
  return out;
}

const REVIEW_QUERIES: EntryReviewQuery[] = (['mostVoted', 'newest', 'oldest'] as const).flatMap((sort) =>
  [true, false].flatMap((preliminary) =>
    [true, false].flatMap((spoilers) => [PAGES[0]!, PAGES[1]!].map((p) => ({ ...p, sort, preliminary, spoilers }))),
  ),
);

const perId = (ids: readonly number[]) => ids.map((id) => [id] as [number]);
const perIdSfw = (ids: readonly number[]) => ids.flatMap((id) => SFW.map((sfw) => [id, sfw] as [number, SfwMode]));
const perIdPage = (ids: readonly number[]) => ids.flatMap((id) => PAGES.map((p) => [id, p] as [number, Paging]));
const perIdPageSfw = (ids: readonly number[]) => ids.flatMap((id) => PAGES.flatMap((p) => SFW.map((sfw) => [id, p, sfw] as [number, Paging, SfwMode])));
const perIdReview = (ids: readonly number[]) => ids.flatMap((id) => REVIEW_QUERIES.map((q) => [id, q] as [number, EntryReviewQuery]));
const episodeCalls = animeIds.flatMap((id) => [
  ...(demoData.episodes ?? []).filter((e) => e.anime_id === id).map((e) => [id, e.mal_id] as [number, number]),
  [id, 0] as [number, number],
  [id, 100_000] as [number, number],
]);

/**
 * The battery of the methods both kinds have (`EntryParts`), for the ids of one kind.
 * @param ids - The kind's ids, with unknown ones.
 */
const partsBattery = (ids: number[]) => {
  // The parts by the arguments they take (as the entry rows group them).
  const byArguments: Array<[readonly string[], (ids: number[]) => unknown[]]> = [
    [['', 'Characters', 'Pictures', 'Statistics', 'Moreinfo', 'External'], perId],
    [['Full', 'Relations', 'Recommendations'], perIdSfw],
    [['News'], perIdPageSfw],
    [['Reviews'], perIdReview],
    [['Stacks', 'Articles'], perIdPage],
  ];
  return Object.fromEntries(byArguments.flatMap(([parts, battery]) => parts.map((part) => [part, () => battery(ids)])));
};
const named = (kind: string, battery: Record<string, unknown>) => Object.fromEntries(Object.entries(battery).map(([s, calls]) => [`get${kind}${s}`, calls]));

/** Every method of the anime and manga sections, with its battery. */
const BATTERY: { [K in keyof Catalogue]?: () => ReadonlyArray<Parameters<Catalogue[K]>> } = {
  ...named('Anime', partsBattery(animeIds)),
  ...named('Manga', partsBattery(mangaIds)),
  searchAnime: () => searches<AnimeSearch>('anime', 2500).map((s) => [s]),
  searchManga: () => searches<MangaSearch>('manga', 2500).map((s) => [s]),
  getDeletedAnimeIds: () => [[]],
  getDeletedMangaIds: () => [[]],
  listAnimeIds: () => idsQueries('anime').map((q) => [q]),
  listMangaIds: () => idsQueries('manga').map((q) => [q]),
  getAnimeVideos: () => perId(animeIds),
  getAnimeVideoEpisodes: () => perIdPage(animeIds),
  getAnimeStaff: () => perId(animeIds),
  getAnimeEpisodes: () => [...perIdPage(animeIds), ...animeIds.map((id) => [id, { page: 1, limit: 100 }] as [number, Paging])],
  getAnimeEpisode: () => episodeCalls,
  getAnimeForum: () => perId(animeIds),
  getAnimeThemes: () => perId(animeIds),
  getAnimeStreaming: () => perId(animeIds),
};

describe('anime and manga over the record seam answer as the memory store', () => {
  it('covers all 40 methods of the anime and manga sections', () => {
    expect(Object.keys(BATTERY)).toHaveLength(40);
  });
  for (const [method, calls] of Object.entries(BATTERY) as [keyof Catalogue, () => never[]][]) {
    it(method, { timeout: 120_000 }, async () => {
      const list = calls();
      expect(list.length).toBeGreaterThan(0);
      expect(await differences(method, list)).toEqual([]);
    });
  }
});
