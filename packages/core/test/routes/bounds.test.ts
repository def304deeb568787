/**
 * Every parameter's bounds on every endpoint: for each route of the catalogue table and each key of
 * the query schema its handler parses (`route.query`), out-of-bounds values answer 400 with a message
 * that starts with the parameter's name, and the values at the bounds are accepted. A new parameter
 * without an entry in `BAD` fails the suite, so the table cannot fall behind the routes.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';
import { catalogueRoutes } from '../../src/catalogue/routes/index.js';
import { sfwCatalogue } from './sfw-catalogue.js';

const app = createCatalogueApp({ store: createMemoryStore(sfwCatalogue), gateway: false });

/** Values outside what each parameter allows. */
const BAD: Record<string, string[]> = {
  page: ['0', '1001', '-1', '1.5', 'abc'],
  limit: ['0', '51', '2.0', 'ten'],
  q: ['x'.repeat(201)],
  type: ['bogus'],
  status: ['bogus'],
  rating: ['bogus', 'g,bogus'],
  filter: ['bogus'],
  order_by: ['bogus'],
  sort: ['up'],
  letter: ['ab'],
  score: ['0.99', '10', 'x'],
  min_score: ['-0.1', '10.01'],
  max_score: ['0.5', '11'],
  genres: ['x', '0'],
  genres_exclude: ['x', '0'],
  producers: ['x', '0'],
  producer: ['x', '0', '1.5'],
  magazines: ['x', '0'],
  start_date: ['2024-13-01', 'soon'],
  end_date: ['2024-02-30', 'later'],
  sfw: ['yes'],
  'sfw-strict': ['yes'],
  unapproved: ['maybe'],
  kids: ['maybe'],
  continuing: ['maybe'],
  preliminary: ['maybe'],
  spoilers: ['maybe'],
  include: ['bogus', 'title,bogus'],
  updated_at: ['yesterday', '2024-02-30T00:00:00Z', '2024-01-01T25:00:00Z'],
  tag: ['x', '0'],
};

/** Values at the bounds (or of every accepted form) that must not be refused. */
const GOOD: Record<string, string[] | ((route: string) => string[])> = {
  page: ['1', '1000'],
  limit: ['1', '50'],
  q: ['x'.repeat(200), ''],
  letter: ['a'],
  score: ['1', '9.99'],
  min_score: ['0', '10'],
  max_score: ['1', '10'],
  sfw: ['', 'true', '1', 'false', '0'],
  unapproved: ['', 'true', 'false', 'only'],
  kids: ['', 'true', 'false'],
  updated_at: ['2024-01-01', '2024-01-01T00:00:00Z', '2024-01-01T09:00:00+09:00', '1704067200'],
  sort: (route) => (/^\/v1\/reviews\/|\/reviews$/.test(route) ? ['MostVoted', 'newest', 'OLDEST'] : ['ASC', 'desc']),
};

const goodValues = (route: string, key: string) => {
  const good = GOOD[key];
  return typeof good === 'function' ? good(route) : good;
};

/** A valid value for each path parameter, so that only the query can be at fault. */
const PATH_VALUES: Record<string, string> = { id: '1', episode: '1', year: '2024', season: 'spring', filter: 'monday' };

function concrete(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => PATH_VALUES[name] ?? '1');
}

/** The keys of a route's query schema (an object, possibly refined and piped through a transform). */
function queryKeys(schema: z.ZodType): string[] {
  let s = schema as unknown as { def: { type: string; in?: unknown }; shape?: Record<string, unknown> };
  while (s.def.type === 'pipe') s = s.def.in as typeof s;
  expect(s.def.type, 'a route query schema is a z.object').toBe('object');
  return Object.keys(s.shape ?? {});
}

async function get(path: string) {
  const res = await app.fetch(new Request(`http://localhost${path}`));
  return { status: res.status, body: (await res.json()) as { message?: string; type?: string } };
}

const withParam = (path: string, name: string, value: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;

const ROWS = catalogueRoutes
  .filter((route) => route.query)
  .flatMap((route) =>
    queryKeys(route.query!)
      // `/v1/schedules/:filter` takes its filter from the path (tested below).
      .filter((key) => !(route.path.endsWith('/:filter') && key === 'filter'))
      .map((key) => ({ route: route.path, key })),
  );

describe('query parameter bounds', () => {
  it('covers many endpoints and parameters', () => {
    expect(new Set(ROWS.map((r) => r.route)).size).toBeGreaterThan(40);
  });

  describe.each(ROWS)('$route ?$key', ({ route, key }) => {
    it(`rejects values outside the bounds with 400 naming "${key}"`, async () => {
      const bad = BAD[key];
      expect(bad, `BAD has no values for "${key}"`).toBeDefined();
      for (const value of bad!) {
        const { status, body } = await get(withParam(concrete(route), key, value));
        expect(status, `${key}=${value}`).toBe(400);
        expect(body.type).toBe('BadRequestException');
        expect(body.message?.startsWith(`${key} `), `${key}=${value}: ${body.message}`).toBe(true);
      }
    });

    if (GOOD[key]) {
      it(`accepts ${key} at its bounds`, async () => {
        for (const value of goodValues(route, key) ?? []) {
          const { status, body } = await get(withParam(concrete(route), key, value));
          expect(status, `${key}=${value}: ${body.message}`).not.toBe(400);
        }
      });
    }
  });
});

describe('path parameter bounds', () => {
  const ID_ROUTES = catalogueRoutes.filter((r) => r.path.includes(':id') && !/\/(forum|userupdates)$/.test(r.path));

  it.each(ID_ROUTES.map((r) => [r.path]))('%s rejects a non-numeric or zero id with 400 naming "id"', async (pattern) => {
    for (const id of ['abc', '0', '1.5']) {
      const { status, body } = await get(concrete(pattern).replace(/\/1(?=\/|$)/, `/${id}`));
      expect(status, `${pattern} id=${id}`).toBe(400);
      expect(body.message).toMatch(/^id /);
    }
  });

  it.each([
    ['/v1/anime/1/episodes/0', 'episode'],
    ['/v1/anime/1/episodes/x', 'episode'],
    ['/v1/seasons/999/spring', 'year'],
    ['/v1/seasons/3000/spring', 'year'],
    ['/v1/seasons/twenty/spring', 'year'],
    ['/v1/seasons/2024/monsoon', 'season'],
    ['/v1/schedules/someday', 'filter'],
  ])('%s is 400 naming "%s"', async (path, name) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.message).toMatch(new RegExp(`^${name} `));
  });

  it.each([['/v1/seasons/1000/WINTER'], ['/v1/seasons/2999/fall'], ['/v1/schedules/Monday'], ['/v1/anime/1/episodes/1']])(
    '%s is accepted',
    async (path) => {
      expect((await get(path)).status).not.toBe(400);
    },
  );
});

describe('/v1/anime/{id}/forum filter', () => {
  it.each([['all'], ['other'], ['topic']])('rejects filter=%s: only episode threads exist', async (filter) => {
    const { status, body } = await get(`/v1/anime/1/forum?filter=${filter}`);
    expect(status).toBe(400);
    expect(body.message).toBe('filter must be one of: episode');
  });

  it.each([[''], ['?filter=episode'], ['?filter=EPISODE']])('answers episode threads for %s', async (query) => {
    expect((await get(`/v1/anime/1/forum${query}`)).status).toBe(200);
  });
});
