/**
 * The rows of one anime or manga and the sub-resources both kinds have, written once and made for
 * each kind: `GET /v1/{kind}/{id}` and its `full`, `relations`, `recommendations`, `news`, `stacks`,
 * `articles`, `characters`, `pictures`, `statistics`, `moreinfo` and `external`. The requested
 * entry itself is never SFW-filtered; `sfw` filters the media it refers to (spec, SFW rule 3).
 * @module
 */
import type { Catalogue, EntryParts, NamedParts } from '../store.js';
import type { z } from 'zod';
import type { Kind } from '../kinds.js';
import type { CatalogueRoute } from './context.js';
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

type Call = (id: number, ...rest: unknown[]) => Promise<never>;
/** The parts a kind's methods are named by (`EntryParts`, `NamedParts`). */
type PartOf<N> = (N extends 'Anime' | 'Manga' ? keyof EntryParts<never, never, never, never, never> : keyof NamedParts<never, never, never, never, never>) & string;

/**
 * The catalogue's method of a kind's part (`KindMethods`): `Full` of `Anime` is `getAnimeFull`.
 * @param catalogue - The catalogue.
 * @param name - The kind's name in the methods.
 * @param suffix - The part.
 */
export const kindMethod = <N extends 'Anime' | 'Manga' | 'Character' | 'Person'>(catalogue: Catalogue, name: N, suffix: PartOf<N>): Call =>
  (catalogue[`get${name}${suffix}` as keyof Catalogue] as unknown as Call).bind(catalogue);
const method = (catalogue: Catalogue, kind: Kind, suffix: PartOf<'Anime' | 'Manga'>) => kindMethod(catalogue, kind === 'anime' ? 'Anime' : 'Manga', suffix);

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
  const response = (suffix: string): z.ZodType => own[suffix] ?? SHARED_RESPONSES[suffix as keyof typeof SHARED_RESPONSES];
  return [
    byIdRow(kind, `/v1/${kind}/:id`, { response: response('') }, (id, _, { catalogue }) => method(catalogue, kind, '')(id)),
    ...WITH_SFW.map((suffix) =>
      byIdRow(kind, at(suffix), { query: sfwQuery, response: response(suffix) }, (id, sfw, { catalogue }) => method(catalogue, kind, suffix)(id, sfw)),
    ),
    subPageRow(kind, at('News'), 'short', { query: entryNewsQuery, response: response('News'), paging: (q) => q.paging }, (id, q, { catalogue }) =>
      method(catalogue, kind, 'News')(id, q.paging, q.sfw),
    ),
    ...(['Stacks', 'Articles'] as const).map((suffix) =>
      subPageRow(kind, at(suffix), 'full', { query: subListQuery, response: response(suffix) }, (id, paging, { catalogue }) =>
        method(catalogue, kind, suffix)(id, paging),
      ),
    ),
    ...PLAIN.map((suffix) => byIdRow(kind, at(suffix), { response: response(suffix) }, (id, _, { catalogue }) => method(catalogue, kind, suffix)(id))),
  ];
}
