/**
 * A small catalogue for title-search tests shared by the memory store's and the PostgreSQL store's
 * tests: real MAL titles (default, English, synonyms) of anime and manga whose searches once went
 * wrong, on records copied from the demo data, with the searches and what they must answer.
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
  ],
};

/** One search and its answer: exactly `ids` in that order, or `first` at the top. */
export interface TitleSearchCase {
  kind: 'anime' | 'manga';
  q: string;
  /** Every hit, in order. */
  ids?: number[];
  /** The top hit. */
  first?: number;
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
];
