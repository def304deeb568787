/**
 * What the routes themselves decide, on the demo dataset: 404 for unknown roots, the two pagination
 * shapes and their arithmetic, the current season in Japan time, the ids lists' `include`, totals and
 * `updated_at`, the review flags' defaults, one entry's reviews, and tag filtering of news.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '../../src/index.js';
import { type CatalogueStore, type CollectionName, type PluckQuery } from '../../src/entry-store.js';
import { catalogueRoutes } from '../../src/catalogue/routes/index.js';
import { seasonAt } from '../../src/catalogue/routes/seasons.js';
import { unavailableRoutes } from '../../src/catalogue/routes/unavailable.js';

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });

async function get(path: string) {
  const res = await app.fetch(new Request(`http://localhost${path}`));
  return { status: res.status, body: (await res.json()) as any };
}

const unavailable = new Set(unavailableRoutes.map((r) => r.path));

describe('unknown records', () => {
  const ID_ROUTES = catalogueRoutes.filter((r) => r.path.includes(':id') && !unavailable.has(r.path));

  it.each(ID_ROUTES.map((r) => [r.path]))('%s answers 404 for an id that does not exist', async (pattern) => {
    const { status, body } = await get(pattern.replace(':id', '999999999').replace(':episode', '1'));
    expect(status).toBe(404);
    expect(body).toMatchObject({ status: 404, type: 'NotFoundException' });
    expect(body.message).toContain('999999999');
  });

  it('answers 404 naming the episode for an episode the anime does not have', async () => {
    const { status, body } = await get('/v1/anime/20/episodes/221');
    expect(status).toBe(404);
    expect(body.message).toBe('No episode of anime 20 with id 221 exists');
  });
});

describe('pagination shapes', () => {
  it('pages episodes by 100 with the short pagination object (Jikan P-)', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => get(`/v1/anime/20/episodes?page=${page}`)));
    expect(pages.map((p) => p.body.data.length)).toEqual([100, 100, 20, 0]);
    expect(pages.map((p) => p.body.pagination)).toEqual([
      { last_visible_page: 3, has_next_page: true },
      { last_visible_page: 3, has_next_page: true },
      { last_visible_page: 3, has_next_page: false },
      { last_visible_page: 3, has_next_page: false },
    ]);
    expect(pages[1]!.body.data[0].mal_id).toBe(101);
  });

  it.each([
    ['/v1/manga?limit=5&page=2', 'full'],
    ['/v1/characters?limit=5', 'full'],
    ['/v1/top/anime?limit=5', 'full'],
    ['/v1/news?limit=5', 'full'],
    ['/v1/stacks?limit=5', 'full'],
    ['/v1/producers?limit=5', 'full'],
    ['/v1/magazines?limit=5', 'full'],
    ['/v1/seasons/upcoming?limit=5', 'full'],
    ['/v1/schedules?limit=5', 'full'],
    ['/v1/reviews/anime', 'short'],
    ['/v1/recommendations/anime', 'short'],
    ['/v1/top/reviews', 'short'],
    ['/v1/seasons', 'short'],
  ])('%s has the %s pagination object', async (path, shape) => {
    const { status, body } = await get(path);
    expect(status).toBe(200);
    const keys = shape === 'full' ? ['current_page', 'has_next_page', 'items', 'last_visible_page'] : ['has_next_page', 'last_visible_page'];
    expect(Object.keys(body.pagination).sort()).toEqual(keys);
    if (shape === 'full') {
      const limit = Number(new URL(path, 'http://x').searchParams.get('limit'));
      const page = Number(new URL(path, 'http://x').searchParams.get('page') ?? 1);
      expect(body.pagination.items.per_page).toBe(limit);
      expect(body.pagination.current_page).toBe(page);
      expect(body.pagination.items.count).toBe(body.data.length);
      expect(body.pagination.last_visible_page).toBe(Math.max(1, Math.ceil(body.pagination.items.total / limit)));
    }
  });

  it('honours limit on /v1/top/reviews within 1..50', async () => {
    const { body } = await get('/v1/top/reviews?limit=3');
    expect(body.data).toHaveLength(3);
  });
});

describe('seasons', () => {
  it.each([
    [Date.UTC(2024, 2, 31, 14, 59), { year: 2024, season: 'winter' }],
    [Date.UTC(2024, 2, 31, 15, 0), { year: 2024, season: 'spring' }],
    [Date.UTC(2024, 11, 31, 15, 0), { year: 2025, season: 'winter' }],
    [Date.UTC(2024, 8, 30, 14, 59), { year: 2024, season: 'summer' }],
    [Date.UTC(2024, 9, 1, 0, 0), { year: 2024, season: 'fall' }],
  ])('the season at %i is the one in Japan (UTC+9)', (now, expected) => {
    expect(seasonAt(now)).toEqual(expected);
  });

  it('/v1/seasons/now answers the season of the injected clock', async () => {
    const seasonal = demoData.anime.find((a) => a.season && a.year && a.approved)!;
    const month = { winter: 1, spring: 4, summer: 7, fall: 10 }[seasonal.season!];
    const clocked = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, now: () => Date.UTC(seasonal.year!, month, 1) });
    const now = (await (await clocked.fetch(new Request('http://x/v1/seasons/now?limit=50'))).json()) as any;
    const explicit = (await get(`/v1/seasons/${seasonal.year}/${seasonal.season!.toUpperCase()}?limit=50`)).body;
    expect(now.data.length).toBeGreaterThan(0);
    expect(now).toEqual(explicit);
  });

  it('filters seasons by several types at once', async () => {
    const { body } = await get('/v1/seasons/upcoming?filter=tv,movie&limit=50');
    expect(body.data.length).toBeGreaterThan(0);
    for (const a of body.data) expect(['TV', 'Movie']).toContain(a.type);
  });
});

describe('/v1/anime/ids and /v1/manga/ids', () => {
  it('answers every anime id ascending, with the total', async () => {
    const { body } = await get('/v1/anime/ids');
    expect(body.total).toBe(body.data.length);
    expect(body.data).toEqual([...body.data].sort((a: number, b: number) => a - b));
    expect(body.total).toBeGreaterThan(100);
  });

  it('returns exactly the included fields beside each id', async () => {
    const { body } = await get('/v1/anime/ids?include=title,TYPE&type=tv');
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(['mal_id', 'title', 'type']);
      expect(item.type).toBe('TV');
    }
  });

  it('filters by several ratings at once', async () => {
    const { body } = await get('/v1/anime/ids?rating=g,pg&include=rating');
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) expect(['G - All Ages', 'PG - Children']).toContain(item.rating);
  });

  it('reads updated_at as an ISO 8601 date-time or a Unix timestamp, with the same result', async () => {
    const iso = (await get('/v1/anime/ids?updated_at=2025-06-01T00:00:00Z')).body;
    const offset = (await get('/v1/anime/ids?updated_at=2025-06-01T09:00:00%2B09:00')).body;
    const unix = (await get(`/v1/anime/ids?updated_at=${Date.UTC(2025, 5, 1) / 1000}`)).body;
    const all = (await get('/v1/anime/ids')).body;
    expect(iso.total).toBeGreaterThan(0);
    expect(iso.total).toBeLessThan(all.total);
    expect(unix).toEqual(iso);
    expect(offset).toEqual(iso);
    expect((await get('/v1/manga/ids?updated_at=2999-01-01')).body).toEqual({ total: 0, data: [] });
  });

  it('validates include against the manga fields (manga have no rating, anime no chapters)', async () => {
    expect((await get('/v1/manga/ids?include=chapters')).status).toBe(200);
    expect((await get('/v1/manga/ids?include=rating')).status).toBe(400);
    expect((await get('/v1/anime/ids?include=chapters')).status).toBe(400);
    expect((await get('/v1/manga/ids?rating=g')).status).toBe(200); // unknown keys are ignored, as Jikan does
  });
});

describe('id lists from a store that writes them as JSON (pluckJson)', () => {
  const store = createMemoryStore(demoData);
  const asked: string[] = [];
  // The memory store has no pluckJson: this one writes what pluck gives, and notes each call.
  const writing: CatalogueStore = Object.assign(Object.create(store) as CatalogueStore, {
    async pluckJson(collection: CollectionName, field: string, query: PluckQuery) {
      asked.push(`${collection}.${field}`);
      const values = await store.pluck(collection, field, query);
      return { count: values.length, json: new TextEncoder().encode(JSON.stringify(values)) };
    },
  });
  const targets = ['/v1/anime/ids', '/v1/manga/ids?status=publishing&sfw', '/v1/anime/ids?updated_at=2025-06-01T00:00:00Z', '/v1/manga/ids?updated_at=2999-01-01', '/v1/anime/ids?include=title'];

  it.each([true, false])('answers the same bytes and headers as from pluck (response cache: %s), twice', async (cache) => {
    const plain = createCatalogueApp({ store, gateway: { rateLimit: false, cache: cache && {} } });
    const written = createCatalogueApp({ store: writing, gateway: { rateLimit: false, cache: cache && {} } });
    const answer = async (app: typeof plain, target: string, method = 'GET') => {
      const res = await app.fetch(new Request(`http://localhost${target}`, { method }));
      return { status: res.status, etag: res.headers.get('etag'), length: res.headers.get('content-length'), body: await res.text() };
    };
    asked.length = 0;
    for (const target of targets) {
      for (let i = 0; i < 2; i++) expect(await answer(written, target), target).toEqual(await answer(plain, target));
      expect(await answer(written, target, 'HEAD'), target).toEqual(await answer(plain, target, 'HEAD'));
    }
    // Only the bare lists are written by the store: once each with the cache, else per request.
    const bare = ['anime.mal_id', 'manga.mal_id', 'anime.mal_id', 'manga.mal_id'];
    expect(asked).toEqual(cache ? bare : bare.flatMap((call) => [call, call, call]));
  });
});

describe('deleted ids', () => {
  it.each(['anime', 'manga'])('/v1/%s/deleted lists ids ascending with the total, none of them served', async (kind) => {
    const { body } = await get(`/v1/${kind}/deleted`);
    expect(body.total).toBe(body.data.length);
    expect(body.total).toBeGreaterThan(0);
    expect((await get(`/v1/${kind}/${body.data[0]}`)).status).toBe(404);
  });
});

describe('reviews', () => {
  it('/v1/top/reviews includes preliminary and spoiler reviews by default and drops them when asked', async () => {
    const all = (await get('/v1/top/reviews?limit=50')).body.data;
    expect(all.some((r: any) => r.is_preliminary)).toBe(true);
    const strict = (await get('/v1/top/reviews?limit=50&preliminary=false&spoilers=false')).body.data;
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.some((r: any) => r.is_preliminary || r.is_spoiler)).toBe(false);
  });

  it('/v1/reviews/anime leaves out preliminary and spoiler reviews unless asked', async () => {
    const plain = (await get('/v1/reviews/anime')).body.data;
    expect(plain.some((r: any) => r.is_preliminary || r.is_spoiler)).toBe(false);
    const every = (await get('/v1/reviews/anime?preliminary&spoilers')).body.data;
    expect(every.some((r: any) => r.is_preliminary || r.is_spoiler)).toBe(true);
  });

  it('/v1/top/reviews?type=manga answers manga reviews', async () => {
    const { body } = await get('/v1/top/reviews?type=MANGA');
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) expect(r.type).toBe('manga');
  });
});

describe.each(['anime', 'manga'] as const)('/v1/%s/{id}/reviews', (kind) => {
  const reviews = demoData.reviews!.filter((r) => r.type === kind);
  const hidden = (r: { is_preliminary: boolean; is_spoiler: boolean }) => r.is_preliminary || r.is_spoiler;
  // An entry with at least three reviews, some preliminary or spoilers and some neither.
  const entryId = reviews.find((r) => {
    const own = reviews.filter((o) => o.entry_id === r.entry_id);
    return own.length >= 3 && own.some(hidden) && own.some((o) => !hidden(o));
  })!.entry_id;
  const own = reviews.filter((r) => r.entry_id === entryId);
  const ids = (data: Array<{ mal_id: number }>) => data.map((r) => r.mal_id).sort((a, b) => a - b);

  it("answers exactly the entry's reviews, without entry, with the short pagination object", async () => {
    const { status, body } = await get(`/v1/${kind}/${entryId}/reviews?preliminary&spoilers`);
    expect(status).toBe(200);
    expect(ids(body.data)).toEqual(ids(own));
    expect(body.pagination).toEqual({ last_visible_page: 1, has_next_page: false });
    for (const r of body.data) {
      expect(r.type).toBe(kind);
      expect(r).not.toHaveProperty('entry');
      expect(r).toHaveProperty(kind === 'anime' ? 'episodes_watched' : 'chapters_read');
    }
  });

  it('leaves out preliminary and spoiler reviews unless asked', async () => {
    const { body } = await get(`/v1/${kind}/${entryId}/reviews`);
    expect(ids(body.data)).toEqual(ids(own.filter((r) => !hidden(r))));
  });

  it('orders by votes by default, and by date with sort=newest or oldest', async () => {
    const path = `/v1/${kind}/${entryId}/reviews?preliminary&spoilers`;
    const votes = (await get(path)).body.data.map((r: any) => r.reactions.overall);
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
    const newest = (await get(`${path}&sort=newest`)).body.data.map((r: any) => r.date);
    expect(newest).toEqual([...newest].sort().reverse());
    const oldest = (await get(`${path}&sort=oldest`)).body.data.map((r: any) => r.date);
    expect(oldest).toEqual([...newest].reverse());
  });
});

describe('/v1/anime?producer', () => {
  it('takes one producer id as Jikan\'s server does, like producers with one id', async () => {
    const studio = demoData.anime.find((a) => a.approved && a.studios.length)!.studios[0]!.mal_id;
    const one = await get(`/v1/anime?producer=${studio}&limit=50`);
    expect(one.status).toBe(200);
    expect(one.body.data.length).toBeGreaterThan(0);
    expect(one.body).toEqual((await get(`/v1/anime?producers=${studio}&limit=50`)).body);
    expect(one.body.pagination.items.total).toBeLessThan((await get('/v1/anime?limit=50')).body.pagination.items.total);
  });

  it('refuses producer together with producers, naming producer', async () => {
    const { status, body } = await get('/v1/anime?producer=1&producers=2');
    expect(status).toBe(400);
    expect(body.message).toMatch(/^producer /);
  });
});

describe('news', () => {
  it('filters by tag id and searches with q', async () => {
    const tags = (await get('/v1/news/tags')).body.data as Array<{ mal_id: number; count: number }>;
    const tag = tags.find((t) => t.count > 0)!;
    const tagged = (await get(`/v1/news?tag=${tag.mal_id}&limit=50`)).body;
    expect(tagged.pagination.items.total).toBe(tag.count);
    const first = tagged.data[0];
    const found = (await get(`/v1/news?q=${encodeURIComponent(first.title)}`)).body;
    expect(found.data[0].mal_id).toBe(first.mal_id);
  });
});
