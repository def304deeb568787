/**
 * Id lists (v1 additions; spec, "Further catalogue endpoints"): `GET /v1/anime/ids`, `/v1/manga/ids`
 * (filters `type`, `status`, `rating`, `sfw`; `include` chosen fields; `updated_at`; with the total),
 * and the deleted-id lists `GET /v1/anime/deleted`, `/v1/manga/deleted`. These routes come before
 * `/v1/anime/:id` and `/v1/manga/:id` in the route table.
 * @module
 */
import { z } from 'zod';
import { ok } from '../../edge/pipeline.js';
import { enumListParam, enumParam, instantParam } from '../../edge/query.js';
import { animeSchema } from '../../schemas/anime.js';
import { mangaSchema } from '../../schemas/manga.js';
import { sfwMode } from '../../seam/sfw.js';
import type { IdsQuery } from '../queries.js';
import { ANIME, MANGA, type KindSpec } from '../kinds.js';
import { deletedIds, listIds, listIdsJson } from '../media-search.js';
import type { CatalogueContext, CatalogueRoute } from './context.js';
import type { Parsed } from './rows.js';
import { sfwShape } from './params.js';
import * as res from '../../schemas/responses.js';

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

/**
 * The query of a kind's id list: `type` (several), `status`, `rating` (several, for a kind that has
 * ratings), `include` (any of the record's fields), SFW and `updated_at`.
 * @param kind - The kind's vocabularies.
 * @param fields - The fields `include` may name.
 */
function idsQuery(kind: KindSpec, fields: Record<string, string>) {
  return z
    .object({
      type: enumListParam('type', kind.types),
      status: enumParam('status', kind.statuses),
      ...(kind.ratings ? { rating: enumListParam('rating', kind.ratings) } : {}),
      include: enumListParam('include', fields),
      ...sfwShape(),
      updated_at: instantParam('updated_at'),
    })
    .transform(
      (v): IdsQuery => ({
        type: v.type,
        status: v.status,
        rating: (v as { rating?: string[] }).rating,
        sfw: sfwMode(v.sfw, v['sfw-strict']),
        updated_at: v.updated_at,
        include: v.include,
      }),
    );
}

/** The query of `GET /v1/anime/ids`. */
export const animeIdsQuery = idsQuery(ANIME, ANIME_ID_FIELDS);
/** The query of `GET /v1/manga/ids` (manga have no rating). */
export const mangaIdsQuery = idsQuery(MANGA, MANGA_ID_FIELDS);

/** A row answering a list and its total as they are (`{ total, data }`). */
const listRow = <S extends z.ZodType | undefined = undefined>(path: string, query: S, response: z.ZodType, load: (query: Parsed<S>, context: CatalogueContext) => Promise<unknown>): CatalogueRoute => ({
  path,
  ...(query ? { query } : {}),
  response,
  work: 'search',
  handler: async ({ parsed }, context) => ok(await load(parsed as Parsed<S>, context)),
});

/**
 * An id list's row: the store's own JSON when it writes one (a bare list of 70k ids, or 4,000 with
 * their titles, is neither parsed nor printed again), else the list as `load` gives it.
 */
const idsRow = (path: string, query: z.ZodType<IdsQuery>, spec: KindSpec, load: (query: IdsQuery, context: CatalogueContext) => Promise<unknown>): CatalogueRoute => ({
  path,
  query,
  response: res.idsResponseSchema,
  // Every matching id of a collection (tens of thousands): the slow kind of store work.
  work: 'search',
  handler: async ({ parsed }, context) => {
    const written = await listIdsJson(context.records, spec, parsed as IdsQuery);
    if (written instanceof Uint8Array) return { body: undefined, json: written };
    return ok(written ?? (await load(parsed as IdsQuery, context)));
  },
});

/** An answer of every id in a list, with their count. */
const withTotal = (data: number[]) => ({ total: data.length, data });

/**
 * The id-list routes; they must precede `/v1/anime/:id` and `/v1/manga/:id`. `…/ids`: every
 * matching id, ascending, with the total and any included fields; `…/deleted`: the ids of entries
 * removed from the catalogue, ascending.
 */
export const idsRoutes: CatalogueRoute[] = [
  idsRow('/v1/anime/ids', animeIdsQuery, ANIME, (query, { records }) => listIds(records, ANIME, query)),
  listRow('/v1/anime/deleted', undefined, res.deletedIdsResponseSchema, async (_, { records }) => withTotal(await deletedIds(records, ANIME))),
  idsRow('/v1/manga/ids', mangaIdsQuery, MANGA, (query, { records }) => listIds(records, MANGA, query)),
  listRow('/v1/manga/deleted', undefined, res.deletedIdsResponseSchema, async (_, { records }) => withTotal(await deletedIds(records, MANGA))),
];
