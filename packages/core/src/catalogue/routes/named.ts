/**
 * `GET /v1/characters` and `GET /v1/people` (search), one record, and its `full`, `anime`, `manga`,
 * `voices`, `pictures` and `articles`: the same rows for both kinds. The record itself is always
 * returned; `sfw` filters the anime and manga it refers to (spec, SFW rule 3), and a person's voice
 * roles by their anime.
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { CHARACTER_PARTS, PERSON_PARTS, characterVoicesOf, personVoicesOf } from '../people.js';
import { searchNamed } from '../named.js';
import { namedSearchQuery, sfwQuery, subListQuery } from './params.js';
import * as res from '../../schemas/responses.js';
import { byIdRow, pageRow, subPageRow } from './rows.js';

/** The query of `GET /v1/characters`. */
export const characterSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', favorites: 'favorites' });

/** The query of `GET /v1/people`. */
export const personSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', birthday: 'birthday', favorites: 'favorites' });

/** What differs between the two kinds' rows: the parts, the path, the search, and whether voices take `sfw`. */
const KINDS = {
  character: {
    parts: CHARACTER_PARTS,
    responses: {
      '': res.characterResponseSchema,
      Full: res.characterFullResponseSchema,
      Anime: res.characterAnimeResponseSchema,
      Manga: res.characterMangaResponseSchema,
      Pictures: res.characterPicturesResponseSchema,
    },
    at: '/v1/characters',
    search: pageRow('/v1/characters', 'full', { query: characterSearchQuery, response: res.characterListResponseSchema }, (search, { records }) => searchNamed(records, 'characters', search)),
    voices: byIdRow('character', '/v1/characters/:id/voices', { response: res.characterVoicesResponseSchema }, (id, _, { records }) => characterVoicesOf(records, id)),
  },
  person: {
    parts: PERSON_PARTS,
    responses: {
      '': res.personResponseSchema,
      Full: res.personFullResponseSchema,
      Anime: res.personAnimeResponseSchema,
      Manga: res.personMangaResponseSchema,
      Pictures: res.personPicturesResponseSchema,
    },
    at: '/v1/people',
    search: pageRow('/v1/people', 'full', { query: personSearchQuery, response: res.personListResponseSchema }, (search, { records }) => searchNamed(records, 'people', search)),
    voices: byIdRow('person', '/v1/people/:id/voices', { query: sfwQuery, response: res.personVoicesResponseSchema }, (id, sfw, { records }) => personVoicesOf(records, id, sfw)),
  },
} as const;

/**
 * The rows of characters or people, in matching order.
 * @param kind - `character` or `person`.
 * @returns The search, then `/:id` and its sub-resources.
 */
export function namedRows(kind: keyof typeof KINDS): CatalogueRoute[] {
  const { parts, at, search, voices, responses } = KINDS[kind];
  const sub = (suffix: string) => `${at}/:id/${suffix.toLowerCase()}`;
  return [
    search,
    byIdRow(kind, `${at}/:id`, { response: responses[''] }, (id, _, { records }) => parts[''](records, id)),
    ...(['Full', 'Anime', 'Manga'] as const).map((suffix) =>
      byIdRow(kind, sub(suffix), { query: sfwQuery, response: responses[suffix] }, (id, sfw, { records }) => parts[suffix](records, id, sfw)),
    ),
    voices,
    byIdRow(kind, sub('Pictures'), { response: responses.Pictures }, (id, _, { records }) => parts.Pictures(records, id)),
    subPageRow(kind, sub('Articles'), 'full', { query: subListQuery, response: res.entryArticlesResponseSchema }, (id, paging, { records }) => parts.Articles(records, id, paging)),
  ];
}
