/**
 * `GET /v1/manga` (search), `GET /v1/manga/{id}` and its sub-resources: `full`, `relations`,
 * `recommendations`, `news`, `stacks`, `articles`, `characters`, `pictures`, `statistics`, `moreinfo`
 * and `external`. A manga has no rating: SFW for manga reads the Hentai and Erotica tags (strict: Ecchi).
 * @module
 */
import { z } from 'zod';
import { idListParam } from '../../edge/query.js';
import type { MangaOrderBy, MangaSearch } from '../queries.js';
import { MANGA } from '../kinds.js';
import type { CatalogueRoute } from './context.js';
import { searchEntries } from '../media-search.js';
import { entryRows } from './entry-rows.js';
import { checkMediaRanges, mediaSearchShape, toMediaSearch } from './media-query.js';
import { pageRow } from './rows.js';
import * as res from '../../schemas/responses.js';

export { MANGA_STATUSES, MANGA_TYPES } from '../kinds.js';

/** The query of `GET /v1/manga`: the anime search's parameters with manga types and statuses, `magazines` and no `rating`. */
export const mangaSearchQuery = z
  .object(mediaSearchShape(MANGA, {}, { magazines: idListParam('magazines') }))
  .superRefine(checkMediaRanges)
  .transform((v): MangaSearch => ({ ...toMediaSearch<MangaOrderBy>(v), magazines: v.magazines }));

/** The manga routes: search, then one manga and its sub-resources (`entry-rows.ts`). */
export const mangaRoutes: CatalogueRoute[] = [
  pageRow('/v1/manga', 'full', { query: mangaSearchQuery, response: res.mangaListResponseSchema }, (search, { records }) => searchEntries(records, MANGA, search)),
  ...entryRows('manga'),
];
