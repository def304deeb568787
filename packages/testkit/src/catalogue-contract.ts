/**
 * The catalogue contract: one vitest suite that every catalogue store must pass on the demo
 * dataset (the memory store in core, PostgreSQL in `@catalogue-api/store-postgres`, and any
 * third-party store). It reads the store only as a Jikan client does, through the HTTP API of the
 * catalogue app over it ({@link answersOf}): lookups and 404 for unknown ids, every filter,
 * ordering and SFW rule, paging totals, and search-ranking properties that do not depend on the
 * fuzzy scorer (an exact title is the top hit; exact and prefix matches come first).
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import { ANIME_TYPES, MANGA_TYPES, normalizeTitle, sfwClass, type CatalogueStore } from '@catalogue-api/core/store';
import { demoData, demoSfwTargets } from '@catalogue-api/demo-data';
import { answersOf, type Answer } from './answers.js';

/** Options of {@link defineCatalogueContract}. */
export interface CatalogueContractOptions {
  /** Called once after the suite, e.g. to close connections or drop a schema. */
  cleanup?: () => Promise<void> | void;
}

type Mode = 'off' | 'normal' | 'strict';
/** The suite's client: the store's answers by request target, and the number the next random pick draws. */
interface Api {
  get: ReturnType<typeof answersOf>;
  pick: number;
}
/** A request's query: `true` is a flag given bare, a list is comma-joined, `undefined` is left out. */
type Query = Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>;
type List<T> = { data: T[]; total: number };

const UNKNOWN = 999_999_999;
const MODES: Mode[] = ['off', 'normal', 'strict'];
const shown = (cls: number, mode: Mode) => mode === 'off' || cls === 0 || (cls === 1 && mode === 'normal');
/** The SFW flags of a mode: none (off), `sfw` (normal), `sfw` and `sfw-strict` (strict). */
const sfw = (mode: Mode): Query => (mode === 'off' ? {} : mode === 'normal' ? { sfw: true } : { sfw: true, 'sfw-strict': true });
/** `unapproved` given bare: approved and unapproved entries alike. */
const ALL: Query = { unapproved: true };
/** For a list whose route takes no `limit`: it is paged at the route's own page size. */
const OWN_PAGE_SIZE: Query = { limit: undefined };

/** Jikan's `type` values of each kind, by the label they stand for (core's vocabularies, inverted). */
const byLabel = (values: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(values).map(([value, label]) => [label, value]));
const TYPE_VALUES: Record<'anime' | 'manga', Readonly<Record<string, string>>> = { anime: byLabel(ANIME_TYPES), manga: byLabel(MANGA_TYPES) };

/** A request target: the path and its query. */
function target(path: string, query: Query = {}): string {
  const parts = Object.entries(query).flatMap(([key, value]) => {
    if (value === undefined) return [];
    if (value === true) return [encodeURIComponent(key)];
    const text = typeof value === 'object' ? value.map((v) => encodeURIComponent(String(v))).join(',') : encodeURIComponent(String(value));
    return [`${encodeURIComponent(key)}=${text}`];
  });
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

/** The 200 body of a request; a 404 fails the test. */
async function answer<T = any>(api: Api, path: string, query?: Query): Promise<Answer<T>> {
  const body = await api.get<T>(target(path, query));
  if (body === undefined) throw new Error(`${target(path, query)}: expected an answer, got 404`);
  return body;
}

/** The `data` of a request's 200 body. */
const dataOf = async <T = any>(api: Api, path: string, query?: Query): Promise<T> => (await answer<T>(api, path, query)).data;

/** One page of a list with the full pagination object, and its total. */
async function page<T = any>(api: Api, path: string, query?: Query): Promise<List<T>> {
  const { data, pagination } = await answer<T[]>(api, path, query);
  return { data, total: pagination!.items!.total };
}

/**
 * Every page of a list, 50 a page unless the query says otherwise, up to the page without a next
 * one. The total is the full pagination object's, or the number of records of a list with the
 * short one (which has no total).
 */
async function all<T = any>(api: Api, path: string, query: Query = {}): Promise<List<T>> {
  const data: T[] = [];
  for (let n = 1; n <= 1000; n++) {
    const { data: records, pagination } = await answer<T[]>(api, path, { limit: 50, ...query, page: n });
    data.push(...records);
    if (!pagination!.has_next_page) return { data, total: pagination!.items?.total ?? data.length };
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/** The answer of an id list: every id (or record of included fields) and their number. */
const idList = async (api: Api, path: string, query?: Query) => (await answer(api, path, query)) as unknown as { total: number; data: any[] };

/** Whether keys are in order: nulls last, otherwise ascending or descending. */
function ordered(keys: ReadonlyArray<string | number | null>, sort: 'asc' | 'desc'): boolean {
  for (let i = 1; i < keys.length; i++) {
    const x = keys[i - 1]!;
    const y = keys[i]!;
    if (x === null) {
      if (y !== null) return false;
      continue;
    }
    if (y === null) continue;
    if (sort === 'asc' ? x > y : x < y) return false;
  }
  return true;
}

const ids = (list: readonly { mal_id: number }[]) => list.map((e) => e.mal_id);
const byId = (a: number, b: number) => a - b;
const animeById = new Map(demoData.anime.map((a) => [a.mal_id, a]));
const mangaById = new Map((demoData.manga ?? []).map((m) => [m.mal_id, m]));
const classOf = (kind: 'anime' | 'manga', id: number) => sfwClass((kind === 'anime' ? animeById.get(id) : mangaById.get(id))!);
const tagIds = (e: Anime | Manga) => [...e.genres, ...e.explicit_genres, ...e.themes, ...e.demographics].map((r) => r.mal_id);
const T = demoSfwTargets as Record<string, number>;

/** The sub-resources of each per-record route (`''` is the record itself), for the 404 of an unknown id. */
const PER_RECORD: Readonly<Record<string, readonly string[]>> = {
  anime: ['', 'full', 'relations', 'recommendations', 'news', 'videos', 'videos/episodes', 'characters', 'staff', 'episodes', 'episodes/1', 'forum', 'stacks', 'articles', 'pictures', 'statistics', 'moreinfo', 'themes', 'external', 'streaming'],
  manga: ['', 'full', 'relations', 'recommendations', 'news', 'stacks', 'articles', 'characters', 'pictures', 'statistics', 'moreinfo', 'external'],
  characters: ['', 'full', 'anime', 'manga', 'voices', 'pictures', 'articles'],
  people: ['', 'full', 'anime', 'manga', 'voices', 'pictures', 'articles'],
  producers: ['', 'full', 'external'],
  news: [''],
  articles: [''],
  stacks: [''],
};

/** Lookups by id: the demo record, 404 for an unknown id, empty sub-lists. */
function lookupCases(api: Api): void {
  describe('lookups', () => {
    it('returns the demo record for a known id of every kind', async () => {
      expect(await dataOf(api, '/v1/anime/20')).toEqual(animeById.get(20));
      expect(await dataOf(api, '/v1/manga/11')).toEqual(mangaById.get(11));
      expect(await dataOf(api, '/v1/characters/17')).toEqual(demoData.characters!.find((c) => c.mal_id === 17));
      const person = demoData.people![0]!;
      expect(await dataOf(api, `/v1/people/${person.mal_id}`)).toEqual(person);
      const producer = demoData.producers![0]!;
      expect(await dataOf(api, `/v1/producers/${producer.mal_id}`)).toEqual(producer);
    });

    it('answers 404 for an unknown id on every per-record route', async () => {
      const paths = Object.entries(PER_RECORD).flatMap(([kind, subs]) => subs.map((sub) => `/v1/${kind}/${UNKNOWN}${sub ? `/${sub}` : ''}`));
      const answers = await Promise.all(paths.map((path) => api.get(path)));
      answers.forEach((a, i) => expect(a, paths[i]).toBeUndefined());
      expect(await api.get(`/v1/anime/20/episodes/${UNKNOWN}`)).toBeUndefined();
    });

    it('answers empty sub-lists, not 404, for a known entry without them', async () => {
      const bare = demoData.anime.find((a) => !demoData.animeCharacters!.some((c) => c.anime_id === a.mal_id))!;
      expect(await dataOf(api, `/v1/anime/${bare.mal_id}/characters`)).toEqual([]);
      expect(await answer(api, `/v1/anime/${bare.mal_id}/episodes`)).toEqual({ pagination: { last_visible_page: 1, has_next_page: false }, data: [] });
    });
  });
}

/** `GET /v1/anime`: paging, every filter, every order, search ranking. */
function animeSearchCases(api: Api): void {
  describe('anime search', () => {
    it('lists every anime by mal_id with paging totals', async () => {
      const { data, total } = await all<Anime>(api, '/v1/anime', ALL);
      expect(total).toBe(demoData.anime.length);
      expect(ids(data)).toEqual([...animeById.keys()].sort(byId));
      const page2 = await page<Anime>(api, '/v1/anime', { ...ALL, page: 2, limit: 10 });
      expect(ids(page2.data)).toEqual(ids(data).slice(10, 20));
      expect(await page(api, '/v1/anime', { ...ALL, page: 1000, limit: 50 })).toEqual({ data: [], total: demoData.anime.length });
    });

    const filters: Array<[string, Query, (a: Anime) => boolean]> = [
      ['types (several)', { type: ['movie', 'ova'] }, (a) => a.type === 'Movie' || a.type === 'OVA'],
      ['status', { status: 'airing' }, (a) => a.status === 'Currently Airing'],
      ['ratings (several)', { rating: ['g', 'rx'] }, (a) => a.rating === 'G - All Ages' || a.rating === 'Rx - Hentai'],
      ['sfw normal', sfw('normal'), (a) => shown(sfwClass(a), 'normal')],
      ['sfw strict', sfw('strict'), (a) => shown(sfwClass(a), 'strict')],
      ['approved only', { unapproved: 'false' }, (a) => a.approved],
      ['unapproved only', { unapproved: 'only' }, (a) => !a.approved],
      ['min and max score', { min_score: 7, max_score: 8 }, (a) => a.score !== null && a.score >= 7 && a.score <= 8],
      ['genres (all of)', { genres: [1, 2] }, (a) => [1, 2].every((g) => tagIds(a).includes(g))],
      ['genres_exclude', { genres_exclude: [1] }, (a) => !tagIds(a).includes(1)],
      ['letter', { letter: 'k' }, (a) => a.title.toLowerCase().startsWith('k')],
      ['start_date', { start_date: '2020' }, (a) => a.aired.from !== null && a.aired.from.slice(0, 10) >= '2020-01-01'],
      ['end_date', { end_date: '2000' }, (a) => a.aired.to !== null && a.aired.to.slice(0, 10) <= '2000-12-31'],
    ];
    it.each(filters)('filters by %s', async (_, filter, predicate) => {
      const { data, total } = await all<Anime>(api, '/v1/anime', { ...ALL, ...filter });
      const expected = demoData.anime.filter(predicate);
      expect(expected.length, 'the demo data has matches').toBeGreaterThan(0);
      expect(total).toBe(expected.length);
      expect(ids(data).sort(byId)).toEqual(ids(expected).sort(byId));
    });

    it('filters by producers (any of) and exact score', async () => {
      const producer = demoData.anime[0]!.studios[0]!.mal_id;
      const { data } = await all<Anime>(api, '/v1/anime', { ...ALL, producers: [producer] });
      const has = (a: Anime) => [...a.producers, ...a.studios, ...a.licensors].some((r) => r.mal_id === producer);
      expect(ids(data)).toEqual(ids(demoData.anime.filter(has)).sort(byId));
      const score = demoData.anime.find((a) => a.score !== null)!.score!;
      const exact = await all<Anime>(api, '/v1/anime', { ...ALL, score });
      expect(exact.data.every((a) => a.score === score) && exact.total > 0).toBe(true);
    });

    it.each(['score', 'members', 'start_date', 'title', 'episodes'] as const)('orders by %s both ways, nulls last, ties by mal_id', async (orderBy) => {
      for (const sort of ['asc', 'desc'] as const) {
        const { data } = await all<Anime>(api, '/v1/anime', { ...ALL, order_by: orderBy, sort });
        const key = (a: Anime): string | number | null =>
          orderBy === 'start_date' ? a.aired.from : orderBy === 'title' ? a.title.toLowerCase() : a[orderBy];
        expect(ordered(data.map(key), sort), `${orderBy} ${sort}`).toBe(true);
        for (let i = 1; i < data.length; i++) {
          if (key(data[i - 1]!) === key(data[i]!)) expect(data[i - 1]!.mal_id).toBeLessThan(data[i]!.mal_id);
        }
      }
    });

    it('ranks an exact title first and exact or prefix matches before the rest', async () => {
      const search = { ...ALL, limit: 50 };
      expect((await dataOf<Anime[]>(api, '/v1/anime', { ...search, q: 'Naruto' }))[0]!.mal_id).toBe(20);
      const hits = await dataOf<Anime[]>(api, '/v1/anime', { ...search, q: 'Love Hina' });
      const titles = (a: Anime) => [a.title, a.title_english ?? '', a.title_japanese ?? '', ...a.title_synonyms].map(normalizeTitle);
      const strong = hits.map((a) => titles(a).some((t) => t.startsWith('love hina')));
      expect(strong[0]).toBe(true);
      expect(strong.indexOf(false) === -1 || !strong.slice(strong.indexOf(false)).includes(true)).toBe(true);
      const { total } = await page(api, '/v1/anime', { ...search, q: 'Naruto', ...sfw('normal') });
      expect(total).toBeGreaterThan(0);
    });
  });
}

/** `GET /v1/manga`, the searches of named records, and the genre lists. */
function otherSearchCases(api: Api): void {
  describe('manga, characters, people, producers, magazines, genres', () => {
    it('lists manga with filters and SFW', async () => {
      const every = await all<Manga>(api, '/v1/manga', ALL);
      expect(every.total).toBe(demoData.manga!.length);
      const cases: Array<[Query, (m: Manga) => boolean]> = [
        [{ type: ['lightnovel', 'novel'] }, (m) => m.type === 'Light Novel' || m.type === 'Novel'],
        [{ status: 'publishing' }, (m) => m.status === 'Publishing'],
        [sfw('normal'), (m) => shown(sfwClass(m), 'normal')],
        [sfw('strict'), (m) => shown(sfwClass(m), 'strict')],
        [{ magazines: [83] }, (m) => m.serializations.some((s) => s.mal_id === 83)],
        [{ letter: 'n' }, (m) => m.title.toLowerCase().startsWith('n')],
      ];
      for (const [filter, predicate] of cases) {
        const { data, total } = await all<Manga>(api, '/v1/manga', { ...ALL, ...filter });
        expect(total, JSON.stringify(filter)).toBe(demoData.manga!.filter(predicate).length);
        expect(data.every(predicate)).toBe(true);
      }
      expect((await dataOf<Manga[]>(api, '/v1/manga', { ...ALL, limit: 50, q: 'Monster' }))[0]!.mal_id).toBe(1);
      const byScore = await all<Manga>(api, '/v1/manga', { ...ALL, order_by: 'score', sort: 'desc' });
      expect(ordered(byScore.data.map((m) => m.score), 'desc')).toBe(true);
    });

    it('searches characters, people, producers and magazines', async () => {
      expect((await dataOf(api, '/v1/characters', { q: 'Sasuke Uchiha' }))[0].mal_id).toBe(13);
      const favs = await page(api, '/v1/characters', { order_by: 'favorites', sort: 'desc' });
      expect(ordered(favs.data.map((c) => c.favorites), 'desc')).toBe(true);
      expect(favs.total).toBe(demoData.characters!.length);
      const person = demoData.people![3]!;
      expect(ids(await dataOf(api, '/v1/people', { q: person.name }))).toContain(person.mal_id);
      const people = await all(api, '/v1/people', { order_by: 'birthday' });
      expect(people.total).toBe(demoData.people!.length);
      expect(ordered(people.data.map((p) => p.birthday), 'asc')).toBe(true);
      const producers = await all(api, '/v1/producers', { order_by: 'count', sort: 'desc' });
      expect(producers.total).toBe(demoData.producers!.length);
      expect(ordered(producers.data.map((p) => p.count), 'desc')).toBe(true);
      const letter = await all(api, '/v1/producers', { letter: 's' });
      expect(letter.total).toBeGreaterThan(0);
      expect(letter.data.every((p) => p.titles[0]!.title.toLowerCase().startsWith('s'))).toBe(true);
      const magazines = await page(api, '/v1/magazines', { order_by: 'name' });
      expect(magazines.total).toBe(demoData.magazines!.length);
      expect(ordered(magazines.data.map((m) => m.name.toLowerCase()), 'asc')).toBe(true);
    });

    it('lists genres with counts taken from the entries', async () => {
      const genres = await dataOf(api, '/v1/genres/anime');
      expect(genres.length).toBe(demoData.genres!.filter((g) => g.kind === 'anime').length);
      const action = genres.find((g: { mal_id: number }) => g.mal_id === 1)!;
      expect(action.count).toBe(demoData.anime.filter((a) => tagIds(a).includes(1)).length);
      const explicit = await dataOf(api, '/v1/genres/anime', { filter: 'explicit_genres' });
      expect(ids(explicit).sort(byId)).toEqual([9, 12, 49]);
      expect((await dataOf(api, '/v1/genres/manga', { filter: 'demographics' })).length).toBeGreaterThan(0);
    });
  });
}

/** One entry's details and sub-resources, and the SFW filter on the media they refer to. */
function detailCases(api: Api): void {
  describe('entry details and SFW of referenced media (rule 3)', () => {
    it('builds the full anime from its parts', async () => {
      const full = await dataOf(api, '/v1/anime/20/full');
      expect(full).toMatchObject(animeById.get(20)!);
      expect(full.relations.some((r: any) => r.relation === 'Adaptation' && r.entry.some((e: any) => e.type === 'manga' && e.mal_id === 11))).toBe(true);
      expect('moreinfo' in full).toBe(true);
      expect(full.theme.openings.length).toBeGreaterThan(0);
      const cast = await dataOf<any[]>(api, '/v1/anime/20/characters');
      const naruto = cast.find((c) => c.character.mal_id === 17)!;
      expect(naruto.role).toBe('Main');
      expect(naruto.voice_actors[0]!.person.favorites).toBeTypeOf('number');
      expect((await dataOf(api, '/v1/anime/20/staff')).length).toBeGreaterThan(0);
      expect((await dataOf<any[]>(api, '/v1/manga/11/characters')).map((c) => c.character.mal_id)).toContain(17);
    });

    it.each(MODES)('filters hub recommendations, news, articles and stacks (mode %s)', async (mode) => {
      const adult = [T.rxAnime!, T.eroticaAnime!, T.rPlusAnime!];
      const recs = ids((await dataOf<any[]>(api, `/v1/anime/${T.hubAnime}/recommendations`, sfw(mode))).map((r) => r.entry));
      for (const id of adult) expect(recs.includes(id), `rec ${id}`).toBe(mode === 'off');
      expect(recs.includes(T.ecchiAnime!)).toBe(mode !== 'strict');
      const news = await dataOf(api, `/v1/news/${T.hubNews}`, sfw(mode));
      expect(news.mal_id).toBe(T.hubNews);
      for (const id of adult) expect(ids(news.related.anime).includes(id)).toBe(mode === 'off');
      expect(ids(news.related.anime).includes(T.ecchiAnime!)).toBe(mode !== 'strict');
      const article = await dataOf(api, `/v1/articles/${T.hubArticle}`, sfw(mode));
      expect(ids(article.related.anime).includes(T.rxAnime!)).toBe(mode === 'off');
      const stack = await dataOf(api, `/v1/stacks/${T.hubStack}`, sfw(mode));
      const source = demoData.stacks!.find((s) => s.mal_id === T.hubStack)!.entries;
      const expected = source.filter((e) => shown(classOf(e.type, e.mal_id), mode)).map((e) => e.mal_id);
      expect(ids(stack.entries)).toEqual(expected);
      const hubNews = await dataOf(api, `/v1/anime/${T.hubAnime}/news`, sfw(mode));
      expect(ids(hubNews).includes(T.hubNews!)).toBe(mode === 'off');
    });

    it.each(MODES)('keeps the adult root and filters its relations and voice roles (mode %s)', async (mode) => {
      expect((await dataOf(api, `/v1/anime/${T.rxAnime}/full`, sfw(mode))).mal_id).toBe(T.rxAnime);
      const rel = await dataOf<any[]>(api, `/v1/manga/${T.rxManga}/relations`, sfw(mode));
      expect(rel.flatMap((r) => ids(r.entry)).includes(T.rxAnime!)).toBe(mode === 'off');
      expect((await dataOf(api, `/v1/manga/${T.rxManga}/full`, sfw(mode))).mal_id).toBe(T.rxManga);
      const voices = await dataOf<any[]>(api, `/v1/people/${T.sharedVoiceActor}/voices`, sfw(mode));
      expect(voices.length).toBeGreaterThan(0);
      expect(voices.every((v) => shown(classOf('anime', v.anime.mal_id), mode))).toBe(true);
      if (mode === 'off') expect(voices.some((v) => classOf('anime', v.anime.mal_id) === 2)).toBe(true);
      expect((await dataOf(api, `/v1/people/${T.sharedVoiceActor}/full`, sfw(mode))).voices).toEqual(voices);
      const character = (await dataOf(api, `/v1/anime/${T.rxAnime}/characters`))[0].character.mal_id;
      const roles = await dataOf<any[]>(api, `/v1/characters/${character}/anime`, sfw(mode));
      expect(ids(roles.map((x) => x.anime)).includes(T.rxAnime!)).toBe(mode === 'off');
    });

    it('pages episodes and finds one by number', async () => {
      const count = demoData.episodes!.filter((e) => e.anime_id === 20).length;
      expect((await all(api, '/v1/anime/20/episodes', OWN_PAGE_SIZE)).total).toBe(count);
      const page2 = await answer(api, '/v1/anime/20/episodes', { page: 2 });
      expect(page2.pagination!.last_visible_page).toBe(Math.ceil(count / 100));
      expect(page2.data[0]!.mal_id).toBe(101);
      expect(page2.data.length).toBe(100);
      const ep = await dataOf(api, '/v1/anime/20/episodes/5');
      expect(ep.mal_id).toBe(5);
      expect(ep).toHaveProperty('replies');
      expect(ep).toHaveProperty('synopsis');
    });

    it('answers the per-entry collections of a detailed anime and manga', async () => {
      expect((await dataOf(api, '/v1/anime/20/videos')).episodes.length).toBeGreaterThan(0);
      expect((await dataOf(api, '/v1/anime/20/forum')).length).toBeGreaterThan(0);
      expect((await dataOf(api, '/v1/anime/20/statistics')).total).toBeGreaterThan(0);
      expect((await dataOf(api, '/v1/manga/11/statistics')).total).toBeGreaterThan(0);
      expect((await dataOf(api, '/v1/anime/20/pictures')).length).toBeGreaterThan(0);
      expect((await page(api, `/v1/anime/${T.hubAnime}/stacks`)).total).toBeGreaterThan(0);
      expect((await page(api, `/v1/anime/${T.hubAnime}/articles`)).total).toBeGreaterThan(0);
      expect((await page(api, '/v1/characters/17/articles')).total).toBeGreaterThan(0);
      expect((await dataOf(api, '/v1/manga/11/external')).length).toBeGreaterThan(0);
      const producer = demoData.producers![0]!;
      expect((await dataOf(api, `/v1/producers/${producer.mal_id}/full`)).external.length).toBeGreaterThan(0);
    });
  });
}

/** Seasons, schedules, and the top lists' filters. */
function seasonCases(api: Api): void {
  it('derives seasons from premiere dates, most members first', async () => {
    const seasons = await dataOf<{ year: number }[]>(api, '/v1/seasons');
    expect(ordered(seasons.map((s) => s.year), 'desc')).toBe(true);
    const { data, total } = await all<Anime>(api, '/v1/seasons/2026/winter', ALL);
    expect(total).toBeGreaterThan(0);
    expect(data.every((a) => (a.year === 2026 && a.season === 'winter') || a.aired.from?.startsWith('2026-0'))).toBe(true);
    expect(ordered(data.map((a) => a.members), 'desc')).toBe(true);
    const upcoming = await all(api, '/v1/seasons/upcoming', ALL);
    expect(upcoming.total).toBe(demoData.anime.filter((a) => a.status === 'Not yet aired').length);
  });

  it('schedules airing TV anime by broadcast day, fewest members first', async () => {
    const every = await all<Anime>(api, '/v1/schedules', ALL);
    expect(every.total).toBe(demoData.anime.filter((a) => a.type === 'TV' && a.status === 'Currently Airing').length);
    expect(ordered(every.data.map((a) => a.members), 'asc')).toBe(true);
    const day = every.data.find((a) => a.broadcast.day)!.broadcast.day!;
    const filtered = await all<Anime>(api, '/v1/schedules', { ...ALL, filter: day.slice(0, -1).toLowerCase() });
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.data.every((a) => a.broadcast.day === day)).toBe(true);
  });

  it('filters the top lists by SFW, rating and airing', async () => {
    const popular = await all<Anime>(api, '/v1/top/anime', { ...sfw('normal'), filter: 'bypopularity' });
    expect(popular.total).toBeGreaterThan(0);
    expect(popular.data.every((a) => shown(sfwClass(a), 'normal'))).toBe(true);
    const air = await all<Anime>(api, '/v1/top/anime', { filter: 'airing' });
    expect(air.data.every((a) => a.airing)).toBe(true);
    const rated = await all<Anime>(api, '/v1/top/anime', { rating: ['g', 'pg'] });
    expect(rated.total).toBeGreaterThan(0);
    expect(rated.data.every((a) => a.rating === 'G - All Ages' || a.rating === 'PG - Children')).toBe(true);
  });
}

// Jikan's top-list queries, restated here on their own so that the store is checked against
// them and not against itself (jikan-me/jikan-rest, app/Features/QueryTop*ItemsHandler.php
// and app/Repositories/Default{Anime,Manga}Repository.php; the plain list by rank as MAL's).
type Media = Anime | Manga;
type Expect = { key: 'rank' | 'popularity' | 'score' | 'members' | 'favorites'; sort: 'asc' | 'desc'; keep: (e: Media) => boolean };
const ranked: Expect = { key: 'rank', sort: 'asc', keep: (e) => e.rank !== null };
const byPopularity: Expect = { key: 'popularity', sort: 'asc', keep: (e) => e.popularity !== null };
const byFavorites: Expect = { key: 'favorites', sort: 'desc', keep: () => true };
/** The filters both kinds take, then each kind's running and upcoming lists. */
const shared = { plain: ranked, bypopularity: byPopularity, favorite: byFavorites };
const upcoming = (status: string): Expect => ({ key: 'members', sort: 'desc', keep: (e) => e.status === status });
const TOP: Record<'anime' | 'manga', Record<string, Expect>> = {
  anime: { ...shared, airing: { key: 'score', sort: 'desc', keep: (e) => (e as Anime).airing }, upcoming: upcoming('Not yet aired') },
  manga: { ...shared, publishing: { key: 'members', sort: 'desc', keep: (e) => (e as Manga).publishing }, upcoming: upcoming('Not yet published') },
};

/** Every page of a list at 25 a page, checked page by page, and the whole list. */
async function pages<T>(api: Api, path: string, query: Query): Promise<List<T>> {
  const data: T[] = [];
  const first = await page<T>(api, path, { ...query, page: 1, limit: 25 });
  const last = Math.max(1, Math.ceil(first.total / 25));
  for (let n = 1; n <= last; n++) {
    const result = n === 1 ? first : await page<T>(api, path, { ...query, page: n, limit: 25 });
    expect(result.total).toBe(first.total);
    expect(result.data.length).toBe(n < last ? 25 : first.total - 25 * (last - 1));
    data.push(...result.data);
  }
  return { data, total: first.total };
}

/** The key of each record in list order, nulls last, ties by ascending mal_id, no repeats. */
function expectOrdered(list: readonly Media[], rule: Expect, label: string): void {
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1]!;
    const b = list[i]!;
    const x = a[rule.key];
    const y = b[rule.key];
    const inOrder = x === y ? a.mal_id < b.mal_id : y === null ? true : x === null ? false : rule.sort === 'asc' ? x < y : x > y;
    if (!inOrder) throw new Error(`${label}: ${a.mal_id} (${rule.key} ${x}) is listed before ${b.mal_id} (${rule.key} ${y})`);
  }
}

/** The top lists of every kind: Jikan's order and filters on every page, ranks, favourites. */
function topListCases(api: Api): void {
  for (const kind of ['anime', 'manga'] as const) {
    it(`lists every ${kind} top list in Jikan's order, approved entries only, on every page`, async () => {
      const records: readonly Media[] = kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
      const types = [undefined, ...new Set(records.map((e) => e.type).filter((t): t is string => t !== null))];
      let checked = 0;
      for (const [filter, rule] of Object.entries(TOP[kind])) {
        for (const type of types) {
          const query = { filter: filter === 'plain' ? undefined : filter, type: type && TYPE_VALUES[kind][type] };
          const label = `${kind} filter=${filter} type=${type ?? '(any)'}`;
          const { data, total } = await pages<Media>(api, `/v1/top/${kind}`, query);
          const expected = records.filter((e) => e.approved && rule.keep(e) && (!type || e.type === type));
          expect(total, label).toBe(expected.length);
          expect(new Set(ids(data)), label).toEqual(new Set(ids(expected)));
          expectOrdered(data, rule, label);
          checked += data.length;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('numbers the plain top lists by rank: positions and ranks rise together', async () => {
    for (const list of [await all<Media>(api, '/v1/top/anime'), await all<Media>(api, '/v1/top/manga')]) {
      expect(list.total).toBeGreaterThan(0);
      expect(list.data.every((e, i) => i === 0 || e.rank! > list.data[i - 1]!.rank!)).toBe(true);
      expect(list.data.every((e, i) => i === 0 || (e.score ?? 0) <= (list.data[i - 1]!.score ?? 0))).toBe(true);
      expect(list.data.every((e) => e.approved)).toBe(true);
    }
  });

  it('lists top characters and people by favorites, most first', async () => {
    for (const [list, records] of [
      [await all(api, '/v1/top/characters'), demoData.characters ?? []],
      [await all(api, '/v1/top/people'), demoData.people ?? []],
    ] as const) {
      expect(list.total).toBe(records.filter((r) => r.favorites > 0).length);
      const after = (r: any, p: any) => r.favorites < p.favorites || (r.favorites === p.favorites && r.mal_id > p.mal_id);
      expect(list.data.every((r, i) => i === 0 || after(r, list.data[i - 1]))).toBe(true);
    }
  });
}

/** Random picks: the injected number chooses, within SFW and approval. */
function randomCases(api: Api): void {
  it('picks random records by the given number, within SFW', async () => {
    api.pick = 0;
    const first = await dataOf(api, '/v1/random/anime', ALL);
    api.pick = 0.9999;
    const last = await dataOf(api, '/v1/random/anime', ALL);
    expect(first.mal_id).not.toBe(last.mal_id);
    for (const pick of [0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.9999]) {
      api.pick = pick;
      expect(sfwClass(await dataOf(api, '/v1/random/anime', sfw('strict')))).toBe(0);
      expect(sfwClass(await dataOf(api, '/v1/random/manga', { ...sfw('normal'), ...ALL }))).toBeLessThan(2);
    }
    api.pick = 0.5;
    expect((await dataOf(api, '/v1/random/characters')).mal_id).toBeTypeOf('number');
    expect((await dataOf(api, '/v1/random/people')).mal_id).toBeTypeOf('number');
  });
}

/** Recommendations, reviews, news, articles, stacks, and the id lists. */
function communityCases(api: Api): void {
  describe('community content and id lists', () => {
    it('lists recent recommendations newest first, within SFW', async () => {
      const recs = await all(api, '/v1/recommendations/anime', OWN_PAGE_SIZE);
      expect(recs.total).toBe(demoData.recommendations!.filter((r) => r.type === 'anime').length);
      expect(ordered(recs.data.map((r) => r.date), 'desc')).toBe(true);
      const safe = await all(api, '/v1/recommendations/anime', { ...OWN_PAGE_SIZE, ...sfw('normal') });
      expect(safe.total).toBeLessThan(recs.total);
      expect(safe.data.every((r) => r.entry.every((e: { mal_id: number }) => classOf('anime', e.mal_id) < 2))).toBe(true);
    });

    it('filters and orders reviews', async () => {
      const q = { ...OWN_PAGE_SIZE, preliminary: true, spoilers: true };
      const every = await all(api, '/v1/reviews/anime', q);
      expect(every.total).toBe(demoData.reviews!.filter((r) => r.type === 'anime').length);
      expect(ordered(every.data.map((r) => r.reactions.overall), 'desc')).toBe(true);
      const strictRaw = await all(api, '/v1/reviews/anime', { ...OWN_PAGE_SIZE, sort: 'newest' });
      expect(strictRaw.data.every((r) => !r.is_preliminary && !r.is_spoiler)).toBe(true);
      expect(ordered(strictRaw.data.map((r) => r.date), 'desc')).toBe(true);
      const safe = await all(api, '/v1/reviews/anime', { ...q, ...sfw('strict') });
      expect(safe.data.every((r) => classOf('anime', r.entry.mal_id) === 0)).toBe(true);
      expect(safe.total).toBeLessThan(every.total);
      const top = await dataOf<any[]>(api, '/v1/top/reviews', { type: 'manga', preliminary: true, spoilers: true, limit: 10 });
      expect(top.every((r) => r.type === 'manga')).toBe(true);
    });

    it('searches news, articles and stacks, and counts their tags', async () => {
      const news = await all(api, '/v1/news');
      expect(news.total).toBe(demoData.news!.length);
      expect(ordered(news.data.map((n) => n.date), 'desc')).toBe(true);
      const tag = demoData.newsTags![0]!.mal_id;
      const tagged = await all(api, '/v1/news', { tag });
      expect(tagged.total).toBe(demoData.news!.filter((n) => n.tag_ids.includes(tag)).length);
      const tags = await dataOf<{ mal_id: number; count: number }[]>(api, '/v1/news/tags');
      expect(tags.find((t) => t.mal_id === tag)!.count).toBe(tagged.total);
      expect(ids(await dataOf(api, '/v1/news', { q: demoData.news![5]!.title, limit: 5 }))).toContain(demoData.news![5]!.mal_id);
      const articles = await all(api, '/v1/articles');
      expect(articles.total).toBe(demoData.articles!.length);
      const articleTags = await dataOf<{ count: number }[]>(api, '/v1/articles/tags');
      expect(articleTags.reduce((n, t) => n + t.count, 0)).toBe(demoData.articles!.reduce((n, a) => n + a.tag_ids.length, 0));
      const stacks = await all(api, '/v1/stacks');
      expect(stacks.total).toBe(demoData.stacks!.length);
      const mangaStacks = await all(api, '/v1/stacks', { type: 'manga' });
      expect(mangaStacks.data.every((s) => s.type === 'manga')).toBe(true);
      expect(stacks.data.every((s) => s.entries_count === demoData.stacks!.find((x) => x.mal_id === s.mal_id)!.entries.length)).toBe(true);
    });

    it('lists ids with filters, field inclusion and updated_at', async () => {
      const every = await idList(api, '/v1/anime/ids');
      expect(every.total).toBe(demoData.anime.length);
      expect(every.data).toEqual([...animeById.keys()].sort(byId));
      const safe = await idList(api, '/v1/anime/ids', { ...sfw('normal'), type: ['tv'], rating: ['pg13', 'r'] });
      expect(safe.total).toBe(demoData.anime.filter((a) => a.type === 'TV' && a.rating === 'PG-13 - Teens 13 or older').length);
      const withTitles = await idList(api, '/v1/manga/ids', { include: ['title', 'status'] });
      const manga = demoData.manga![0]!;
      expect(withTitles.data[0]).toEqual({ mal_id: manga.mal_id, title: manga.title, status: manga.status });
      const cut = Date.parse('2025-09-01T00:00:00Z');
      const recent = await idList(api, '/v1/anime/ids', { updated_at: cut / 1000 });
      expect(recent.total).toBe(demoData.updates!.filter((u) => u.type === 'anime' && Date.parse(u.updated_at) >= cut).length);
      const deleted = await idList(api, '/v1/anime/deleted');
      expect(deleted.data.length).toBe(demoData.deletedAnimeIds!.length);
      expect(ordered(deleted.data, 'asc')).toBe(true);
      expect((await idList(api, '/v1/manga/deleted')).data.length).toBe(demoData.deletedMangaIds!.length);
    });
  });
}

/**
 * Defines the catalogue contract suite: every endpoint's answer, read through the HTTP API of the
 * catalogue app over the store under test (`createCatalogueApp`, without a gateway), checked
 * against the demo data (lookups, every filter, ordering and paging rule, SFW of referenced media,
 * sub-resources). Where `defineStoreContract` checks the seam's methods one by one, this checks
 * that a store serves the whole API. Call it at the top level of a vitest test file.
 * @param name - A label for the store under test (shown in the suite name).
 * @param makeStore - Returns a store loaded with `demoData` of `@catalogue-api/demo-data`.
 * @param options - Cleanup hook.
 * @example
 * ```ts
 * import { createMemoryStore } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 * import { defineCatalogueContract } from '@catalogue-api/testkit';
 *
 * defineCatalogueContract('memory', () => createMemoryStore(demoData));
 * ```
 */
export function defineCatalogueContract(
  name: string,
  makeStore: () => Promise<CatalogueStore> | CatalogueStore,
  options: CatalogueContractOptions = {},
): void {
  describe(`Catalogue contract: ${name}`, () => {
    const api = { pick: 0 } as Api;
    beforeAll(async () => {
      // The store's answers, not the edge's bounds: no admission queue and no store timeout, which
      // a busy machine could trip with a 503 that says nothing about the store.
      api.get = answersOf(await makeStore(), { random: () => api.pick, admission: false, storeTimeoutMs: Infinity });
    });
    afterAll(async () => {
      await options.cleanup?.();
    });

    lookupCases(api);
    animeSearchCases(api);
    otherSearchCases(api);
    detailCases(api);
    describe('seasons, schedules, top lists and random picks', () => {
      seasonCases(api);
      topListCases(api);
      randomCases(api);
    });
    communityCases(api);
  });
}
