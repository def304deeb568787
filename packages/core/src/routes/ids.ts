/**
 * Id lists (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/anime/ids`, `/v1/manga/ids`
 * (filters `type`, `status`, `rating`, `sfw`; `include` chosen fields; `updated_at`; with the total),
 * and the deleted-id lists `GET /v1/anime/deleted`, `/v1/manga/deleted`. These routes come before
 * `/v1/anime/:id` and `/v1/manga/:id` in the route table.
 * @module
 */
import { z } from 'zod';
import { ok } from '../internal/pipeline.js';
import { enumListParam, enumParam, instantParam, parseQuery } from '../query.js';
import { animeSchema } from '../schemas/anime.js';
import { mangaSchema } from '../schemas/manga.js';
import { sfwMode } from '../sfw.js';
import type { IdsQuery } from '../store.js';
import { ANIME, MANGA } from '../catalogue/kinds.js';
import type { CatalogueHandler, CatalogueRoute } from './context.js';
import { sfwShape } from './params.js';

/** Each top-level field of a record except `mal_id`, which every item carries anyway. */
function fieldNames(shape: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(shape)
      .filter((key) => key !== 'mal_id')
      .map((key) => [key, key]),
  );
}

/** Fields `include` may name on `/v1/anime/ids`: the anime record's top-level fields. */
export const ANIME_ID_FIELDS = fieldNames(animeSchema.shape);
/** Fields `include` may name on `/v1/manga/ids`: the manga record's top-level fields. */
export const MANGA_ID_FIELDS = fieldNames(mangaSchema.shape);

const common = () => ({
  ...sfwShape(),
  updated_at: instantParam('updated_at'),
});

/** The query of `GET /v1/anime/ids`. */
export const animeIdsQuery = z
  .object({
    type: enumListParam('type', ANIME.types),
    status: enumParam('status', ANIME.statuses),
    rating: enumListParam('rating', ANIME.ratings),
    include: enumListParam('include', ANIME_ID_FIELDS),
    ...common(),
  })
  .transform(
    (v): IdsQuery => ({
      types: v.type,
      status: v.status,
      ratings: v.rating,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      updatedSince: v.updated_at,
      include: v.include,
    }),
  );

/** The query of `GET /v1/manga/ids` (manga have no rating). */
export const mangaIdsQuery = z
  .object({
    type: enumListParam('type', MANGA.types),
    status: enumParam('status', MANGA.statuses),
    include: enumListParam('include', MANGA_ID_FIELDS),
    ...common(),
  })
  .transform(
    (v): IdsQuery => ({
      types: v.type,
      status: v.status,
      sfw: sfwMode(v.sfw, v['sfw-strict']),
      updatedSince: v.updated_at,
      include: v.include,
    }),
  );

/** `GET /v1/anime/ids`: every matching anime id, ascending, with the total and any included fields. */
export const getAnimeIds: CatalogueHandler = async (request, { catalogue: store }) => {
  const query = parseQuery(animeIdsQuery, request.query);
  return ok(await store.listAnimeIds(query));
};

/** `GET /v1/manga/ids`: every matching manga id, ascending, with the total and any included fields. */
export const getMangaIds: CatalogueHandler = async (request, { catalogue: store }) => {
  const query = parseQuery(mangaIdsQuery, request.query);
  return ok(await store.listMangaIds(query));
};

/** `GET /v1/anime/deleted`: ids of anime removed from the catalogue, ascending. */
export const getDeletedAnime: CatalogueHandler = async (_request, { catalogue: store }) => {
  const data = await store.getDeletedAnimeIds();
  return ok({ total: data.length, data });
};

/** `GET /v1/manga/deleted`: ids of manga removed from the catalogue, ascending. */
export const getDeletedManga: CatalogueHandler = async (_request, { catalogue: store }) => {
  const data = await store.getDeletedMangaIds();
  return ok({ total: data.length, data });
};

/** The id-list routes; they must precede `/v1/anime/:id` and `/v1/manga/:id`. */
export const idsRoutes: CatalogueRoute[] = [
  { path: '/v1/anime/ids', handler: getAnimeIds, query: animeIdsQuery },
  { path: '/v1/anime/deleted', handler: getDeletedAnime },
  { path: '/v1/manga/ids', handler: getMangaIds, query: mangaIdsQuery },
  { path: '/v1/manga/deleted', handler: getDeletedManga },
];
