/**
 * Every route of the OpenAPI document answered by two apps, compared byte for byte
 * (packages/testkit/src/differential.ts): the catalogue over the indexed memory store against the
 * same catalogue over the plain reference record store, loaded as the memory store is and with its
 * ordered collections written in reverse. (Before the seam replaced it, the first app ran over the
 * old endpoint-shaped memory store, and the two agreed on every request.)
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore, createOpenApiDocument } from '../src/index.js';
import { createRecordStore, loadCatalogue, type CatalogueData, type CatalogueStore } from '../src/entry-store.js';
import { compareApps, defineDifferentialContract, differentialRequests, type FetchHandler } from '../../testkit/src/differential.js';

// A fixed clock (inside a demo season, for /v1/seasons/now) and a fixed pick for /v1/random/*.
const now = () => Date.UTC(2024, 3, 15, 12);
const random = () => 0.42;
// A 500 is reported by the comparison; its log lines would only bury it.
const logger = { error: () => {} };
const appOver = (store: CatalogueStore): FetchHandler => createCatalogueApp({ store, gateway: false, now, random, logger }).fetch;

defineDifferentialContract('memory store vs reference record store', async () => ({
  a: appOver(createMemoryStore(demoData)),
  b: appOver(await loadCatalogue(createRecordStore(), demoData)),
}));

/**
 * The collections whose lists the memory store orders by their own fields: written to the reference
 * store in reverse, so that an answer relying on the stored order instead of an explicit order (ties
 * by `mal_id` included) shows up.
 */
const REORDERED = ['anime', 'manga', 'episodes', 'forum', 'news', 'articles', 'stacks', 'reviews', 'recommendations', 'updates', 'deletedAnimeIds', 'deletedMangaIds'] as const;
const reversed: CatalogueData = { ...demoData, ...Object.fromEntries(REORDERED.map((c) => [c, [...(demoData[c] ?? [])].reverse()])) };

defineDifferentialContract('memory store vs reference record store written in reverse', async () => ({
  a: appOver(createMemoryStore(demoData)),
  b: appOver(await loadCatalogue(createRecordStore(), reversed)),
}));

// The harness itself: two apps over the same store agree everywhere...
defineDifferentialContract('memory store vs itself', () => ({ a: appOver(createMemoryStore(demoData)), b: appOver(createMemoryStore(demoData)) }));

describe('the differential harness', () => {
  const requests = differentialRequests(createOpenApiDocument());

  it('derives a few thousand requests covering every documented path', () => {
    const routes = new Set(requests.map((r) => r.route));
    expect(routes).toEqual(new Set(Object.keys(createOpenApiDocument().paths)));
    expect(requests.length).toBeGreaterThan(1000);
    expect(requests.length).toBeLessThan(10_000);
    expect(requests.filter((r) => r.compare === 'first').length).toBeGreaterThan(50);
    expect(requests.some((r) => r.target === '/v1/anime/999999999')).toBe(true);
    expect(requests.some((r) => r.target.endsWith('?sfw&sfw-strict'))).toBe(true);
    expect(requests.some((r) => r.target.includes('page=1000'))).toBe(true);
  });

  it('reports an answer whose body differs by one character, and only that one', async () => {
    const a = appOver(createMemoryStore(demoData));
    const altered: FetchHandler = async (request) => {
      const res = await a(request);
      if (new URL(request.url).pathname !== '/v1/anime/20/characters') return res;
      return new Response((await res.text()).replace('"Main"', '"Mainn"'), res);
    };
    const problems = await compareApps({ a, b: altered }, requests.filter((r) => r.route.startsWith('/v1/anime/{id}/')));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('/v1/anime/20/characters'))).toBe(true);
    expect(problems[0]).toMatch(/bodies differ at char \d+/);
  });

  it('reports a different status, and a different first hit for an exact title', async () => {
    const a = appOver(createMemoryStore(demoData));
    const manga = `/v1/manga/${demoData.manga![0]!.mal_id}`;
    const broken: FetchHandler = async (request) => {
      const url = new URL(request.url);
      if (url.pathname === manga) return new Response('{}', { status: 500 });
      if (url.pathname === '/v1/anime' && url.searchParams.has('q')) {
        const body = (await (await a(request)).json()) as { data: unknown[] };
        return Response.json({ ...body, data: body.data.slice(1) });
      }
      return a(request);
    };
    const problems = await compareApps({ a, b: broken }, [
      { route: '/v1/manga/{id}', target: manga, compare: 'bytes' },
      { route: '/v1/anime', target: '/v1/anime?q=Cowboy%20Bebop', compare: 'first' },
      { route: '/v1/anime', target: '/v1/anime?q=sword', compare: 'ok' },
    ]);
    expect(problems).toEqual([`${manga}: status 200 vs 500`, expect.stringMatching(/^\/v1\/anime\?q=Cowboy%20Bebop: first entries differ/)]);
  });
});
