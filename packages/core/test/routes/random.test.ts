/**
 * `/v1/random/*`: a fresh pick per request from the injected random source, never cached (spec,
 * "Further catalogue endpoints"), with `Cache-Control: no-store`, also behind the gateway's cache
 * and on HEAD.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';

const store = createMemoryStore(demoData);
const KINDS = ['anime', 'manga', 'characters', 'people'] as const;

/** A deterministic random source stepping through [0, 1). */
function stepper(steps: number) {
  let i = 0;
  return () => (i++ % steps) / steps;
}

async function pick(app: ReturnType<typeof createCatalogueApp>, path: string, headers?: HeadersInit) {
  const res = await app.fetch(new Request(`http://localhost${path}`, { headers }));
  const body = (await res.json()) as { data: { mal_id: number } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { id: body.data.mal_id, cacheControl: res.headers.get('cache-control') };
}

describe.each(KINDS)('/v1/random/%s', (kind) => {
  const path = `/v1/random/${kind}`;

  it('draws a new pick per request from the injected random source', async () => {
    const app = createCatalogueApp({ store, gateway: false, random: stepper(7) });
    const ids = new Set<number>();
    for (let n = 0; n < 7; n++) ids.add((await pick(app, path)).id);
    expect(ids.size).toBe(7);
  });

  it('gives different picks across requests with the default source, through the gateway and its cache', async () => {
    // Gateway on (cache included), rate limits off so that many requests from one client pass.
    const app = createCatalogueApp({ store, gateway: { rateLimit: false } });
    const ids = new Set<number>();
    for (let n = 0; n < 20; n++) {
      const { id, cacheControl } = await pick(app, path);
      ids.add(id);
      expect(cacheControl).toBe('no-store');
    }
    // 20 uniform draws over dozens of records repeat one value 20 times with negligible probability.
    expect(ids.size).toBeGreaterThan(1);
  });

  it('is not served from the Server Key cache either', async () => {
    const app = createCatalogueApp({ store, gateway: { rateLimit: false, keys: ['k'] }, random: stepper(5) });
    const ids = new Set<number>();
    for (let n = 0; n < 5; n++) ids.add((await pick(app, path, { 'x-server-key': 'k' })).id);
    expect(ids.size).toBe(5);
  });

  it('answers Cache-Control: no-store without the gateway too', async () => {
    const app = createCatalogueApp({ store, gateway: false });
    expect((await pick(app, path)).cacheControl).toBe('no-store');
  });
});

describe('/v1/random/anime and /manga filters', () => {
  it.each(['anime', 'manga'])('/v1/random/%s?unapproved=only picks only unapproved entries, or 404 when there are none', async (kind) => {
    const app = createCatalogueApp({ store, gateway: false, random: stepper(10) });
    const records = (kind === 'anime' ? demoData.anime : demoData.manga!) as ReadonlyArray<{ mal_id: number; approved: boolean }>;
    const unapproved = new Set(records.filter((r) => !r.approved).map((r) => r.mal_id));
    for (let n = 0; n < 10; n++) {
      const res = await app.fetch(new Request(`http://localhost/v1/random/${kind}?unapproved=only`));
      if (unapproved.size === 0) {
        expect(res.status).toBe(404);
      } else {
        expect(unapproved.has(((await res.json()) as { data: { mal_id: number } }).data.mal_id)).toBe(true);
      }
    }
  });

  it('answers 404 when nothing matches', async () => {
    const app = createCatalogueApp({ store: createMemoryStore({}), gateway: false });
    const res = await app.fetch(new Request('http://localhost/v1/random/anime'));
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
