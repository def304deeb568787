/**
 * A small catalogue for title-search tests shared by the memory store's and the PostgreSQL store's
 * tests: real MAL titles (default, English, synonyms) of anime and manga whose searches once went
 * wrong, on records copied from the demo data, with the searches and what they must answer; and a
 * few made-up titles of the kind the full-scale benchmark set generates (short titles over a small
 * vocabulary, the same words in other orders), where a title one edit from the whole query competes
 * with titles holding its words.
 * @module
 */
import { demoData } from '@catalogue-api/demo-data';
import type { Anime, Manga } from '../src/entry-schemas.js';
import type { CatalogueData } from '../src/entry-store.js';

type Titles = { title: string; english?: string; synonyms?: string[]; popularity: number };

const titlesOf = (mal_id: number, t: Titles) => ({
  mal_id,
  url: `https://myanimelist.net/${mal_id}`,
  title: t.title,
  title_english: t.english ?? null,
  title_japanese: null,
  title_synonyms: t.synonyms ?? [],
  titles: [{ type: 'Default', title: t.title }, ...(t.english ? [{ type: 'English', title: t.english }] : [])],
  popularity: t.popularity,
  approved: true,
});

const anime = (mal_id: number, t: Titles): Anime => ({ ...demoData.anime[0]!, ...titlesOf(mal_id, t) });
const manga = (mal_id: number, t: Titles): Manga => ({ ...demoData.manga![0]!, ...titlesOf(mal_id, t) });

/** Anime and manga of the title-search cases (nothing else). */
export const titleSearchData: CatalogueData & { anime: Anime[]; manga: Manga[] } = {
  anime: [
    anime(52991, { title: 'Sousou no Frieren', english: "Frieren: Beyond Journey's End", popularity: 150 }),
    anime(59978, { title: 'Sousou no Frieren 2nd Season', english: "Frieren: Beyond Journey's End Season 2", popularity: 1500 }),
    anime(40839, { title: 'Kanojo, Okarishimasu', english: 'Rent-a-Girlfriend', synonyms: ['Kanokari'], popularity: 300 }),
    anime(10719, { title: 'Boku wa Tomodachi ga Sukunai', english: "Haganai: I don't have many friends", popularity: 400 }),
    anime(31240, { title: 'Re:Zero kara Hajimeru Isekai Seikatsu', english: 'Re:ZERO -Starting Life in Another World-', popularity: 20 }),
    anime(16498, { title: 'Shingeki no Kyojin', english: 'Attack on Titan', synonyms: ['AoT', 'SnK'], popularity: 1 }),
    anime(21, { title: 'One Piece', english: 'One Piece', popularity: 19 }),
    anime(30276, { title: 'One Punch Man', english: 'One Punch Man', synonyms: ['One Punch-Man', 'One-Punch Man', 'OPM'], popularity: 5 }),
  ],
  manga: [
    manga(126287, { title: 'Sousou no Frieren', english: "Frieren: Beyond Journey's End", popularity: 93 }),
    manga(104565, { title: 'Kanojo, Okarishimasu', english: 'Rent-A-Girlfriend', synonyms: ['Kanokari'], popularity: 300 }),
    manga(10087, { title: 'Boku wa Tomodachi ga Sukunai', english: "Haganai: I don't have many friends", popularity: 800 }),
    manga(23390, { title: 'Shingeki no Kyojin', english: 'Attack on Titan', synonyms: ['AoT', 'SnK'], popularity: 2 }),
    manga(13, { title: 'One Piece', english: 'One Piece', popularity: 4 }),
    manga(44347, { title: 'One Punch-Man', english: 'One-Punch Man', synonyms: ['Onepunchman', 'Onepanman', 'OPM'], popularity: 6 }),
    // Made up: the same words in another order, a longer title starting with the query, a title
    // holding it after its first word.
    manga(900001, { title: 'Tenshi Yoru', popularity: 9000 }),
    manga(900002, { title: 'Yoru Tenshi', popularity: 900 }),
    manga(900003, { title: 'Densetsu wa De', popularity: 9001 }),
    manga(900004, { title: 'Densetsu wa Sekai', popularity: 901 }),
    manga(900005, { title: 'Kaze Ni', popularity: 902 }),
    manga(900006, { title: 'Monogatari Kaze Hi', popularity: 9002 }),
    manga(900007, { title: 'Kaze Hoshi wa Yume', popularity: 9003 }),
    manga(900008, { title: 'Wa Kaze Hoshi', popularity: 903 }),
    manga(900009, { title: 'Kobato', popularity: 9004 }),
    manga(900010, { title: 'Kobito Zukan', popularity: 904 }),
  ],
};

/** One search and its answer: exactly `ids` in that order, or `first` at the top, or `starts` the answer. */
export interface TitleSearchCase {
  kind: 'anime' | 'manga';
  q: string;
  /** Every hit, in order. */
  ids?: number[];
  /** The top hit. */
  first?: number;
  /** The first hits, in order. */
  starts?: number[];
}

/** The searches: an English title finds a manga; fuzzy junk does not follow word matches. */
export const TITLE_SEARCH_CASES: TitleSearchCase[] = [
  { kind: 'manga', q: 'attack on titan', ids: [23390] },
  { kind: 'anime', q: 'attack on titan', ids: [16498] },
  { kind: 'anime', q: 'frieren', ids: [52991, 59978] },
  { kind: 'manga', q: 'frieren', ids: [126287] },
  { kind: 'manga', q: 'one piece', first: 13 },
  { kind: 'anime', q: 'one piece', first: 21 },
  { kind: 'manga', q: 'frieeren', ids: [126287] },
  // No trigram stage finds a swap in a short word: the one-edit fallback does, in both stores.
  { kind: 'manga', q: 'pnuch', ids: [44347] },
  { kind: 'anime', q: 'pnuch', ids: [30276] },
  // A title one edit from the whole query comes first when the slip is in a word of three letters
  // or more, though a more popular title holds the same words ("tensji" is not "yoru").
  { kind: 'manga', q: 'tensji yoru', first: 900001 },
  { kind: 'manga', q: 'densetsi wa de', first: 900003 },
  // A slip in a two-letter word: a title holding the query's words whole comes before the title
  // one edit away, and that title before those where the query's last word only starts a longer one.
  { kind: 'manga', q: 'densetsu wa se', starts: [900003, 900004] },
  { kind: 'manga', q: 'kaze hi', starts: [900006, 900005] },
  // Among close hits, the title holding more of the query's words and neighbouring pairs comes first:
  // the same words in the query's order before the more popular title holding them in another.
  { kind: 'manga', q: 'kaze hoshi wa gimu', first: 900007 },
  // A one-word title one edit from a one-word query, sharing too few trigrams for word similarity
  // 0.5, while another title starts with the query: the edit index finds it.
  { kind: 'manga', q: 'kobito', ids: [900009, 900010] },
];
