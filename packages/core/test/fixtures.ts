import { trailerInputSchema, type Anime, type Manga, type Reference } from '../src/entry-schemas.js';

const nullImages = { image_url: null, small_image_url: null, large_image_url: null };
/** No trailer: the Jikan v4 fields null, and the v1 statistics fields filled with null as an import does. */
const noTrailer = trailerInputSchema.parse({
  youtube_id: null,
  url: null,
  embed_url: null,
  images: { image_url: null, small_image_url: null, medium_image_url: null, large_image_url: null, maximum_image_url: null },
});

/** A genre reference by MAL id (names from mal-genres.json). */
export const genre = (mal_id: number, name: string): Reference => ({
  mal_id,
  type: 'anime',
  name,
  url: `https://myanimelist.net/anime/genre/${mal_id}/${name}`,
});

export const ACTION = genre(1, 'Action');
export const COMEDY = genre(4, 'Comedy');
export const ECCHI = genre(9, 'Ecchi');
export const HENTAI = genre(12, 'Hentai');
export const EROTICA = genre(49, 'Erotica');
export const SHOUNEN = genre(27, 'Shounen');

/**
 * The fields an anime and a manga fixture open with, in Jikan's order: id, URL, images, what the
 * kind puts after them (`between`), approval and titles.
 */
function head<B extends object>(kind: 'anime' | 'manga', overrides: { mal_id: number; title: string }, between: B) {
  return {
    mal_id: overrides.mal_id,
    url: `https://myanimelist.net/${kind}/${overrides.mal_id}`,
    images: { jpg: { ...nullImages }, webp: { ...nullImages } },
    ...between,
    approved: true,
    titles: [{ type: 'Default', title: overrides.title }],
    title: overrides.title,
    title_english: null,
    title_japanese: null,
    title_synonyms: [] as string[],
  };
}

/** A complete anime record with every field of the spec, overridable. */
export function makeAnime(overrides: Partial<Anime> & Pick<Anime, 'mal_id' | 'title'>): Anime {
  const base: Anime = {
    ...head('anime', overrides, { trailer: noTrailer }),
    type: 'TV',
    source: 'Manga',
    episodes: 12,
    status: 'Finished Airing',
    airing: false,
    aired: {
      from: '2010-04-01T00:00:00+00:00',
      to: '2010-06-30T00:00:00+00:00',
      prop: { from: { day: 1, month: 4, year: 2010 }, to: { day: 30, month: 6, year: 2010 } },
      string: 'Apr 1, 2010 to Jun 30, 2010',
    },
    duration: '24 min per ep',
    rating: 'PG-13 - Teens 13 or older',
    score: 7,
    scored_by: 1000,
    rank: 100,
    popularity: 100,
    members: 10000,
    favorites: 10,
    synopsis: null,
    background: null,
    season: 'spring',
    year: 2010,
    broadcast: { day: null, time: null, timezone: null, string: null },
    producers: [],
    licensors: [],
    studios: [],
    genres: [],
    explicit_genres: [],
    themes: [],
    demographics: [],
  };
  return { ...base, ...overrides };
}

/** A complete manga record, overridable. */
export function makeManga(overrides: Partial<Manga> & Pick<Manga, 'mal_id' | 'title'>): Manga {
  const base: Manga = {
    ...head('manga', overrides, {}),
    type: 'Manga',
    chapters: 100,
    volumes: 10,
    status: 'Finished',
    publishing: false,
    published: {
      from: '2001-01-01T00:00:00+00:00',
      to: '2005-01-01T00:00:00+00:00',
      prop: {
        from: { day: 1, month: 1, year: 2001 },
        to: { day: 1, month: 1, year: 2005 },
      },
      string: 'Jan 1, 2001 to Jan 1, 2005',
    },
    score: 7,
    scored: 7,
    scored_by: 100,
    rank: 500,
    popularity: 5000,
    members: 1000,
    favorites: 1,
    synopsis: null,
    background: null,
    authors: [],
    serializations: [],
    genres: [],
    explicit_genres: [],
    themes: [],
    demographics: [],
  };
  return { ...base, ...overrides };
}
