/**
 * The rows of one anime or manga and the sub-resources both kinds have, written once and made for
 * each kind: `GET /v1/{kind}/{id}` and its `full`, `relations`, `recommendations`, `news`, `stacks`,
 * `articles`, `characters`, `pictures`, `statistics`, `moreinfo` and `external`. The requested
 * entry itself is never SFW-filtered; `sfw` filters the media it refers to (spec, SFW rule 3).
 * @module
 */
import type { z } from 'zod';
import type { Kind } from '../kinds.js';
import type { CatalogueRoute } from './context.js';
import { ENTRY_PARTS } from '../entries.js';
import { entryNewsQuery, sfwQuery, subListQuery } from './params.js';
import { animeResponseSchema } from '../../schemas/anime.js';
import * as res from '../../schemas/responses.js';
import { byIdRow, subPageRow } from './rows.js';

/** The 200 body of each part, by kind (the parts both kinds share answer the same shape). */
const RESPONSES = {
  anime: {
    '': animeResponseSchema,
    Full: res.animeFullResponseSchema,
    Characters: res.animeCharactersResponseSchema,
    Statistics: res.animeStatisticsResponseSchema,
  },
  manga: {
    '': res.mangaResponseSchema,
    Full: res.mangaFullResponseSchema,
    Characters: res.mangaCharactersResponseSchema,
    Statistics: res.mangaStatisticsResponseSchema,
  },
} as const;
const SHARED_RESPONSES = {
  Relations: res.relationsResponseSchema,
  Recommendations: res.entryRecommendationsResponseSchema,
  News: res.entryNewsResponseSchema,
  Stacks: res.entryStacksResponseSchema,
  Articles: res.entryArticlesResponseSchema,
  Pictures: res.mediaPicturesResponseSchema,
  Moreinfo: res.moreinfoResponseSchema,
  External: res.externalLinksResponseSchema,
} as const;

/** The sub-resources that take `sfw`: the media they list are filtered, never the entry. */
const WITH_SFW = ['Full', 'Relations', 'Recommendations'] as const;
/** The sub-resources that take nothing. */
const PLAIN = ['Characters', 'Pictures', 'Statistics', 'Moreinfo', 'External'] as const;

/**
 * The entry rows of one kind.
 * @param kind - Anime or manga.
 * @returns Its routes, `/v1/{kind}/:id` first.
 */
export function entryRows(kind: Kind): CatalogueRoute[] {
  const at = (suffix: string) => `/v1/${kind}/:id/${suffix.toLowerCase()}`;
  const own: Readonly<Record<string, z.ZodType>> = RESPONSES[kind];
  const parts = ENTRY_PARTS[kind];
  const response = (suffix: string): z.ZodType => own[suffix] ?? SHARED_RESPONSES[suffix as keyof typeof SHARED_RESPONSES];
  return [
    byIdRow(kind, `/v1/${kind}/:id`, { response: response('') }, (id, _, { records }) => parts[''](records, id)),
    ...WITH_SFW.map((suffix) =>
      byIdRow(kind, at(suffix), { query: sfwQuery, response: response(suffix) }, (id, sfw, { records }) => parts[suffix](records, id, sfw)),
    ),
    subPageRow(kind, at('News'), 'short', { query: entryNewsQuery, response: response('News'), paging: (q) => q.paging }, (id, q, { records }) =>
      parts.News(records, id, q.paging, q.sfw),
    ),
    ...(['Stacks', 'Articles'] as const).map((suffix) =>
      subPageRow(kind, at(suffix), 'full', { query: subListQuery, response: response(suffix) }, (id, paging, { records }) =>
        parts[suffix](records, id, paging),
      ),
    ),
    ...PLAIN.map((suffix) => byIdRow(kind, at(suffix), { response: response(suffix) }, (id, _, { records }) => parts[suffix](records, id))),
  ];
}
