/**
 * The character, person, producer, magazine, genre, season, schedule, top, random and community
 * methods (`listMethods`) answer byte for byte the same over the plain reference record store as
 * over the indexed memory store (until the seam replaced it, the old endpoint-shaped memory store,
 * which they matched call for call): every method, over a battery of arguments (every id and unknown ones, every SFW mode,
 * filter, order and page past the end), on the demo data and on a variant stored in reverse order
 * with some referenced entries, a character and a person missing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/index.js';
import { catalogueOver, createRecordStore, loadCatalogue, type CatalogueData, type Catalogue } from '../src/entry-store.js';
import { listMethods, type ListMethods } from '../src/catalogue/lists.js';
import { demoData } from '../../demo-data/src/index.js';

type Args = readonly unknown[];
const MODES = ['off', 'normal', 'strict'] as const;
const APPROVALS = ['approved', 'all', 'unapproved'] as const;
const KINDS = ['anime', 'manga'] as const;
const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;
const DAYS = [undefined, 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'other', 'unknown'] as const;
const PICKS = [0, 0.5, 0.999, 0.25, 1, -0.5];
const PAGINGS = [
  { page: 1, limit: 25 },
  { page: 2, limit: 25 },
  { page: 3, limit: 7 },
  { page: 1, limit: 1 },
  { page: 40, limit: 25 },
  { page: 1000, limit: 25 },
];
const FEW_PAGINGS = [
  { page: 1, limit: 25 },
  { page: 2, limit: 1 },
  { page: 99, limit: 25 },
];
const UNKNOWN = [0, -1, 999_999_999, 1.5];

/** Every combination of some option lists, as objects. */
function cross(options: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [name, values] of Object.entries(options)) out = out.flatMap((o) => values.map((v) => (v === undefined ? { ...o } : { ...o, [name]: v })));
  return out;
}
const distinct = <T>(list: readonly T[]) => [...new Set(list)];
const ids = (list: readonly { mal_id: number }[] | undefined) => [...(list ?? []).map((r) => r.mal_id), ...UNKNOWN];
const perId = (list: readonly { mal_id: number }[] | undefined, ...rest: readonly (readonly unknown[])[]): Args[] =>
  rest.reduce<Args[]>((acc, values) => acc.flatMap((a) => values.map((v) => [...a, v])), ids(list).map((id) => [id]));

/** The named-record searches: text, order, direction, letter and page. */
function namedSearches(orders: readonly string[], queries: readonly (string | undefined)[]): Args[] {
  return cross({ q: queries, orderBy: [undefined, ...orders], sort: ['asc', 'desc'], letter: [undefined, 'a', 'N', 'z', '', '('], paging: FEW_PAGINGS }).map(
    ({ paging, ...s }) => [{ ...s, ...(paging as object) }],
  );
}

/** Every season that has anime, and some that have none, with each filter on its own and a few together. */
function seasonQueries(data: CatalogueData): Args[] {
  const years = distinct(data.anime!.flatMap((a) => [a.year, a.aired.from ? Number(a.aired.from.slice(0, 4)) : null]).filter((y): y is number => y !== null));
  const base = { sfw: 'off', approval: 'approved', page: 1, limit: 25 };
  const everySeason = cross({ year: [...years, 1900, 2999], season: SEASONS, continuing: [undefined, true] }).map((q) => [{ ...base, ...q }]);
  const busiest = [...years].sort((a, b) => b - a).slice(0, 2);
  const filters = cross({
    year: busiest,
    season: SEASONS,
    continuing: [undefined, false, true],
    sfw: MODES,
    approval: APPROVALS,
    kids: [undefined, true, false],
    types: [undefined, ['TV', 'OVA'], []],
    paging: [{ page: 1, limit: 25 }, { page: 2, limit: 5 }],
  }).map(({ paging, ...q }) => [{ ...q, ...(paging as object) }]);
  return [...everySeason, ...filters];
}

/** Filters shared by upcoming and schedules. */
const AIRING = { sfw: MODES, approval: APPROVALS, kids: [undefined, true, false], types: [undefined, ['TV'], ['Movie', 'ONA'], []] };
const withPaging = (options: Record<string, readonly unknown[]>, pagings = PAGINGS): Args[] =>
  cross({ ...options, paging: pagings }).map(({ paging, ...q }) => [{ ...q, ...(paging as object) }]);

/** Every method's arguments over a dataset. */
function battery(data: CatalogueData): Record<keyof ListMethods, Args[]> {
  const animeTypes = distinct(data.anime!.map((a) => a.type));
  const mangaTypes = distinct((data.manga ?? []).map((m) => m.type));
  const ratings = distinct(data.anime!.map((a) => a.rating)).filter((r) => r !== null);
  const newsTagIds = [undefined, ...ids(data.newsTags)];
  const articleTagIds = [undefined, ...ids(data.articleTags)];
  const postQueries = [undefined, 'naruto', 'staff picks', 'demo', 'a', 'zzzzqx', ''];
  const nameQueries = [undefined, 'naruto', 'a', 'sa', 'luffy', 'generated', 'zzzzqx', 'Monkey D', ''];
  const reviews = withPaging({ type: KINDS, sort: [undefined, 'mostVoted', 'newest', 'oldest'], preliminary: [true, false], spoilers: [true, false], sfw: MODES }, FEW_PAGINGS);
  return {
    getCharacter: perId(data.characters),
    searchCharacters: namedSearches(['mal_id', 'name', 'favorites'], nameQueries),
    getCharacterFull: perId(data.characters, MODES),
    getCharacterAnime: perId(data.characters, MODES),
    getCharacterManga: perId(data.characters, MODES),
    getCharacterVoices: perId(data.characters),
    getCharacterPictures: perId(data.characters),
    getCharacterArticles: perId(data.characters, FEW_PAGINGS),
    getPerson: perId(data.people),
    searchPeople: namedSearches(['mal_id', 'name', 'birthday', 'favorites'], nameQueries),
    getPersonFull: perId(data.people, MODES),
    getPersonAnime: perId(data.people, MODES),
    getPersonManga: perId(data.people, MODES),
    getPersonVoices: perId(data.people, MODES),
    getPersonPictures: perId(data.people),
    getPersonArticles: perId(data.people, FEW_PAGINGS),
    getProducer: perId(data.producers),
    searchProducers: namedSearches(['mal_id', 'count', 'favorites', 'established'], [undefined, 'toei', 'studio', 'pictures', 'aniplex', 'a', 'o', 'zzzzqx', '']),
    getProducerFull: perId(data.producers),
    getProducerExternal: perId(data.producers),
    searchMagazines: namedSearches(['mal_id', 'name', 'count'], [undefined, 'jump', 'shounen', 'magazine', 'zzzzqx', 'a', '']),
    listGenres: cross({ kind: KINDS, category: [undefined, 'genres', 'explicit_genres', 'themes', 'demographics'] }).map((o) => [o.kind, o.category]),
    listSeasons: [[]],
    getSeason: seasonQueries(data),
    getSeasonUpcoming: withPaging(AIRING),
    getSchedules: withPaging({ ...AIRING, day: DAYS }, FEW_PAGINGS),
    getTopAnime: withPaging({
      filter: [undefined, 'airing', 'upcoming', 'bypopularity', 'favorite'],
      types: [undefined, ...animeTypes.map((t) => [t]), ['TV', 'Movie'], []],
      ratings: [undefined, ...ratings.map((r) => [r]), ['R+ - Mild Nudity', 'Rx - Hentai']],
      sfw: MODES,
    }, FEW_PAGINGS),
    getTopManga: withPaging({ filter: [undefined, 'publishing', 'upcoming', 'bypopularity', 'favorite'], types: [undefined, ...mangaTypes.map((t) => [t]), ['Manga', 'Novel'], []], sfw: MODES }),
    getTopCharacters: PAGINGS.map((p) => [p]),
    getTopPeople: PAGINGS.map((p) => [p]),
    getRandomAnime: cross({ sfw: MODES, approval: APPROVALS, pick: PICKS }).map((q) => [q]),
    getRandomManga: cross({ sfw: MODES, approval: APPROVALS, pick: PICKS }).map((q) => [q]),
    getRandomCharacter: PICKS.map((p) => [p]),
    getRandomPerson: PICKS.map((p) => [p]),
    getRecentRecommendations: withPaging({ type: KINDS, sfw: MODES }),
    getReviews: reviews,
    getTopReviews: reviews,
    searchNews: withPaging({ q: postQueries, tag: newsTagIds }, FEW_PAGINGS),
    getNews: perId(data.news, MODES),
    listNewsTags: [[]],
    searchArticles: withPaging({ q: postQueries, tag: articleTagIds }, FEW_PAGINGS),
    getArticle: perId(data.articles, MODES),
    listArticleTags: [[]],
    searchStacks: withPaging({ q: [undefined, 'demo', 'every rating', 'stack', 'zzzzqx', ''], type: [undefined, 'anime', 'manga', 'mixed'] }, FEW_PAGINGS),
    getStack: perId(data.stacks, MODES),
  };
}

/**
 * The demo data stored in reverse order (so no answer may lean on the stored order where the memory
 * store orders by a key), without two referenced anime, two referenced manga, a cast character and
 * a voice actor (so every list must leave out what it cannot show).
 */
function variant(): CatalogueData {
  const recs = demoData.recommendations!;
  const gone = {
    anime: new Set([recs.find((r) => r.type === 'anime')!.entry_ids[1], demoData.reviews!.find((r) => r.type === 'anime')!.entry_id]),
    manga: new Set([recs.find((r) => r.type === 'manga')!.entry_ids[0], demoData.reviews!.find((r) => r.type === 'manga')!.entry_id]),
    characters: new Set([demoData.animeCharacters![0]!.character_id]),
    people: new Set([demoData.animeCharacters!.find((r) => r.voice_actors.length > 0)!.voice_actors[0]!.person_id]),
  };
  const out: Record<string, readonly unknown[]> = {};
  for (const [name, list] of Object.entries(demoData) as [string, readonly { mal_id?: number }[]][]) {
    const drop = gone[name as keyof typeof gone];
    out[name] = [...list].reverse().filter((r) => !drop?.has(r.mal_id!));
  }
  return out as CatalogueData;
}

const DATASETS: ReadonlyArray<readonly [string, CatalogueData]> = [
  ['demo data', demoData],
  ['demo data reversed, with references missing', variant()],
];

for (const [name, data] of DATASETS) {
  describe(`list methods over the reference store answer as over the memory store: ${name}`, () => {
    const calls = battery(data);
    let over: Catalogue;
    let old: Catalogue;
    beforeAll(async () => {
      over = catalogueOver(await loadCatalogue(createRecordStore(), data));
      old = catalogueOver(createMemoryStore(data));
    });

    it('covers every list method', async () => {
      const methods = Object.keys(listMethods(createRecordStore())).sort();
      expect(methods).toHaveLength(45);
      expect(Object.keys(calls).sort()).toEqual(methods);
    });

    it.each(Object.keys(calls) as (keyof ListMethods)[])('%s', async (method) => {
      const mismatches: string[] = [];
      let answered = 0;
      for (const args of calls[method]) {
        const call = (store: Catalogue) => (store[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        const [got, want] = [JSON.stringify(await call(over)), JSON.stringify(await call(old))];
        if (got !== want) mismatches.push(`${method}(${JSON.stringify(args)}):\n  got  ${got?.slice(0, 300)}\n  want ${want?.slice(0, 300)}`);
        if (want !== undefined && want !== '[]' && !want.startsWith('{"data":[]')) answered++;
      }
      expect(mismatches.slice(0, 5).join('\n')).toBe('');
      // The battery reaches answers with something in them, not only empty ones.
      expect(answered).toBeGreaterThan(0);
    }, 120_000);
  });
}

