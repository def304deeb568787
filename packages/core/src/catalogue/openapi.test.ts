import { demoData } from '@catalogue-api/demo-data';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { createOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from './openapi.js';
import { catalogueRoutes } from './routes/index.js';
import { unavailableRoutes } from './routes/unavailable.js';

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, random: () => 0.5 });
const get = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));

type Operation = {
  parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  responses: Record<string, { content?: { 'application/json': { schema: { $ref?: string } } } }>;
};

let doc: OpenApiDocument;
let ajv: Ajv2020;
const DOC_ID = 'https://catalogue-api.test/openapi.json';

beforeAll(async () => {
  const res = await get(OPENAPI_PATH);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The components, under a base URI, so that `#/components/schemas/X` refs resolve as in the document.
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
});

/** Validates a body against a documented schema ref and returns ajv's errors (none when valid). */
function check(schemaRef: string, body: unknown) {
  const validate = ajv.getSchema(`${DOC_ID}${schemaRef}`) ?? ajv.compile({ $ref: `${DOC_ID}${schemaRef}` });
  return validate(body) ? [] : (validate.errors ?? []).slice(0, 5);
}

// Sample ids that exist in the demo dataset, for each path parameter.
const episode = demoData.episodes?.[0];
const seasonal = demoData.anime.find((a) => a.year !== null && a.season !== null)!;
function sampleFor(path: string, name: string): string {
  const kind = path.split('/')[2];
  if (name === 'episode') return String(episode?.mal_id ?? 1);
  if (name === 'year') return String(seasonal.year);
  if (name === 'season') return String(seasonal.season);
  if (name === 'filter') return 'monday';
  const first: Record<string, number | undefined> = {
    anime: episode?.anime_id ?? demoData.anime[0]?.mal_id,
    manga: demoData.manga?.[0]?.mal_id,
    characters: demoData.characters?.[0]?.mal_id,
    people: demoData.people?.[0]?.mal_id,
    producers: demoData.producers?.[0]?.mal_id,
    news: demoData.news?.[0]?.mal_id,
    articles: demoData.articles?.[0]?.mal_id,
    stacks: demoData.stacks?.[0]?.mal_id,
  };
  return String(first[kind!] ?? 1);
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every implemented catalogue route, and no unavailable one', () => {
    const unavailable = new Set(unavailableRoutes);
    const expected = catalogueRoutes.filter((r) => !unavailable.has(r)).map((r) => r.path.replace(/:(\w+)/g, '{$1}'));
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(expected)].sort());
    expect(doc.paths['/v1/users/{id}']).toBeUndefined();
    expect(doc.paths['/v1/manga/{id}/forum']).toBeUndefined();
  });

  it('gives every route a named 200 response schema', () => {
    const missing = Object.entries(doc.paths).filter(([, item]) => {
      const schema = (item.get as Operation).responses['200']?.content?.['application/json'].schema;
      return !schema?.$ref;
    });
    expect(missing.map(([path]) => path)).toEqual([]);
  });

  it('documents the bounds of /v1/anime parameters from the zod definitions', () => {
    const params = Object.fromEntries((doc.paths['/v1/anime']!.get as Operation).parameters.map((p) => [p.name, p]));
    expect(params.limit!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 25 });
    expect(params.page!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 1 });
    expect(params.q!.schema).toEqual({ type: 'string', maxLength: 200 });
    expect(params.score!.schema).toMatchObject({ type: 'number', minimum: 1, maximum: 9.99 });
    expect(params.letter!.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 1 });
    expect(params.type).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', items: { enum: expect.arrayContaining(['tv', 'tv_special']) } } });
    expect(params.rating!.schema).toMatchObject({ items: { enum: ['g', 'pg', 'pg13', 'r17', 'r', 'rx'] } });
    expect(params.unapproved!.schema).toMatchObject({ enum: expect.arrayContaining(['only']) });
    expect(Object.keys(params)).toEqual(expect.arrayContaining(['sfw', 'sfw-strict', 'order_by', 'sort', 'start_date', 'end_date', 'genres']));
  });

  it('documents the error envelope, its headers and the X-Server-Key scheme', () => {
    const responses = doc.components.responses as Record<string, { headers: Record<string, unknown> }>;
    expect(Object.keys(responses.TooManyRequests!.headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Reset']));
    expect(Object.keys(responses.MethodNotAllowed!.headers)).toContain('Allow');
    expect(Object.keys(responses.ServiceUnavailable!.headers)).toContain('Retry-After');
    expect(doc.components.securitySchemes).toEqual({ ServerKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Server-Key' }) });
    const ok = (doc.paths['/v1/anime/{id}']!.get as { responses: Record<string, { headers: object }> }).responses['200']!;
    expect(Object.keys(ok.headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'RateLimit-Limit', 'RateLimit-Remaining']));
  });

  it('is the same document createOpenApiDocument builds', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
  });
});

describe('live demo responses match the documented schemas', () => {
  const paths = catalogueRoutes.filter((r) => !unavailableRoutes.includes(r)).map((r) => r.path);
  it.each(paths)('GET %s', async (pattern) => {
    const path = pattern.replace(/:(\w+)/g, (_m, name: string) => sampleFor(pattern, name));
    const res = await get(path);
    const body: unknown = await res.json();
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    const operation = doc.paths[pattern.replace(/:(\w+)/g, '{$1}')]!.get as Operation;
    const ref = operation.responses['200']!.content!['application/json'].schema.$ref!;
    expect(check(ref, body)).toEqual([]);
  });

  it.each([
    '/v1/anime?q=cowboy&type=tv,movie&rating=pg13,r17&limit=50&order_by=score&sort=desc',
    '/v1/anime?sfw&sfw-strict&unapproved=only',
    '/v1/manga?limit=3&page=2',
  ])('GET %s (search with parameters)', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const pattern = path.split('?')[0]!;
    const ref = (doc.paths[pattern]!.get as Operation).responses['200']!.content!['application/json'].schema.$ref!;
    expect(check(ref, await res.json())).toEqual([]);
  });

  it.each([
    ['/v1/anime?limit=51', 400],
    ['/v1/anime/999999999', 404],
    ['/v1/no-such-route', 404],
  ])('GET %s is a documented error envelope (%i)', async (path, status) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(check('#/components/schemas/Error', await res.json())).toEqual([]);
  });

  it('answers other methods with the documented 405 envelope and Allow', async () => {
    const res = await get('/v1/anime', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(check('#/components/schemas/Error', await res.json())).toEqual([]);
  });

  it('rejects a body that breaks the documented shape (the check can fail)', () => {
    expect(check('#/components/schemas/AnimeByIdResponse', { data: { mal_id: 'one' } })).not.toEqual([]);
  });
});
