/**
 * `GET /v1/people` (search), `GET /v1/people/{id}` and its `full`, `anime`, `manga`, `voices`,
 * `pictures` and `articles`. The person is always returned; `sfw` filters the anime and manga they
 * worked on and their voice roles (spec, SFW rule 3).
 * @module
 */
import type { CatalogueRoute } from './context.js';
import { namedSearchQuery, sfwQuery, subListQuery } from './params.js';
import { byIdRow, pageRow, subPageRow } from './rows.js';

/** The query of `GET /v1/people`. */
export const personSearchQuery = namedSearchQuery({ mal_id: 'mal_id', name: 'name', birthday: 'birthday', favorites: 'favorites' });

/** The people routes. */
export const peopleRoutes: CatalogueRoute[] = [
  pageRow('/v1/people', 'full', { query: personSearchQuery }, (search, { catalogue }) => catalogue.searchPeople(search)),
  byIdRow('person', '/v1/people/:id', {}, (id, _, { catalogue }) => catalogue.getPerson(id)),
  byIdRow('person', '/v1/people/:id/full', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getPersonFull(id, sfw)),
  byIdRow('person', '/v1/people/:id/anime', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getPersonAnime(id, sfw)),
  byIdRow('person', '/v1/people/:id/manga', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getPersonManga(id, sfw)),
  byIdRow('person', '/v1/people/:id/voices', { query: sfwQuery }, (id, sfw, { catalogue }) => catalogue.getPersonVoices(id, sfw)),
  byIdRow('person', '/v1/people/:id/pictures', {}, (id, _, { catalogue }) => catalogue.getPersonPictures(id)),
  subPageRow('person', '/v1/people/:id/articles', 'full', { query: subListQuery }, (id, paging, { catalogue }) => catalogue.getPersonArticles(id, paging)),
];
