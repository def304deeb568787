/**
 * `GET /v1/characters` (search), `GET /v1/characters/{id}` and its `full`, `anime`, `manga`, `voices`,
 * `pictures` and `articles`. The character itself is always returned; `sfw` filters the anime and
 * manga it appears in (spec, SFW rule 3).
 * @module
 */
import { parseQuery } from '../query.js';
import type { CharacterSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, fullList, namedSearchQuery, pageOr404, pathId, sfwQuery, subListQuery } from './params.js';

/** The query of `GET /v1/characters`. */
export const characterSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', favorites: 'favorites' });

/** `GET /v1/characters`: search and page through characters. */
export const searchCharacters: CatalogueHandler = async (request, { store }) => {
  const search: CharacterSearch = parseQuery(characterSearchQuery, request.query);
  return fullList(await store.searchCharacters(search), search);
};

/** `GET /v1/characters/{id}`: one character. */
export const getCharacterById: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  return dataOr404('character', characterId, await store.getCharacter(characterId));
};

/** `GET /v1/characters/{id}/full`: the character with appearances and voice actors. */
export const getCharacterFullById: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('character', characterId, await store.getCharacterFull(characterId, sfw));
};

/** `GET /v1/characters/{id}/anime`: the anime the character appears in. */
export const getCharacterAnime: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('character', characterId, await store.getCharacterAnime(characterId, sfw));
};

/** `GET /v1/characters/{id}/manga`: the manga the character appears in. */
export const getCharacterManga: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('character', characterId, await store.getCharacterManga(characterId, sfw));
};

/** `GET /v1/characters/{id}/voices`: the character's voice actors. */
export const getCharacterVoiceActors: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  return dataOr404('character', characterId, await store.getCharacterVoices(characterId));
};

/** `GET /v1/characters/{id}/pictures`: pictures of the character. */
export const getCharacterPictures: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  return dataOr404('character', characterId, await store.getCharacterPictures(characterId));
};

/** `GET /v1/characters/{id}/articles`: featured articles about the character. */
export const getCharacterArticles: CatalogueHandler = async (request, { store }) => {
  const characterId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('character', characterId, await store.getCharacterArticles(characterId, paging), paging, 'full');
};

/** The character routes. */
export const characterRoutes: CatalogueRoute[] = [
  { path: '/v1/characters', handler: searchCharacters, query: characterSearchQuery },
  { path: '/v1/characters/:id', handler: getCharacterById },
  { path: '/v1/characters/:id/full', handler: getCharacterFullById, query: sfwQuery },
  { path: '/v1/characters/:id/anime', handler: getCharacterAnime, query: sfwQuery },
  { path: '/v1/characters/:id/manga', handler: getCharacterManga, query: sfwQuery },
  { path: '/v1/characters/:id/voices', handler: getCharacterVoiceActors },
  { path: '/v1/characters/:id/pictures', handler: getCharacterPictures },
  { path: '/v1/characters/:id/articles', handler: getCharacterArticles, query: subListQuery },
];
