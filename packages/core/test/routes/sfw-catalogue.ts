/**
 * A small catalogue built to test SFW filtering on every endpoint that has it: a safe root anime and
 * manga, one entry of each adult kind (Rx, R+, Hentai, Erotica) and one Ecchi entry, linked to the
 * roots through every kind of reference (relations, recommendations, cast, staff, voice roles, news,
 * reviews, stacks, articles). Airing and upcoming copies exist for the season and schedule lists.
 */
import type { Anime, Reference } from '../../src/entry-schemas.js';
import type { CatalogueData } from '../../src/entry-store.js';
import type { Character, Manga, Person } from '../../src/schemas/index.js';
import { makeAnime, ECCHI, EROTICA, HENTAI } from '../fixtures.js';

const nullImages = { image_url: null, small_image_url: null, large_image_url: null };
const images = { jpg: { ...nullImages }, webp: { ...nullImages } };
const mangaGenre = (ref: Reference): Reference => ({ ...ref, type: 'manga' });

/** The kinds of entry, and what SFW does to each: `adult` gone with `sfw`, `ecchi` gone only with strict. */
export const KINDS = ['safe', 'rx', 'rplus', 'hentai', 'erotica', 'ecchi'] as const;
export type Kind = (typeof KINDS)[number];
/** Kinds removed by normal SFW (rule 1). */
export const ADULT: readonly Kind[] = ['rx', 'rplus', 'hentai', 'erotica'];

/** Airing anime ids by kind (1 = the root). */
export const AIRING = { safe: 1, rx: 2, rplus: 3, hentai: 4, erotica: 5, ecchi: 6 } as const satisfies Record<Kind, number>;
/** Not-yet-aired anime ids by kind. */
export const UPCOMING = { safe: 11, rx: 12, rplus: 13, hentai: 14, erotica: 15, ecchi: 16 } as const satisfies Record<Kind, number>;
/** Manga ids by kind (101 = the root); manga have no rating, so `rx` and `rplus` are safe-looking Hentai/Erotica copies. */
export const MANGA = { safe: 101, rx: 102, rplus: 103, hentai: 104, erotica: 105, ecchi: 106 } as const satisfies Record<Kind, number>;

export const ROOT_ANIME = AIRING.safe;
export const ROOT_MANGA = MANGA.safe;
export const CHARACTER = 201;
export const PERSON = 301;
/** News ids: one safe item about the root, one about the root and each other kind. */
export const NEWS = { safe: 401, rx: 402, rplus: 403, hentai: 404, erotica: 405, ecchi: 406 } as const satisfies Record<Kind, number>;
export const NEWS_ALL = 410;
export const STACK = 501;
export const ARTICLE = 601;

/** The season the airing anime premiered in; `now` for `/v1/seasons/now` falls inside it. */
export const SEASON = { year: 2024, season: 'spring' as const };
export const NOW = Date.UTC(2024, 4, 15, 12);

function animeOf(kind: Kind, id: number, upcoming: boolean): Anime {
  const tags = { genres: [] as Reference[], explicit_genres: [] as Reference[] };
  if (kind === 'hentai') tags.explicit_genres.push(HENTAI);
  if (kind === 'erotica') tags.explicit_genres.push(EROTICA);
  if (kind === 'ecchi') tags.genres.push(ECCHI);
  const rating = kind === 'rx' ? 'Rx - Hentai' : kind === 'rplus' ? 'R+ - Mild Nudity' : 'PG-13 - Teens 13 or older';
  return makeAnime({
    mal_id: id,
    title: `${upcoming ? 'Upcoming' : 'Airing'} ${kind}`,
    rating,
    ...tags,
    type: 'TV',
    status: upcoming ? 'Not yet aired' : 'Currently Airing',
    airing: !upcoming,
    episodes: upcoming ? null : 12,
    season: upcoming ? null : SEASON.season,
    year: upcoming ? null : SEASON.year,
    aired: upcoming
      ? { from: null, to: null, prop: { from: { day: null, month: null, year: null }, to: { day: null, month: null, year: null } }, string: 'Not available' }
      : {
          from: '2024-04-05T00:00:00+00:00',
          to: null,
          prop: { from: { day: 5, month: 4, year: 2024 }, to: { day: null, month: null, year: null } },
          string: 'Apr 5, 2024 to ?',
        },
    broadcast: upcoming
      ? { day: null, time: null, timezone: null, string: 'Unknown' }
      : { day: 'Mondays', time: '23:00', timezone: 'Asia/Tokyo', string: 'Mondays at 23:00 (JST)' },
    score: upcoming ? null : 7 + id / 100,
    scored_by: upcoming ? null : 1000,
    members: 10_000 + id,
    favorites: 100 + id,
  });
}

function mangaOf(kind: Kind, id: number): Manga {
  const genres: Reference[] = [];
  const explicit: Reference[] = [];
  if (kind === 'hentai' || kind === 'rx') explicit.push(mangaGenre(HENTAI));
  if (kind === 'erotica' || kind === 'rplus') explicit.push(mangaGenre(EROTICA));
  if (kind === 'ecchi') genres.push(mangaGenre(ECCHI));
  return {
    mal_id: id,
    url: `https://myanimelist.net/manga/${id}`,
    images,
    approved: true,
    titles: [{ type: 'Default', title: `Manga ${kind}` }],
    title: `Manga ${kind}`,
    title_english: null,
    title_japanese: null,
    title_synonyms: [],
    type: 'Manga',
    chapters: 10,
    volumes: 1,
    status: 'Publishing',
    publishing: true,
    published: {
      from: '2020-01-01T00:00:00+00:00',
      to: null,
      prop: { from: { day: 1, month: 1, year: 2020 }, to: { day: null, month: null, year: null } },
      string: 'Jan 1, 2020 to ?',
    },
    score: 7 + id / 1000,
    scored: 7 + id / 1000,
    scored_by: 1000,
    rank: id,
    popularity: id,
    members: 5000 + id,
    favorites: 50 + id,
    synopsis: null,
    background: null,
    authors: [],
    serializations: [],
    genres,
    explicit_genres: explicit,
    themes: [],
    demographics: [],
  };
}

const character: Character = {
  mal_id: CHARACTER,
  url: `https://myanimelist.net/character/${CHARACTER}`,
  images: { jpg: { image_url: null, small_image_url: null }, webp: { image_url: null, small_image_url: null } },
  name: 'Test Character',
  name_kanji: null,
  nicknames: [],
  favorites: 10,
  about: null,
};

const person: Person = {
  mal_id: PERSON,
  url: `https://myanimelist.net/people/${PERSON}`,
  website_url: null,
  images: { jpg: { image_url: null } },
  name: 'Test Person',
  given_name: null,
  family_name: null,
  alternate_names: [],
  birthday: null,
  favorites: 10,
  about: null,
};

const user = { username: 'tester', url: 'https://myanimelist.net/profile/tester', images: { jpg: { image_url: null }, webp: { image_url: null } } };
const reactions = { overall: 1, nice: 1, love_it: 0, funny: 0, confusing: 0, informative: 0, well_written: 0, creative: 0 };
const others = KINDS.filter((k) => k !== 'safe');

/** A recommendation that links two entries of one kind. */
function recommendation(type: 'anime' | 'manga', from: number, to: number) {
  return {
    type,
    entry_ids: [from, to] as [number, number],
    content: 'Alike.',
    date: '2024-05-01T00:00:00+00:00',
    user: { url: user.url, username: user.username },
  };
}

/** A review of the entry; `progress` is episodes watched or chapters read. */
function review(type: 'anime' | 'manga', entryId: number, id: number, progress: number) {
  return {
    type,
    entry_id: entryId,
    mal_id: id,
    url: `https://myanimelist.net/reviews.php?id=${id}`,
    reactions,
    date: '2024-05-01T00:00:00+00:00',
    review: 'Fine.',
    score: 7,
    tags: ['Recommended'],
    is_spoiler: false,
    is_preliminary: false,
    progress,
    user,
  };
}

function news(id: number, animeIds: number[], mangaIds: number[]) {
  return {
    mal_id: id,
    url: `https://myanimelist.net/news/${id}`,
    title: `News ${id}`,
    date: `2024-05-${String(id % 28 + 1).padStart(2, '0')}T00:00:00+00:00`,
    author_username: 'tester',
    author_url: user.url,
    forum_url: `https://myanimelist.net/forum/?topicid=${id}`,
    images: { jpg: { image_url: null } },
    comments: 0,
    excerpt: 'News.',
    content: 'News.',
    tag_ids: [],
    anime_ids: animeIds,
    manga_ids: mangaIds,
  };
}

/** The catalogue. */
export const sfwCatalogue: CatalogueData = {
  anime: [...KINDS.map((k) => animeOf(k, AIRING[k], false)), ...KINDS.map((k) => animeOf(k, UPCOMING[k], true))],
  manga: KINDS.map((k) => mangaOf(k, MANGA[k])),
  characters: [character],
  people: [person],
  animeCharacters: KINDS.map((k) => ({
    anime_id: AIRING[k],
    character_id: CHARACTER,
    role: 'Main',
    voice_actors: [{ person_id: PERSON, language: 'Japanese' }],
  })),
  mangaCharacters: KINDS.map((k) => ({ manga_id: MANGA[k], character_id: CHARACTER, role: 'Main' })),
  animeStaff: KINDS.map((k) => ({ anime_id: AIRING[k], person_id: PERSON, positions: ['Director'] })),
  mangaStaff: KINDS.map((k) => ({ manga_id: MANGA[k], person_id: PERSON, position: 'Story & Art' })),
  relations: [
    ...others.map((k) => ({ from_type: 'anime' as const, from_id: ROOT_ANIME, relation: 'Side Story', to_type: 'anime' as const, to_id: AIRING[k] })),
    ...others.map((k) => ({ from_type: 'anime' as const, from_id: ROOT_ANIME, relation: 'Adaptation', to_type: 'manga' as const, to_id: MANGA[k] })),
    ...others.map((k) => ({ from_type: 'manga' as const, from_id: ROOT_MANGA, relation: 'Side Story', to_type: 'manga' as const, to_id: MANGA[k] })),
    ...others.map((k) => ({ from_type: 'manga' as const, from_id: ROOT_MANGA, relation: 'Adaptation', to_type: 'anime' as const, to_id: AIRING[k] })),
  ],
  recommendations: [
    ...others.map((k) => recommendation('anime', ROOT_ANIME, AIRING[k])),
    ...others.map((k) => recommendation('manga', ROOT_MANGA, MANGA[k])),
  ],
  reviews: [
    ...KINDS.map((k, i) => review('anime', AIRING[k], 700 + i, 12)),
    ...KINDS.map((k, i) => review('manga', MANGA[k], 800 + i, 10)),
  ],
  news: [
    ...KINDS.map((k) => news(NEWS[k], k === 'safe' ? [ROOT_ANIME] : [ROOT_ANIME, AIRING[k]], k === 'safe' ? [ROOT_MANGA] : [ROOT_MANGA, MANGA[k]])),
    news(
      NEWS_ALL,
      KINDS.map((k) => AIRING[k]),
      KINDS.map((k) => MANGA[k]),
    ),
  ],
  stacks: [
    {
      mal_id: STACK,
      url: `https://myanimelist.net/stacks/${STACK}`,
      title: 'Everything',
      description: 'All kinds.',
      type: 'mixed',
      user: { url: user.url, username: user.username },
      images: { jpg: { image_url: null } },
      restacks: 0,
      created_at: '2024-05-01T00:00:00+00:00',
      entries: [
        ...KINDS.map((k) => ({ type: 'anime' as const, mal_id: AIRING[k], comment: null })),
        ...KINDS.map((k) => ({ type: 'manga' as const, mal_id: MANGA[k], comment: null })),
      ],
    },
  ],
  articles: [
    {
      mal_id: ARTICLE,
      url: `https://myanimelist.net/featured/${ARTICLE}`,
      title: 'Everything',
      date: '2024-05-01T00:00:00+00:00',
      author_username: 'tester',
      author_url: user.url,
      images: { jpg: { image_url: null } },
      excerpt: 'All kinds.',
      views: 1,
      comments: 0,
      content: 'All kinds.',
      tag_ids: [],
      anime_ids: KINDS.map((k) => AIRING[k]),
      manga_ids: KINDS.map((k) => MANGA[k]),
      character_ids: [CHARACTER],
      person_ids: [PERSON],
    },
  ],
};
