/**
 * Random picks (docs/specification.md: Jikan seasons, schedules, top lists and random picks): `GET /v1/random/anime`, `/v1/random/manga` (with SFW and `unapproved`),
 * `/v1/random/characters` and `/v1/random/people`. Each request draws a fresh number from the injected
 * `random` source and the answer carries `Cache-Control: no-store`, so no cache ever replays a pick
 * (spec, "Further catalogue endpoints").
 * @module
 */
import { z } from 'zod';
import { ApiError } from '../../edge/errors.js';
import { defineRoute, ok, type Reply } from '../../edge/pipeline.js';
import { sfwMode } from '../../seam/sfw.js';
import type { CatalogueContext, CatalogueRoute } from './context.js';
import { randomEntry, randomNamed } from '../random.js';
import { sfwShape, unapprovedParam } from './params.js';
import { animeResponseSchema } from '../../schemas/anime.js';
import * as res from '../../schemas/responses.js';

/** The query of `GET /v1/random/anime|manga`: SFW and `unapproved`. */
export const randomMediaQuery = z
  .object({ ...sfwShape(), unapproved: unapprovedParam('unapproved') })
  .transform((v) => ({ sfw: sfwMode(v.sfw, v['sfw-strict']), approval: v.unapproved }));

/** A picked record, or 404 when nothing matches (never cached: the rows say `cache: 'no-store'`). */
function pick(data: unknown, kind: string): Reply {
  if (data === undefined) throw new ApiError(404, `No ${kind} matches the request`, `There is no ${kind} to pick from with these filters.`);
  return ok({ data });
}

/** The random-pick routes (`/v1/random/users` is answered as unavailable, ahead of these). */
export const randomRoutes: CatalogueRoute[] = [
  defineRoute<CatalogueContext, typeof randomMediaQuery>({
    path: '/v1/random/anime',
    response: animeResponseSchema,
    query: randomMediaQuery,
    cache: 'no-store',
    handler: async ({ parsed }, { records, random }) => pick(await randomEntry(records, 'anime', { ...parsed, pick: random() }), 'anime'),
  }),
  defineRoute<CatalogueContext, typeof randomMediaQuery>({
    path: '/v1/random/manga',
    response: res.mangaResponseSchema,
    query: randomMediaQuery,
    cache: 'no-store',
    handler: async ({ parsed }, { records, random }) => pick(await randomEntry(records, 'manga', { ...parsed, pick: random() }), 'manga'),
  }),
  {
    path: '/v1/random/characters',
    response: res.characterResponseSchema,
    cache: 'no-store',
    handler: async (_request, { records, random }) => pick(await randomNamed(records, 'characters', random()), 'character'),
  },
  { path: '/v1/random/people', response: res.personResponseSchema, cache: 'no-store', handler: async (_request, { records, random }) => pick(await randomNamed(records, 'people', random()), 'person') },
];
