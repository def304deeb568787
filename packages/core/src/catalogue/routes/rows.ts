/**
 * The shapes of a catalogue route row. Each endpoint is one row: its path, its query schema (the
 * pipeline parses the query with it and hands the handler the result), and a load function that
 * calls a catalogue function over the context's record store; the row's shape says how the loaded value is answered: `{ data }`, a
 * page with the full or the short pagination object, or 404 when the root record does not exist.
 * @module
 */
import type { z } from 'zod';
import { ok } from '../../edge/pipeline.js';
import type { Page, Paging } from '../queries.js';
import type { CatalogueContext, CatalogueRoute } from './context.js';
import { dataOr404, fullList, pageOr404, pathId, shortList } from './params.js';

/** What a row's query schema gives its load function (`undefined` without a schema). */
export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parts every row may have besides its shape. */
interface RowOptions<S> {
  /** The query schema; the OpenAPI document lists its parameters. */
  query?: S;
  /** The 200 body's schema: the OpenAPI document names and lists it, the endpoint tests parse bodies with it. */
  response: z.ZodType;
  /** Whether the gateway may keep the answers. @default 'public' */
  cache?: 'public' | 'no-store';
  /** The kind of store work, for admission. @default 'read' ('search' for {@link pageRow}) */
  work?: 'search' | 'read';
}

/** A paged answer's pagination object: `full` (Jikan `pagination_plus`) or `short`. */
export type PageShape = 'full' | 'short';

/**
 * A row answering `{ data }` with what `load` gives.
 * @param path - The path pattern.
 * @param options - Query schema, response schema, cache policy.
 * @param load - Loads the data from the parsed query.
 */
export function dataRow<S extends z.ZodType | undefined = undefined>(
  path: string,
  options: RowOptions<S>,
  load: (query: Parsed<S>, context: CatalogueContext, params: Record<string, string>) => Promise<unknown>,
): CatalogueRoute {
  return { path, ...options, handler: async ({ parsed, params }, context) => ok({ data: await load(parsed as Parsed<S>, context, params) }) };
}

/**
 * A row answering one page of a list, with the full or short pagination object.
 * @param path - The path pattern.
 * @param shape - The pagination object's shape.
 * @param options - Query schema, response schema, cache policy; `paging` picks the page and size out
 *   of the parsed query (default: the parsed query itself).
 * @param load - Loads the page.
 */
export function pageRow<S extends z.ZodType>(
  path: string,
  shape: PageShape,
  options: RowOptions<S> & { query: S; paging?: (query: z.output<S>) => Paging },
  load: (query: z.output<S>, context: CatalogueContext) => Promise<Page<unknown>>,
): CatalogueRoute {
  const answer = shape === 'full' ? fullList : shortList;
  const { paging = (q: z.output<S>) => q as Paging, ...rest } = options;
  // A page of a whole collection, filtered, ordered or searched: the slow kind of store work.
  return { path, work: 'search', ...rest, handler: async ({ parsed }, context) => answer(await load(parsed, context), paging(parsed)) };
}

/**
 * A row answering `{ data }` about the record named by the path's `:id`, or 404 when `load` finds
 * no such record (it answers `undefined`).
 * @param kind - The record's kind, for the 404 message (`anime`, `character`…).
 * @param path - The path pattern, with `:id`.
 * @param options - Query schema, response schema, cache policy.
 * @param load - Loads the data of the record with that id.
 */
export function byIdRow<S extends z.ZodType | undefined = undefined>(
  kind: string,
  path: string,
  options: RowOptions<S>,
  load: (id: number, query: Parsed<S>, context: CatalogueContext, params: Record<string, string>) => Promise<unknown>,
): CatalogueRoute {
  return {
    path,
    ...options,
    handler: async (request, context) => {
      const id = pathId(request);
      return dataOr404(kind, id, await load(id, request.parsed as Parsed<S>, context, request.params));
    },
  };
}

/**
 * A row answering one page of a sub-list of the record named by the path's `:id`, or 404 when
 * `load` finds no such record.
 * @param kind - The record's kind, for the 404 message.
 * @param path - The path pattern, with `:id`.
 * @param shape - The pagination object's shape.
 * @param options - Query schema, response schema, cache policy.
 * @param load - Loads the page; `paging` picks the page and size out of the parsed query.
 */
export function subPageRow<S extends z.ZodType>(
  kind: string,
  path: string,
  shape: PageShape,
  options: RowOptions<S> & { query: S; paging?: (query: z.output<S>) => Paging },
  load: (id: number, query: z.output<S>, context: CatalogueContext) => Promise<Page<unknown> | undefined>,
): CatalogueRoute {
  const { paging = (q: z.output<S>) => q as Paging, ...rest } = options;
  return {
    path,
    ...rest,
    handler: async (request, context) => {
      const id = pathId(request);
      const query = request.parsed as z.output<S>;
      return pageOr404(kind, id, await load(id, query, context), paging(query), shape);
    },
  };
}
