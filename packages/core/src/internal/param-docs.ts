/**
 * What a query parameter looks like on the wire, for the OpenAPI document. The combinators in
 * `edge/query.ts` are transforms (raw string in, typed value out, custom 400 messages), so zod's JSON
 * Schema of them is only `string | string[]`; each combinator therefore registers a plain zod schema
 * of its wire form here, built from the same bounds it validates with.
 * @module
 */
import { z } from 'zod';

/** How one parameter is documented. */
export interface ParamDoc {
  /** The wire form, e.g. `z.int().min(1).max(50).default(25)`; its JSON Schema is what clients see. */
  wire: z.ZodType;
  /** A comma-separated list (OpenAPI `style: form, explode: false`). */
  commaList?: boolean;
}

/** Wire forms of the query combinators, keyed by the schema each combinator returned. */
export const paramDocs = new WeakMap<z.ZodType, ParamDoc>();

/**
 * Records the wire form of a query parameter schema and returns the schema unchanged.
 * @param schema - The parameter's validating schema.
 * @param wire - Its wire form, for documentation.
 * @param commaList - Whether the value is a comma-separated list.
 * @returns `schema`.
 */
export function documented<T extends z.ZodType>(schema: T, wire: z.ZodType, commaList = false): T {
  paramDocs.set(schema, commaList ? { wire, commaList } : { wire });
  return schema;
}
