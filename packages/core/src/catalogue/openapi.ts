/**
 * The OpenAPI 3.1 document of the catalogue API, generated from the route table and the zod
 * schemas the routes validate with (zod's own JSON Schema output; no shape is written twice).
 * A route added to `catalogueRoutes` appears here without any change to this file.
 * @module
 */
import { z } from 'zod';
import { ERROR_TYPES } from '../edge/errors.js';
import { SEASONS } from './kinds.js';
import { paramDocs } from '../internal/param-docs.js';
import { ok } from '../edge/pipeline.js';
import type { CatalogueRoute } from './routes/context.js';
import { catalogueRoutes } from './routes/index.js';
import { unavailableRoutes } from './routes/unavailable.js';
import * as shapes from '../schemas/index.js';
import * as records from '../schemas/records.js';

/** Where the app serves its own OpenAPI document. */
export const OPENAPI_PATH = '/v1/openapi.json';

/** The description document's version (spec, "Versioning"). */
const DOCUMENT_VERSION = '1.0.19';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  /** The base URL clients use, without `/v1`. @default '/' (relative to where the document is served) */
  serverUrl?: string;
  /** `info.title`. @default 'catalogue-api' */
  title?: string;
  /** The routes to document. @default every catalogue route */
  routes?: readonly CatalogueRoute[];
}

/** A JSON value, as the OpenAPI document holds them. */
export type JsonObject = { [key: string]: unknown };

/** An OpenAPI 3.1 document (the parts this generator writes). */
export interface OpenApiDocument extends JsonObject {
  /** The OpenAPI version. */
  openapi: '3.1.0';
  /** Title, version and description of the API. */
  info: JsonObject;
  /** One path item per endpoint, keyed by its OpenAPI path (`/v1/anime/{id}`). */
  paths: Record<string, JsonObject>;
  /** Shared schemas, error responses, headers and the `X-Server-Key` security scheme. */
  components: JsonObject;
}

/** The error envelope of every non-2xx response (spec, "Error envelope"). */
export const errorEnvelopeSchema = z
  .object({
    status: z.int().describe('HTTP status code'),
    type: z.enum(Object.values(ERROR_TYPES)).describe('machine-readable error category'),
    message: z.string().describe('human-readable explanation'),
    error: z.string().describe('extra context or recovery guidance'),
    path: z.string().describe('request path that produced the error'),
  })
  .describe('The error envelope');

const intHeader = (description: string) => ({ description, schema: { type: 'string', pattern: '^[0-9]+$' } });
const stringHeader = (description: string) => ({ description, schema: { type: 'string' } });

// Response headers (spec: Errors, Limits, Caching; the IETF RateLimit header draft).
const HEADERS = {
  ETag: stringHeader('Strong validator of the body; send it back in If-None-Match to get 304.'),
  'Cache-Control': stringHeader('`public, max-age=…` for public callers, `private, …` for Server Key callers, `no-store` on errors and /v1/random/*.'),
  'Last-Modified': stringHeader('When the cached answer was produced (HTTP date).'),
  Expires: stringHeader('When the cached answer expires (HTTP date).'),
  Vary: stringHeader('`X-Server-Key`: public and Server Key answers are cached apart.'),
  'RateLimit-Limit': intHeader('Requests allowed in the window closest to exhaustion.'),
  'RateLimit-Remaining': intHeader('Requests left in that window.'),
  'RateLimit-Reset': intHeader('Seconds until that window resets.'),
  'Retry-After': intHeader('Seconds to wait before retrying (a positive integer; 1 on 503).'),
  Allow: { description: 'The supported methods.', schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
} as const;

const ref = (kind: 'schemas' | 'responses' | 'headers' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const headerRefs = (...names: Array<keyof typeof HEADERS>) => Object.fromEntries(names.map((n) => [n, ref('headers', n)]));

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

function errorResponse(status: keyof typeof ERROR_TYPES, description: string, headers: Array<keyof typeof HEADERS> = []) {
  return {
    description: `${description} (\`${ERROR_TYPES[status]}\`)`,
    headers: headerRefs('Cache-Control', ...headers),
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

const ERROR_RESPONSES = {
  BadRequest: errorResponse(400, 'A parameter is invalid; the message names it and what is allowed'),
  Unauthorized: errorResponse(401, 'The X-Server-Key is not recognized, or the route requires a Server Key'),
  Forbidden: errorResponse(403, 'The client address is temporarily blocked for ignoring rate limits'),
  NotFound: errorResponse(404, 'No such route or record'),
  MethodNotAllowed: errorResponse(405, 'Any method but GET, HEAD and OPTIONS', ['Allow']),
  TooManyRequests: errorResponse(429, "A rate limit of the caller's tier is exceeded", ['Retry-After', ...RATE_HEADERS]),
  InternalServerError: errorResponse(500, 'Unexpected server failure'),
  ServiceUnavailable: errorResponse(503, 'Offline or busy, including rate-limit accounting being unavailable', ['Retry-After']),
};

/** `/v1/anime/:id/episodes/:episode` → `/v1/anime/{id}/episodes/{episode}`. */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');

const pascal = (s: string) => s.replace(/(^|[-_])(\w)/g, (_m, _sep: string, c: string) => c.toUpperCase());

/** `/v1/anime/:id/videos/episodes` → `AnimeVideosEpisodes`; `/v1/anime/:id` → `AnimeById`. */
function nameOf(path: string): string {
  const segments = path.split('/').filter((s) => s && s !== 'v1');
  const last = segments.at(-1) ?? '';
  const name = segments.filter((s) => !s.startsWith(':')).map(pascal).join('');
  return last.startsWith(':') ? `${name}By${pascal(last.slice(1))}` : name;
}

/** Walks through `.transform()` and refinements to the `z.object` whose keys are the parameters. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 8; i++) {
    if (s instanceof z.ZodObject) return s.shape as Record<string, z.ZodType>;
    if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else return undefined;
  }
  return undefined;
}

function queryParameters(query: z.ZodType | undefined): JsonObject[] {
  if (!query) return [];
  const shape = objectShape(query);
  if (!shape) return [];
  return Object.entries(shape).map(([name, schema]) => {
    const doc = paramDocs.get(schema);
    const json = z.toJSONSchema(doc?.wire ?? schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
    delete json.$schema;
    const parameter: JsonObject = { name, in: 'query', required: false, schema: json };
    if (typeof json.description === 'string') parameter.description = json.description;
    if (doc?.commaList) Object.assign(parameter, { style: 'form', explode: false });
    return parameter;
  });
}

// Path segments are positive integer ids, except these, which their handlers parse by hand.
const PATH_SEGMENTS: Record<string, JsonObject> = {
  year: { type: 'integer', minimum: 1000, maximum: 2999 },
  season: { type: 'string', enum: [...SEASONS] },
};

function pathParameters(path: string, query: JsonObject[]): JsonObject[] {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map(([, name]) => {
    // A segment that doubles as a query parameter (`/v1/schedules/{filter}`) takes that parameter's schema.
    const twin = query.find((p) => p.name === name);
    return { name: name!, in: 'path', required: true, schema: twin?.schema ?? PATH_SEGMENTS[name!] ?? { type: 'integer', minimum: 1 } };
  });
}

/**
 * Builds the OpenAPI 3.1 document of the catalogue API: every implemented GET route with its path
 * and query parameters (with their bounds and defaults), its 200 body, the error envelope of every
 * error status with its headers, and the optional `X-Server-Key` security scheme.
 * @param options - Server URL, title, and the routes to document.
 * @returns A JSON-serializable OpenAPI 3.1 document.
 * @example
 * ```ts
 * import { createOpenApiDocument } from '@catalogue-api/core';
 *
 * const doc = createOpenApiDocument({ serverUrl: 'https://api.example.org' });
 * console.log(Object.keys(doc.paths)); // ['/v1/anime', '/v1/anime/{id}', …]
 * ```
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const unavailable = new Set<CatalogueRoute>(unavailableRoutes);
  const routes = (options.routes ?? catalogueRoutes).filter((r) => !unavailable.has(r));

  // Each distinct response schema becomes one named component; routes sharing a schema share it.
  const registry = z.registry<{ id: string }>();
  registry.add(errorEnvelopeSchema, { id: 'Error' });
  const names = new Map<z.ZodType, string>();
  const taken = new Set(['Error']);
  const operations: Array<{ route: CatalogueRoute; schemaName: string | undefined }> = [];
  for (const route of routes) {
    const schema = route.response;
    // A route without a schema is still listed, with an untyped 200; the tests fail on it.
    if (!schema) {
      operations.push({ route, schemaName: undefined });
      continue;
    }
    let name = names.get(schema);
    if (!name) {
      name = `${nameOf(route.path)}Response`;
      while (taken.has(name)) name = `${name}_`;
      taken.add(name);
      names.set(schema, name);
      registry.add(schema, { id: name });
    }
    operations.push({ route, schemaName: name });
  }
  // The record shapes get names too, so that responses share them by reference (stored-record schemas are not on the wire).
  const stored = new Set<unknown>(Object.values(records));
  for (const [exportName, schema] of Object.entries(shapes)) {
    if (!(schema instanceof z.ZodType) || stored.has(schema) || names.has(schema) || registry.has(schema)) continue;
    const name = pascal(exportName.replace(/Schema$/, ''));
    if (taken.has(name)) continue;
    taken.add(name);
    registry.add(schema, { id: name });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      // `z.int()` states the safe-integer range; that is noise to a reader of the API.
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    // Inside an OpenAPI document the components are plain schemas: no dialect or base URI of their own.
    delete schema.$schema;
    delete schema.$id;
  }
  // Unnamed shapes used more than once land in `__shared.$defs`; make them components of their own.
  const shared = (schemas.__shared?.$defs ?? {}) as Record<string, JsonObject>;
  delete schemas.__shared;
  for (const [id, schema] of Object.entries(shared)) schemas[`Shared${pascal(id)}`] = schema;
  const sharedRef = /#\/components\/schemas\/__shared#\/\$defs\/(\w+)/g;
  const components = JSON.parse(JSON.stringify(schemas).replace(sharedRef, (_m, id: string) => `#/components/schemas/Shared${pascal(id)}`)) as Record<
    string,
    JsonObject
  >;

  const paths: Record<string, JsonObject> = {};
  for (const { route, schemaName } of operations) {
    const okHeaders = headerRefs('ETag', 'Cache-Control', 'Last-Modified', 'Expires', 'Vary', ...RATE_HEADERS);
    const path = pathParameters(route.path, queryParameters(route.query));
    const query = queryParameters(route.query).filter((q) => !path.some((p) => p.name === q.name));
    paths[toOpenApiPath(route.path)] = {
      get: {
        operationId: `get${nameOf(route.path)}`,
        tags: [route.path.split('/')[2] ?? 'catalogue'],
        parameters: [...path, ...query],
        responses: {
          200: {
            description: 'OK',
            headers: okHeaders,
            content: { 'application/json': { schema: schemaName ? ref('schemas', schemaName) : {} } },
          },
          304: { description: 'Not Modified: the If-None-Match ETag still matches', headers: headerRefs('ETag', 'Cache-Control') },
          ...(query.length || path.length ? { 400: ref('responses', 'BadRequest') } : {}),
          401: ref('responses', 'Unauthorized'),
          403: ref('responses', 'Forbidden'),
          404: ref('responses', 'NotFound'),
          429: ref('responses', 'TooManyRequests'),
          500: ref('responses', 'InternalServerError'),
          503: ref('responses', 'ServiceUnavailable'),
        },
      },
    };
  }

  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'catalogue-api',
      version: DOCUMENT_VERSION,
      summary: 'A read-only anime and manga catalogue API, wire-compatible with Jikan v4, under /v1.',
      description: [
        'Only GET, HEAD and OPTIONS are accepted; any other method gets 405 with `Allow: GET, HEAD, OPTIONS` (see the MethodNotAllowed response).',
        'Every non-2xx response carries the error envelope (`Error`).',
        'Public callers need no credentials and are limited per client address (4/s, 120/min, 40,000/day by default);',
        'a Server Key in `X-Server-Key` selects the Server Key tier (5/s, 300/min, no daily limit), counted per key.',
        '`Authorization: Bearer` is not supported. Limits, keys and restricted routes are configurable per deployment.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    // Public access needs nothing; a Server Key is optional and selects the higher tier (spec, "Authentication").
    security: [{}, { ServerKey: [] }],
    paths,
    components: {
      schemas: components,
      responses: ERROR_RESPONSES,
      headers: HEADERS,
      securitySchemes: {
        ServerKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Server-Key',
          description: 'A private Server Key, for server-side use. An unrecognized key is 401; Bearer tokens are not supported.',
        },
      },
    },
  };
  return pruneSchemas(document, components);
}

/** Drops the named shapes no documented response reaches. */
function pruneSchemas(document: OpenApiDocument, schemas: Record<string, JsonObject>): OpenApiDocument {
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!reached.has(name!)) {
        reached.add(name!);
        visit(schemas[name!]);
      }
    }
  };
  visit(document.paths);
  visit(document.components.responses);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
  return document;
}

/**
 * `GET /v1/openapi.json`: this API's OpenAPI 3.1 document, built on first request.
 * @param mountPath - Where a host serves the app (e.g. `/catalogue`), which becomes the document's
 *   server URL so that Swagger UI and generated clients call the mounted paths.
 * @returns The route.
 */
export function createOpenApiRoute(mountPath = ''): CatalogueRoute {
  let served: OpenApiDocument | undefined;
  return {
    path: OPENAPI_PATH,
    handler: () => ok((served ??= createOpenApiDocument({ serverUrl: mountPath || '/' }))),
  };
}
