/**
 * `GET /v1/characters` and `GET /v1/people` (search), one record, and its `full`, `anime`, `manga`,
 * `voices`, `pictures` and `articles`: the same rows for both kinds. The record itself is always
 * returned; `sfw` filters the anime and manga it refers to (spec, SFW rule 3), and a person's voice
 * roles by their anime.
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { kindMethod } from './entry-rows.js';
import { namedSearchQuery, sfwQuery, subListQuery } from './params.js';
import * as res from '../../schemas/responses.js';
import { byIdRow, pageRow, subPageRow } from './rows.js';

/** The query of `GET /v1/characters`. */
export const characterSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', favorites: 'favorites' });

/** The query of `GET /v1/people`. */
export const personSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', birthday: 'birthday', favorites: 'favorites' });

/** What differs between the two kinds' rows: the path, the search, and whether voices take `sfw`. */
const KINDS = {
  character: {
    name: 'Character',
    responses: {
      '': res.characterResponseSchema,
      Full: res.characterFullResponseSchema,
      Anime: res.characterAnimeResponseSchema,
      Manga: res.characterMangaResponseSchema,
      Pictures: res.characterPicturesResponseSchema,
    },
    at: '/v1/characters',
    search: pageRow('/v1/characters', 'full', { query: characterSearchQuery, response: res.characterListResponseSchema }, (search, { catalogue }) => catalogue.searchCharacters(search)),
    voices: byIdRow('character', '/v1/characters/:id/voices', { response: res.characterVoicesResponseSchema }, (id, _, { catalogue }) => catalogue.getCharacterVoices(id)),
  },
  person: {
    name: 'Person',
    responses: {
      '': res.personResponseSchema,
      Full: res.personFullResponseSchema,
      Anime: res.personAnimeResponseSchema,
      Manga: res.personMangaResponseSchema,
      Pictures: res.personPicturesResponseSchema,
    },
    at: '/v1/people',
    search: pageRow('/v1/people', 'full', { query: personSearchQuery, response: res.personListResponseSchema }, (search, { catalogue }) => catalogue.searchPeople(search)),
    voices: byIdRow('person', '/v1/people/:id/voices', { query: sfwQuery, response: res.personVoicesResponseSchema }, (id, sfw, { catalogue }) => catalogue.getPersonVoices(id, sfw)),
  },
} as const;

/**
 * The rows of characters or people, in matching order.
 * @param kind - `character` or `person`.
 * @returns The search, then `/:id` and its sub-resources.
 */
export function namedRows(kind: keyof typeof KINDS): CatalogueRoute[] {
  const { name, at, search, voices, responses } = KINDS[kind];
  const sub = (suffix: string) => `${at}/:id/${suffix.toLowerCase()}`;
  return [
    search,
    byIdRow(kind, `${at}/:id`, { response: responses[''] }, (id, _, { catalogue }) => kindMethod(catalogue, name, '')(id)),
    ...(['Full', 'Anime', 'Manga'] as const).map((suffix) =>
      byIdRow(kind, sub(suffix), { query: sfwQuery, response: responses[suffix] }, (id, sfw, { catalogue }) => kindMethod(catalogue, name, suffix)(id, sfw)),
    ),
    voices,
    byIdRow(kind, sub('Pictures'), { response: responses.Pictures }, (id, _, { catalogue }) => kindMethod(catalogue, name, 'Pictures')(id)),
    subPageRow(kind, sub('Articles'), 'full', { query: subListQuery, response: res.entryArticlesResponseSchema }, (id, paging, { catalogue }) => kindMethod(catalogue, name, 'Articles')(id, paging)),
  ];
}
