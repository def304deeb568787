/**
 * The `Catalogue` contract: one vitest suite that every catalogue store must pass on the demo
 * dataset (the memory store in core, PostgreSQL in `@catalogue-api/store-postgres`, and any
 * third-party store). It checks behaviour through the interface only: lookups and unknown ids,
 * every filter, ordering and SFW rule, paging totals, and search-ranking properties that do not
 * depend on the fuzzy scorer (an exact title is the top hit; exact and prefix matches come first).
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import { catalogueOver, normalizeTitle, sfwClass, type Catalogue, type CatalogueStore, type Page } from '@catalogue-api/core/store';
import { demoData, demoSfwTargets } from '@catalogue-api/demo-data';

/** Options of {@link defineCatalogueContract}. */
export interface CatalogueContractOptions {
  /** Called once after the suite, e.g. to close connections or drop a schema. */
  cleanup?: () => Promise<void> | void;
}

type Mode = 'off' | 'normal' | 'strict';
type Paging = { page: number; limit: number };
const UNKNOWN = 999_999_999;
const MODES: Mode[] = ['off', 'normal', 'strict'];
const shown = (cls: number, mode: Mode) => mode === 'off' || cls === 0 || (cls === 1 && mode === 'normal');

/** Every page of a paged list, fetched 50 at a time. */
async function all<T>(fetchPage: (p: Paging) => Promise<Page<T> | undefined>): Promise<{ data: T[]; total: number }> {
  const data: T[] = [];
  let total = 0;
  for (let page = 1; page <= 1000; page++) {
    const result = await fetchPage({ page, limit: 50 });
    if (!result) throw new Error('expected a page, got undefined');
    total = result.total;
    data.push(...result.data);
    if (result.data.length < 50) break;
  }
  return { data, total };
}

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
const animeById = new Map(demoData.anime.map((a) => [a.mal_id, a]));
const mangaById = new Map((demoData.manga ?? []).map((m) => [m.mal_id, m]));
const classOf = (kind: 'anime' | 'manga', id: number) => sfwClass((kind === 'anime' ? animeById.get(id) : mangaById.get(id))!);
const T = demoSfwTargets as Record<string, number>;

/**
 * Defines the catalogue contract suite: every endpoint's answer, computed in core
 * (`catalogueOver`) over the store under test, checked against the demo data (lookups, every
 * filter, ordering and paging rule, SFW of referenced media, sub-resources). Where
 * `defineStoreContract` checks the seam's methods one by one, this checks that a store serves the
 * whole API. Call it at the top level of a vitest test file.
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
    let store: Catalogue;
    beforeAll(async () => {
      store = catalogueOver(await makeStore());
    });
    afterAll(async () => {
      await options.cleanup?.();
    });

    describe('lookups', () => {
      it('returns the demo record for a known id of every kind', async () => {
        expect(await store.getAnime(20)).toEqual(animeById.get(20));
        expect(await store.getManga(11)).toEqual(mangaById.get(11));
        expect(await store.getCharacter(17)).toEqual(demoData.characters!.find((c) => c.mal_id === 17));
        const person = demoData.people![0]!;
        expect(await store.getPerson(person.mal_id)).toEqual(person);
        const producer = demoData.producers![0]!;
        expect(await store.getProducer(producer.mal_id)).toEqual(producer);
      });

      it('answers undefined for an unknown id on every per-record method', async () => {
        const p = { page: 1, limit: 25 };
        const results = await Promise.all([
          store.getAnime(UNKNOWN), store.getAnimeFull(UNKNOWN, 'off'), store.getAnimeRelations(UNKNOWN, 'off'),
          store.getAnimeRecommendations(UNKNOWN, 'off'), store.getAnimeNews(UNKNOWN, p, 'off'), store.getAnimeVideos(UNKNOWN),
          store.getAnimeVideoEpisodes(UNKNOWN, p), store.getAnimeCharacters(UNKNOWN), store.getAnimeStaff(UNKNOWN),
          store.getAnimeEpisodes(UNKNOWN, p), store.getAnimeEpisode(UNKNOWN, 1), store.getAnimeForum(UNKNOWN),
          store.getAnimeStacks(UNKNOWN, p), store.getAnimeArticles(UNKNOWN, p), store.getAnimePictures(UNKNOWN),
          store.getAnimeStatistics(UNKNOWN), store.getAnimeMoreinfo(UNKNOWN), store.getAnimeThemes(UNKNOWN),
          store.getAnimeExternal(UNKNOWN), store.getAnimeStreaming(UNKNOWN),
          store.getManga(UNKNOWN), store.getMangaFull(UNKNOWN, 'off'), store.getMangaRelations(UNKNOWN, 'off'),
          store.getMangaRecommendations(UNKNOWN, 'off'), store.getMangaNews(UNKNOWN, p, 'off'), store.getMangaStacks(UNKNOWN, p),
          store.getMangaArticles(UNKNOWN, p), store.getMangaCharacters(UNKNOWN), store.getMangaPictures(UNKNOWN),
          store.getMangaStatistics(UNKNOWN), store.getMangaMoreinfo(UNKNOWN), store.getMangaExternal(UNKNOWN),
          store.getCharacter(UNKNOWN), store.getCharacterFull(UNKNOWN, 'off'), store.getCharacterAnime(UNKNOWN, 'off'),
          store.getCharacterManga(UNKNOWN, 'off'), store.getCharacterVoices(UNKNOWN), store.getCharacterPictures(UNKNOWN),
          store.getCharacterArticles(UNKNOWN, p),
          store.getPerson(UNKNOWN), store.getPersonFull(UNKNOWN, 'off'), store.getPersonAnime(UNKNOWN, 'off'),
          store.getPersonManga(UNKNOWN, 'off'), store.getPersonVoices(UNKNOWN, 'off'), store.getPersonPictures(UNKNOWN),
          store.getPersonArticles(UNKNOWN, p),
          store.getProducer(UNKNOWN), store.getProducerFull(UNKNOWN), store.getProducerExternal(UNKNOWN),
          store.getNews(UNKNOWN, 'off'), store.getArticle(UNKNOWN, 'off'), store.getStack(UNKNOWN, 'off'),
        ]);
        results.forEach((r, i) => expect(r, `call #${i}`).toBeUndefined());
        expect(await store.getAnimeEpisode(20, UNKNOWN)).toBeUndefined();
      });

      it('answers empty sub-lists, not undefined, for a known entry without them', async () => {
        const bare = demoData.anime.find((a) => !demoData.animeCharacters!.some((c) => c.anime_id === a.mal_id))!;
        expect(await store.getAnimeCharacters(bare.mal_id)).toEqual([]);
        expect(await store.getAnimeEpisodes(bare.mal_id, { page: 1, limit: 100 })).toEqual({ data: [], total: 0 });
      });
    });

    describe('anime search', () => {
      const base = { page: 1, limit: 50, sfw: 'off' as Mode, approval: 'all' as const, sort: 'asc' as const };

      it('lists every anime by mal_id with paging totals', async () => {
        const { data, total } = await all((p) => store.searchAnime({ ...base, ...p }));
        expect(total).toBe(demoData.anime.length);
        expect(ids(data)).toEqual([...animeById.keys()].sort((a, b) => a - b));
        const page2 = await store.searchAnime({ ...base, page: 2, limit: 10 });
        expect(ids(page2.data)).toEqual(ids(data).slice(10, 20));
        const past = await store.searchAnime({ ...base, page: 1000, limit: 50 });
        expect(past).toEqual({ data: [], total: demoData.anime.length });
      });

      const filters: Array<[string, Record<string, unknown>, (a: Anime) => boolean]> = [
        ['types (several)', { types: ['Movie', 'OVA'] }, (a) => a.type === 'Movie' || a.type === 'OVA'],
        ['status', { status: 'Currently Airing' }, (a) => a.status === 'Currently Airing'],
        ['ratings (several)', { ratings: ['G - All Ages', 'Rx - Hentai'] }, (a) => a.rating === 'G - All Ages' || a.rating === 'Rx - Hentai'],
        ['sfw normal', { sfw: 'normal' }, (a) => shown(sfwClass(a), 'normal')],
        ['sfw strict', { sfw: 'strict' }, (a) => shown(sfwClass(a), 'strict')],
        ['approved only', { approval: 'approved' }, (a) => a.approved],
        ['unapproved only', { approval: 'unapproved' }, (a) => !a.approved],
        ['min and max score', { minScore: 7, maxScore: 8 }, (a) => a.score !== null && a.score >= 7 && a.score <= 8],
        ['genres (all of)', { genres: [1, 2] }, (a) => [1, 2].every((g) => [...a.genres, ...a.explicit_genres, ...a.themes, ...a.demographics].some((r) => r.mal_id === g))],
        ['genres_exclude', { genresExclude: [1] }, (a) => ![...a.genres, ...a.explicit_genres, ...a.themes, ...a.demographics].some((r) => r.mal_id === 1)],
        ['letter', { letter: 'k' }, (a) => a.title.toLowerCase().startsWith('k')],
        ['start_date', { startDate: { first: '2020-01-01', last: '2020-12-31' } }, (a) => a.aired.from !== null && a.aired.from.slice(0, 10) >= '2020-01-01'],
        ['end_date', { endDate: { first: '2000-01-01', last: '2000-12-31' } }, (a) => a.aired.to !== null && a.aired.to.slice(0, 10) <= '2000-12-31'],
      ];
      it.each(filters)('filters by %s', async (_, filter, predicate) => {
        const { data, total } = await all((p) => store.searchAnime({ ...base, ...filter, ...p }));
        const expected = demoData.anime.filter(predicate);
        expect(expected.length, 'the demo data has matches').toBeGreaterThan(0);
        expect(total).toBe(expected.length);
        expect(ids(data).sort((a, b) => a - b)).toEqual(ids(expected).sort((a, b) => a - b));
      });

      it('filters by producers (any of) and exact score', async () => {
        const producer = demoData.anime[0]!.studios[0]!.mal_id;
        const { data } = await all((p) => store.searchAnime({ ...base, producers: [producer], ...p }));
        const has = (a: Anime) => [...a.producers, ...a.studios, ...a.licensors].some((r) => r.mal_id === producer);
        expect(ids(data)).toEqual(ids(demoData.anime.filter(has)).sort((a, b) => a - b));
        const score = demoData.anime.find((a) => a.score !== null)!.score!;
        const exact = await all((p) => store.searchAnime({ ...base, score, ...p }));
        expect(exact.data.every((a) => a.score === score) && exact.total > 0).toBe(true);
      });

      it.each(['score', 'members', 'start_date', 'title', 'episodes'] as const)('orders by %s both ways, nulls last, ties by mal_id', async (orderBy) => {
        for (const sort of ['asc', 'desc'] as const) {
          const { data } = await all((p) => store.searchAnime({ ...base, orderBy, sort, ...p }));
          const key = (a: Anime): string | number | null =>
            orderBy === 'start_date' ? a.aired.from : orderBy === 'title' ? a.title.toLowerCase() : a[orderBy];
          expect(ordered(data.map(key), sort), `${orderBy} ${sort}`).toBe(true);
          for (let i = 1; i < data.length; i++) {
            if (key(data[i - 1]!) === key(data[i]!)) expect(data[i - 1]!.mal_id).toBeLessThan(data[i]!.mal_id);
          }
        }
      });

      it('ranks an exact title first and exact or prefix matches before the rest', async () => {
        const { data } = await store.searchAnime({ ...base, q: 'Naruto' });
        expect(data[0]!.mal_id).toBe(20);
        const { data: hits } = await store.searchAnime({ ...base, q: 'Love Hina', limit: 50 });
        const titles = (a: Anime) => [a.title, a.title_english ?? '', a.title_japanese ?? '', ...a.title_synonyms].map(normalizeTitle);
        const strong = hits.map((a) => titles(a).some((t) => t.startsWith('love hina')));
        expect(strong[0]).toBe(true);
        expect(strong.indexOf(false) === -1 || !strong.slice(strong.indexOf(false)).includes(true)).toBe(true);
        const { total } = await store.searchAnime({ ...base, q: 'Naruto', sfw: 'normal', limit: 50 });
        expect(total).toBeGreaterThan(0);
      });
    });

    describe('manga, characters, people, producers, magazines, genres', () => {
      const base = { page: 1, limit: 50, sfw: 'off' as Mode, approval: 'all' as const, sort: 'asc' as const };

      it('lists manga with filters and SFW', async () => {
        const every = await all((p) => store.searchManga({ ...base, ...p }));
        expect(every.total).toBe(demoData.manga!.length);
        const cases: Array<[Record<string, unknown>, (m: Manga) => boolean]> = [
          [{ types: ['Light Novel', 'Novel'] }, (m) => m.type === 'Light Novel' || m.type === 'Novel'],
          [{ status: 'Publishing' }, (m) => m.status === 'Publishing'],
          [{ sfw: 'normal' }, (m) => shown(sfwClass(m), 'normal')],
          [{ sfw: 'strict' }, (m) => shown(sfwClass(m), 'strict')],
          [{ magazines: [83] }, (m) => m.serializations.some((s) => s.mal_id === 83)],
          [{ letter: 'n' }, (m) => m.title.toLowerCase().startsWith('n')],
        ];
        for (const [filter, predicate] of cases) {
          const { data, total } = await all((p) => store.searchManga({ ...base, ...filter, ...p }));
          expect(total, JSON.stringify(filter)).toBe(demoData.manga!.filter(predicate).length);
          expect(data.every(predicate)).toBe(true);
        }
        const { data } = await store.searchManga({ ...base, q: 'Monster' });
        expect(data[0]!.mal_id).toBe(1);
        const byScore = await all((p) => store.searchManga({ ...base, orderBy: 'score', sort: 'desc', ...p }));
        expect(ordered(byScore.data.map((m) => m.score), 'desc')).toBe(true);
      });

      it('searches characters, people, producers and magazines', async () => {
        const named = { page: 1, limit: 25, sort: 'asc' as const };
        expect((await store.searchCharacters({ ...named, q: 'Sasuke Uchiha' })).data[0]!.mal_id).toBe(13);
        const favs = await store.searchCharacters({ ...named, orderBy: 'favorites', sort: 'desc' });
        expect(ordered(favs.data.map((c) => c.favorites), 'desc')).toBe(true);
        expect(favs.total).toBe(demoData.characters!.length);
        const person = demoData.people![3]!;
        expect((await store.searchPeople({ ...named, q: person.name })).data.map((p) => p.mal_id)).toContain(person.mal_id);
        const people = await all((p) => store.searchPeople({ ...named, orderBy: 'birthday', ...p }));
        expect(people.total).toBe(demoData.people!.length);
        expect(ordered(people.data.map((p) => p.birthday), 'asc')).toBe(true);
        const producers = await all((p) => store.searchProducers({ ...named, orderBy: 'count', sort: 'desc', ...p }));
        expect(producers.total).toBe(demoData.producers!.length);
        expect(ordered(producers.data.map((p) => p.count), 'desc')).toBe(true);
        const letter = await all((p) => store.searchProducers({ ...named, letter: 's', ...p }));
        expect(letter.total).toBeGreaterThan(0);
        expect(letter.data.every((p) => p.titles[0]!.title.toLowerCase().startsWith('s'))).toBe(true);
        const magazines = await store.searchMagazines({ ...named, orderBy: 'name' });
        expect(magazines.total).toBe(demoData.magazines!.length);
        expect(ordered(magazines.data.map((m) => m.name.toLowerCase()), 'asc')).toBe(true);
      });

      it('lists genres with counts taken from the entries', async () => {
        const genres = await store.listGenres('anime');
        expect(genres.length).toBe(demoData.genres!.filter((g) => g.kind === 'anime').length);
        const action = genres.find((g) => g.mal_id === 1)!;
        const tagged = demoData.anime.filter((a) => [...a.genres, ...a.explicit_genres, ...a.themes, ...a.demographics].some((r) => r.mal_id === 1));
        expect(action.count).toBe(tagged.length);
        const explicit = await store.listGenres('anime', 'explicit_genres');
        expect(ids(explicit).sort((a, b) => a - b)).toEqual([9, 12, 49]);
        expect((await store.listGenres('manga', 'demographics')).length).toBeGreaterThan(0);
      });
    });

    describe('entry details and SFW of referenced media (rule 3)', () => {
      it('builds the full anime from its parts', async () => {
        const full = (await store.getAnimeFull(20, 'off'))!;
        expect(full).toMatchObject(animeById.get(20)!);
        expect(full.relations.some((r) => r.relation === 'Adaptation' && r.entry.some((e) => e.type === 'manga' && e.mal_id === 11))).toBe(true);
        expect('moreinfo' in full).toBe(true);
        expect(full.theme.openings.length).toBeGreaterThan(0);
        const cast = (await store.getAnimeCharacters(20))!;
        const naruto = cast.find((c) => c.character.mal_id === 17)!;
        expect(naruto.role).toBe('Main');
        expect(naruto.voice_actors[0]!.person.favorites).toBeTypeOf('number');
        expect((await store.getAnimeStaff(20))!.length).toBeGreaterThan(0);
        expect((await store.getMangaCharacters(11))!.map((c) => c.character.mal_id)).toContain(17);
      });

      it.each(MODES)('filters hub recommendations, news, articles and stacks (mode %s)', async (mode) => {
        const adult = [T.rxAnime!, T.eroticaAnime!, T.rPlusAnime!];
        const recs = ids((await store.getAnimeRecommendations(T.hubAnime!, mode))!.map((r) => r.entry));
        for (const id of adult) expect(recs.includes(id), `rec ${id}`).toBe(mode === 'off');
        expect(recs.includes(T.ecchiAnime!)).toBe(mode !== 'strict');
        const news = (await store.getNews(T.hubNews!, mode))!;
        expect(news.mal_id).toBe(T.hubNews);
        for (const id of adult) expect(ids(news.related.anime).includes(id)).toBe(mode === 'off');
        expect(ids(news.related.anime).includes(T.ecchiAnime!)).toBe(mode !== 'strict');
        const article = (await store.getArticle(T.hubArticle!, mode))!;
        expect(ids(article.related.anime).includes(T.rxAnime!)).toBe(mode === 'off');
        const stack = (await store.getStack(T.hubStack!, mode))!;
        const source = demoData.stacks!.find((s) => s.mal_id === T.hubStack)!.entries;
        const expected = source.filter((e) => shown(classOf(e.type, e.mal_id), mode)).map((e) => e.mal_id);
        expect(ids(stack.entries)).toEqual(expected);
        const hubNews = (await store.getAnimeNews(T.hubAnime!, { page: 1, limit: 50 }, mode))!;
        expect(ids(hubNews.data).includes(T.hubNews!)).toBe(mode === 'off');
      });

      it.each(MODES)('keeps the adult root and filters its relations and voice roles (mode %s)', async (mode) => {
        expect((await store.getAnimeFull(T.rxAnime!, mode))!.mal_id).toBe(T.rxAnime);
        const rel = (await store.getMangaRelations(T.rxManga!, mode))!;
        expect(rel.flatMap((r) => ids(r.entry)).includes(T.rxAnime!)).toBe(mode === 'off');
        expect((await store.getMangaFull(T.rxManga!, mode))!.mal_id).toBe(T.rxManga);
        const voices = (await store.getPersonVoices(T.sharedVoiceActor!, mode))!;
        expect(voices.length).toBeGreaterThan(0);
        expect(voices.every((v) => shown(classOf('anime', v.anime.mal_id), mode))).toBe(true);
        if (mode === 'off') expect(voices.some((v) => classOf('anime', v.anime.mal_id) === 2)).toBe(true);
        const full = (await store.getPersonFull(T.sharedVoiceActor!, mode))!;
        expect(full.voices).toEqual(voices);
        const rxCast = (await store.getAnimeCharacters(T.rxAnime!))!;
        const character = rxCast[0]!.character.mal_id;
        expect(ids((await store.getCharacterAnime(character, mode))!.map((x) => x.anime)).includes(T.rxAnime!)).toBe(mode === 'off');
      });

      it('pages episodes and finds one by number', async () => {
        const page2 = (await store.getAnimeEpisodes(20, { page: 2, limit: 100 }))!;
        expect(page2.total).toBe(demoData.episodes!.filter((e) => e.anime_id === 20).length);
        expect(page2.data[0]!.mal_id).toBe(101);
        expect(page2.data.length).toBe(100);
        const ep = (await store.getAnimeEpisode(20, 5))!;
        expect(ep.mal_id).toBe(5);
        expect(ep).toHaveProperty('replies');
        expect(ep).toHaveProperty('synopsis');
      });

      it('answers the per-entry collections of a detailed anime and manga', async () => {
        expect((await store.getAnimeVideos(20))!.episodes.length).toBeGreaterThan(0);
        expect((await store.getAnimeForum(20))!.length).toBeGreaterThan(0);
        expect((await store.getAnimeStatistics(20))!.total).toBeGreaterThan(0);
        expect((await store.getMangaStatistics(11))!.total).toBeGreaterThan(0);
        expect((await store.getAnimePictures(20))!.length).toBeGreaterThan(0);
        expect((await store.getAnimeStacks(T.hubAnime!, { page: 1, limit: 25 }))!.total).toBeGreaterThan(0);
        expect((await store.getAnimeArticles(T.hubAnime!, { page: 1, limit: 25 }))!.total).toBeGreaterThan(0);
        expect((await store.getCharacterArticles(17, { page: 1, limit: 25 }))!.total).toBeGreaterThan(0);
        expect((await store.getMangaExternal(11))!.length).toBeGreaterThan(0);
        const producer = demoData.producers![0]!;
        expect((await store.getProducerFull(producer.mal_id))!.external.length).toBeGreaterThan(0);
      });
    });

    describe('seasons, schedules, top lists and random picks', () => {
      const airing = { page: 1, limit: 50, sfw: 'off' as Mode, approval: 'all' as const };

      it('derives seasons from premiere dates, most members first', async () => {
        const seasons = await store.listSeasons();
        expect(ordered(seasons.map((s) => s.year), 'desc')).toBe(true);
        const { data, total } = await all((p) => store.getSeason({ ...airing, year: 2026, season: 'winter', ...p }));
        expect(total).toBeGreaterThan(0);
        expect(data.every((a) => (a.year === 2026 && a.season === 'winter') || a.aired.from?.startsWith('2026-0'))).toBe(true);
        expect(ordered(data.map((a) => a.members), 'desc')).toBe(true);
        const upcoming = await all((p) => store.getSeasonUpcoming({ ...airing, ...p }));
        expect(upcoming.total).toBe(demoData.anime.filter((a) => a.status === 'Not yet aired').length);
      });

      it('schedules airing TV anime by broadcast day, fewest members first', async () => {
        const every = await all((p) => store.getSchedules({ ...airing, ...p }));
        expect(every.total).toBe(demoData.anime.filter((a) => a.type === 'TV' && a.status === 'Currently Airing').length);
        expect(ordered(every.data.map((a) => a.members), 'asc')).toBe(true);
        const day = every.data.find((a) => a.broadcast.day)!.broadcast.day!;
        const filtered = await all((p) => store.getSchedules({ ...airing, day: day.slice(0, -1).toLowerCase() as 'monday', ...p }));
        expect(filtered.total).toBeGreaterThan(0);
        expect(filtered.data.every((a) => a.broadcast.day === day)).toBe(true);
      });

      it('filters the top lists by SFW, rating and airing', async () => {
        const popular = await all((p) => store.getTopAnime({ sfw: 'normal', filter: 'bypopularity', ...p }));
        expect(popular.total).toBeGreaterThan(0);
        expect(popular.data.every((a) => shown(sfwClass(a), 'normal'))).toBe(true);
        const air = await all((p) => store.getTopAnime({ sfw: 'off', filter: 'airing', ...p }));
        expect(air.data.every((a) => a.airing)).toBe(true);
        const rated = await all((p) => store.getTopAnime({ sfw: 'off', ratings: ['G - All Ages', 'PG - Children'], ...p }));
        expect(rated.total).toBeGreaterThan(0);
        expect(rated.data.every((a) => a.rating === 'G - All Ages' || a.rating === 'PG - Children')).toBe(true);
      });

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
      const TOP_ANIME: Record<string, Expect> = {
        ...shared,
        airing: { key: 'score', sort: 'desc', keep: (e) => (e as Anime).airing },
        upcoming: upcoming('Not yet aired'),
      };
      const TOP_MANGA: Record<string, Expect> = {
        ...shared,
        publishing: { key: 'members', sort: 'desc', keep: (e) => (e as Manga).publishing },
        upcoming: upcoming('Not yet published'),
      };
      /** Every page of a list at 25 a page, checked page by page, and the whole list. */
      async function pages<T extends Media>(fetchPage: (p: Paging) => Promise<Page<T>>): Promise<{ data: T[]; total: number }> {
        const data: T[] = [];
        const first = await fetchPage({ page: 1, limit: 25 });
        const last = Math.max(1, Math.ceil(first.total / 25));
        for (let page = 1; page <= last; page++) {
          const result = page === 1 ? first : await fetchPage({ page, limit: 25 });
          expect(result.total).toBe(first.total);
          expect(result.data.length).toBe(page < last ? 25 : first.total - 25 * (last - 1));
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
          const inOrder =
            x === y ? a.mal_id < b.mal_id : y === null ? true : x === null ? false : rule.sort === 'asc' ? x < y : x > y;
          if (!inOrder) throw new Error(`${label}: ${a.mal_id} (${rule.key} ${x}) is listed before ${b.mal_id} (${rule.key} ${y})`);
        }
      }

      for (const [kind, table] of [['anime', TOP_ANIME], ['manga', TOP_MANGA]] as const) {
        it(`lists every ${kind} top list in Jikan's order, approved entries only, on every page`, async () => {
          const records: readonly Media[] = kind === 'anime' ? demoData.anime : (demoData.manga ?? []);
          const types = [undefined, ...new Set(records.map((e) => e.type).filter((t): t is string => t !== null))];
          let checked = 0;
          for (const [filter, rule] of Object.entries(table)) {
            for (const type of types) {
              const query = { sfw: 'off' as const, ...(filter === 'plain' ? {} : { filter }), ...(type ? { types: [type] } : {}) };
              const label = `${kind} filter=${filter} type=${type ?? '(any)'}`;
              const { data, total } = await pages<Media>((p) =>
                kind === 'anime'
                  ? store.getTopAnime({ ...query, ...p } as Parameters<Catalogue['getTopAnime']>[0])
                  : store.getTopManga({ ...query, ...p } as Parameters<Catalogue['getTopManga']>[0]),
              );
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
        for (const list of [
          await all((p) => store.getTopAnime({ sfw: 'off', ...p })),
          await all((p) => store.getTopManga({ sfw: 'off', ...p })),
        ]) {
          expect(list.total).toBeGreaterThan(0);
          expect(list.data.every((e, i) => i === 0 || e.rank! > list.data[i - 1]!.rank!)).toBe(true);
          expect(list.data.every((e, i) => i === 0 || (e.score ?? 0) <= (list.data[i - 1]!.score ?? 0))).toBe(true);
          expect(list.data.every((e) => e.approved)).toBe(true);
        }
      });

      it('lists top characters and people by favorites, most first', async () => {
        for (const [list, records] of [
          [await all((p) => store.getTopCharacters(p)), demoData.characters ?? []],
          [await all((p) => store.getTopPeople(p)), demoData.people ?? []],
        ] as const) {
          expect(list.total).toBe(records.filter((r) => r.favorites > 0).length);
          expect(list.data.every((r, i) => i === 0 || r.favorites < list.data[i - 1]!.favorites || (r.favorites === list.data[i - 1]!.favorites && r.mal_id > list.data[i - 1]!.mal_id))).toBe(true);
        }
      });

      it('picks random records by the given number, within SFW', async () => {
        const first = await store.getRandomAnime({ sfw: 'off', approval: 'all', pick: 0 });
        const last = await store.getRandomAnime({ sfw: 'off', approval: 'all', pick: 0.9999 });
        expect(first!.mal_id).not.toBe(last!.mal_id);
        for (const pick of [0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.9999]) {
          expect(sfwClass((await store.getRandomAnime({ sfw: 'strict', approval: 'approved', pick }))!)).toBe(0);
          expect(sfwClass((await store.getRandomManga({ sfw: 'normal', approval: 'all', pick }))!)).toBeLessThan(2);
        }
        expect((await store.getRandomCharacter(0.5))!.mal_id).toBeTypeOf('number');
        expect((await store.getRandomPerson(0.5))!.mal_id).toBeTypeOf('number');
      });
    });

    describe('community content and id lists', () => {
      it('lists recent recommendations newest first, within SFW', async () => {
        const recs = await all((p) => store.getRecentRecommendations({ type: 'anime', sfw: 'off', ...p }));
        expect(recs.total).toBe(demoData.recommendations!.filter((r) => r.type === 'anime').length);
        expect(ordered(recs.data.map((r) => r.date), 'desc')).toBe(true);
        const safe = await all((p) => store.getRecentRecommendations({ type: 'anime', sfw: 'normal', ...p }));
        expect(safe.total).toBeLessThan(recs.total);
        expect(safe.data.every((r) => r.entry.every((e) => classOf('anime', e.mal_id) < 2))).toBe(true);
      });

      it('filters and orders reviews', async () => {
        const q = { type: 'anime' as const, preliminary: true, spoilers: true, sfw: 'off' as Mode };
        const every = await all((p) => store.getReviews({ ...q, ...p }));
        expect(every.total).toBe(demoData.reviews!.filter((r) => r.type === 'anime').length);
        expect(ordered(every.data.map((r) => r.reactions.overall), 'desc')).toBe(true);
        const strictRaw = await all((p) => store.getReviews({ ...q, preliminary: false, spoilers: false, sort: 'newest', ...p }));
        expect(strictRaw.data.every((r) => !r.is_preliminary && !r.is_spoiler)).toBe(true);
        expect(ordered(strictRaw.data.map((r) => r.date), 'desc')).toBe(true);
        const safe = await all((p) => store.getReviews({ ...q, sfw: 'strict', ...p }));
        expect(safe.data.every((r) => classOf('anime', r.entry.mal_id) === 0)).toBe(true);
        expect(safe.total).toBeLessThan(every.total);
        const top = await store.getTopReviews({ ...q, type: 'manga', page: 1, limit: 10 });
        expect(top.data.every((r) => r.type === 'manga')).toBe(true);
      });

      it('searches news, articles and stacks, and counts their tags', async () => {
        const news = await all((p) => store.searchNews(p));
        expect(news.total).toBe(demoData.news!.length);
        expect(ordered(news.data.map((n) => n.date), 'desc')).toBe(true);
        const tag = demoData.newsTags![0]!.mal_id;
        const tagged = await all((p) => store.searchNews({ tag, ...p }));
        expect(tagged.total).toBe(demoData.news!.filter((n) => n.tag_ids.includes(tag)).length);
        const tags = await store.listNewsTags();
        expect(tags.find((t) => t.mal_id === tag)!.count).toBe(tagged.total);
        const hit = await store.searchNews({ q: demoData.news![5]!.title, page: 1, limit: 5 });
        expect(ids(hit.data)).toContain(demoData.news![5]!.mal_id);
        const articles = await all((p) => store.searchArticles(p));
        expect(articles.total).toBe(demoData.articles!.length);
        const articleTags = await store.listArticleTags();
        expect(articleTags.reduce((n, t) => n + t.count, 0)).toBe(demoData.articles!.reduce((n, a) => n + a.tag_ids.length, 0));
        const stacks = await all((p) => store.searchStacks(p));
        expect(stacks.total).toBe(demoData.stacks!.length);
        const mangaStacks = await all((p) => store.searchStacks({ type: 'manga', ...p }));
        expect(mangaStacks.data.every((s) => s.type === 'manga')).toBe(true);
        expect(stacks.data.every((s) => s.entries_count === demoData.stacks!.find((x) => x.mal_id === s.mal_id)!.entries.length)).toBe(true);
      });

      it('lists ids with filters, field inclusion and updated_at', async () => {
        const every = await store.listAnimeIds({ sfw: 'off' });
        expect(every.total).toBe(demoData.anime.length);
        expect(every.data).toEqual([...animeById.keys()].sort((a, b) => a - b));
        const safe = await store.listAnimeIds({ sfw: 'normal', types: ['TV'], ratings: ['PG-13 - Teens 13 or older', 'R+ - Mild Nudity'] });
        const expected = demoData.anime.filter((a) => a.type === 'TV' && a.rating === 'PG-13 - Teens 13 or older');
        expect(safe.total).toBe(expected.length);
        const withTitles = await store.listMangaIds({ sfw: 'off', include: ['title', 'status'] });
        expect(withTitles.data[0]).toEqual({ mal_id: demoData.manga![0]!.mal_id, title: demoData.manga![0]!.title, status: demoData.manga![0]!.status });
        const cut = Date.parse('2025-09-01T00:00:00Z');
        const recent = await store.listAnimeIds({ sfw: 'off', updatedSince: cut });
        const updated = demoData.updates!.filter((u) => u.type === 'anime' && Date.parse(u.updated_at) >= cut);
        expect(recent.total).toBe(updated.length);
        const deleted = await store.getDeletedAnimeIds();
        expect(deleted.length).toBe(demoData.deletedAnimeIds!.length);
        expect(ordered(deleted, 'asc')).toBe(true);
        expect((await store.getDeletedMangaIds()).length).toBe(demoData.deletedMangaIds!.length);
      });
    });
  });
}
