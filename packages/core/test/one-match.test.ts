/**
 * A request's path is canonicalised once and matched against the route table once, whatever
 * stages it passes (observer, combineApps, gateway with its cache, the route): the matcher and the
 * canonicaliser are counted through their modules.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const counts = vi.hoisted(() => ({ matches: 0, canonicalised: 0 }));

vi.mock('../src/edge/route-match.js', async (original) => {
  const actual = await original<typeof import('../src/edge/route-match.js')>();
  return {
    ...actual,
    createRouteMatcher: ((routes) => {
      const match = actual.createRouteMatcher(routes);
      return (path: string) => {
        counts.matches++;
        return match(path);
      };
    }) as typeof actual.createRouteMatcher,
  };
});

vi.mock('../src/edge/request-target.js', async (original) => {
  const actual = await original<typeof import('../src/edge/request-target.js')>();
  return {
    ...actual,
    toCanonicalRequest: ((...args) => {
      counts.canonicalised++;
      return actual.toCanonicalRequest(...args);
    }) as typeof actual.toCanonicalRequest,
    toCanonicalPath: ((path) => {
      counts.canonicalised++;
      return actual.toCanonicalPath(path);
    }) as typeof actual.toCanonicalPath,
  };
});

const { combineApps, createCatalogueApp, createMemoryStore, createObservedApp, createStatusApp } = await import('../src/index.js');
const { demoData } = await import('@catalogue-api/demo-data');

const store = createMemoryStore(demoData);
const catalogue = createCatalogueApp({ store, gateway: { rateLimit: false }, logger: { error: () => undefined } });
const apps = {
  'the catalogue': catalogue,
  'combineApps(status, catalogue), observed': createObservedApp(combineApps(createStatusApp({ services: [] }), catalogue), { observers: [() => undefined] }),
};

const paths = ['/v1/anime?q=naruto', '/v1/anime/1', '/v1/anime/1/', '/v1/./anime/1/full', '/v1/random/anime', '/v1/nope', '/api/status', '/v1/genres/anime?filter=themes'];

describe.each(Object.entries(apps))('%s', (_, app) => {
  beforeEach(() => {
    counts.matches = 0;
    counts.canonicalised = 0;
  });

  // Twice: a miss that reaches the route, then a gateway cache hit that never does.
  it.each(paths.flatMap((path) => [[path, 'first'], [path, 'again']]))('%s (%s): one match, one canonicalisation', async (path) => {
    const response = await app.fetch(new Request(`http://localhost${path}`));
    await response.arrayBuffer();
    expect(counts).toEqual({ matches: 1, canonicalised: 1 });
  });

  it('one of each for a HEAD, an OPTIONS and a 405 too', async () => {
    for (const method of ['HEAD', 'OPTIONS', 'POST']) {
      counts.matches = 0;
      counts.canonicalised = 0;
      await app.fetch(new Request('http://localhost/v1/anime/1', { method }));
      expect(counts, method).toEqual({ matches: 1, canonicalised: 1 });
    }
  });
});
