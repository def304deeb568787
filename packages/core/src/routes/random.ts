/**
 * Random picks (docs/specification.md: Jikan seasons, schedules, top lists and random picks): `GET /v1/random/anime`, `/v1/random/manga` (with SFW and `unapproved`),
 * `/v1/random/characters` and `/v1/random/people`. Each request draws a fresh number from the injected
 * `random` source and the answer carries `Cache-Control: no-store`, so no cache ever replays a pick
 * (spec, "Further catalogue endpoints").
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { ok, type Reply } from '../internal/pipeline.js';
import { parseQuery, unapprovedParam } from '../query.js';
import { sfwMode } from '../sfw.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { sfwShape } from './params.js';

/** The query of `GET /v1/random/anime|manga`: SFW and `unapproved`. */
export const randomMediaQuery = z
  .object({ ...sfwShape(), unapproved: unapprovedParam('unapproved') })
  .transform((v) => ({ sfw: sfwMode(v.sfw, v['sfw-strict']), approval: v.unapproved }));

const NO_STORE = { 'cache-control': 'no-store' };

function pick(data: unknown, kind: string): Reply {
  if (data === undefined) throw new ApiError(404, `No ${kind} matches the request`, `There is no ${kind} to pick from with these filters.`);
  return ok({ data }, NO_STORE);
}

/** `GET /v1/random/anime`: one anime picked at random among those the filters allow. */
export const getRandomAnime: CatalogueHandler = async (request, { store, random }) => {
  const query = parseQuery(randomMediaQuery, request.query);
  return pick(await store.getRandomAnime({ ...query, pick: random() }), 'anime');
};

/** `GET /v1/random/manga`: one manga picked at random among those the filters allow. */
export const getRandomManga: CatalogueHandler = async (request, { store, random }) => {
  const query = parseQuery(randomMediaQuery, request.query);
  return pick(await store.getRandomManga({ ...query, pick: random() }), 'manga');
};

/** `GET /v1/random/characters`: one character picked at random. */
export const getRandomCharacters: CatalogueHandler = async (_request, { store, random }) => {
  return pick(await store.getRandomCharacter(random()), 'character');
};

/** `GET /v1/random/people`: one person picked at random. */
export const getRandomPeople: CatalogueHandler = async (_request, { store, random }) => {
  return pick(await store.getRandomPerson(random()), 'person');
};

/** The random-pick routes (`/v1/random/users` is answered as unavailable, ahead of these). */
export const randomRoutes: CatalogueRoute[] = [
  { path: '/v1/random/anime', handler: getRandomAnime, query: randomMediaQuery, cache: 'no-store' },
  { path: '/v1/random/manga', handler: getRandomManga, query: randomMediaQuery, cache: 'no-store' },
  { path: '/v1/random/characters', handler: getRandomCharacters, cache: 'no-store' },
  { path: '/v1/random/people', handler: getRandomPeople, cache: 'no-store' },
];
