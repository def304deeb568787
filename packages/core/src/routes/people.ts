/**
 * `GET /v1/people` (search), `GET /v1/people/{id}` and its `full`, `anime`, `manga`, `voices`,
 * `pictures` and `articles`. The person is always returned; `sfw` filters the anime and manga they
 * worked on and their voice roles (spec, SFW rule 3).
 * @module
 */
import { parseQuery } from '../query.js';
import type { PersonSearch } from '../store.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { dataOr404, fullList, namedSearchQuery, pageOr404, pathId, sfwQuery, subListQuery } from './params.js';

/** The query of `GET /v1/people`. */
export const personSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', birthday: 'birthday', favorites: 'favorites' });

/** `GET /v1/people`: search and page through people. */
export const searchPeople: CatalogueHandler = async (request, { store }) => {
  const search: PersonSearch = parseQuery(personSearchQuery, request.query);
  return fullList(await store.searchPeople(search), search);
};

/** `GET /v1/people/{id}`: one person. */
export const getPersonById: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  return dataOr404('person', personId, await store.getPerson(personId));
};

/** `GET /v1/people/{id}/full`: the person with staff work, manga work and voice roles. */
export const getPersonFullById: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('person', personId, await store.getPersonFull(personId, sfw));
};

/** `GET /v1/people/{id}/anime`: anime the person worked on, with positions. */
export const getPersonAnime: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('person', personId, await store.getPersonAnime(personId, sfw));
};

/** `GET /v1/people/{id}/manga`: manga the person worked on, with positions. */
export const getPersonManga: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('person', personId, await store.getPersonManga(personId, sfw));
};

/** `GET /v1/people/{id}/voices`: voice roles, each with its anime and character. */
export const getPersonVoices: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  const sfw = parseQuery(sfwQuery, request.query);
  return dataOr404('person', personId, await store.getPersonVoices(personId, sfw));
};

/** `GET /v1/people/{id}/pictures`: pictures of the person. */
export const getPersonPictures: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  return dataOr404('person', personId, await store.getPersonPictures(personId));
};

/** `GET /v1/people/{id}/articles`: featured articles about the person. */
export const getPersonArticles: CatalogueHandler = async (request, { store }) => {
  const personId = pathId(request);
  const paging = parseQuery(subListQuery, request.query);
  return pageOr404('person', personId, await store.getPersonArticles(personId, paging), paging, 'full');
};

/** The people routes. */
export const peopleRoutes: CatalogueRoute[] = [
  { path: '/v1/people', handler: searchPeople, query: personSearchQuery },
  { path: '/v1/people/:id', handler: getPersonById },
  { path: '/v1/people/:id/full', handler: getPersonFullById, query: sfwQuery },
  { path: '/v1/people/:id/anime', handler: getPersonAnime, query: sfwQuery },
  { path: '/v1/people/:id/manga', handler: getPersonManga, query: sfwQuery },
  { path: '/v1/people/:id/voices', handler: getPersonVoices, query: sfwQuery },
  { path: '/v1/people/:id/pictures', handler: getPersonPictures },
  { path: '/v1/people/:id/articles', handler: getPersonArticles, query: subListQuery },
];
