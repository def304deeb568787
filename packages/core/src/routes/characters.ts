/**
 * `GET /v1/characters` (search), `GET /v1/characters/{id}` and its `full`, `anime`, `manga`, `voices`,
 * `pictures` and `articles`. The character itself is always returned; `sfw` filters the anime and
 * manga it appears in (spec, SFW rule 3).
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { namedSearchQuery, sfwQuery, subListQuery } from './params.js';
import { byIdRow, pageRow, subPageRow } from './rows.js';

/** The query of `GET /v1/characters`. */
export const characterSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', favorites: 'favorites' });

/** The character routes. */
export const characterRoutes: CatalogueRoute[] = [
  pageRow('/v1/characters', 'full', { query: characterSearchQuery }, (search, { catalogue }) => catalogue.searchCharacters(search)),
  byIdRow('character', '/v1/characters/:id', {}, (id, _, { catalogue }) => catalogue.getCharacter(id)),
  byIdRow('character', '/v1/characters/:id/full', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getCharacterFull(id, sfw)),
  byIdRow('character', '/v1/characters/:id/anime', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getCharacterAnime(id, sfw)),
  byIdRow('character', '/v1/characters/:id/manga', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getCharacterManga(id, sfw)),
  byIdRow('character', '/v1/characters/:id/voices', {}, (id, _, { catalogue }) => catalogue.getCharacterVoices(id)),
  byIdRow('character', '/v1/characters/:id/pictures', {}, (id, _, { catalogue }) => catalogue.getCharacterPictures(id)),
  subPageRow('character', '/v1/characters/:id/articles', 'full', { query: subListQuery }, (id, paging, { catalogue }) =>
    catalogue.getCharacterArticles(id, paging),
  ),
];
