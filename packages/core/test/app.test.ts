/**
 * The HTTP contract (docs/specification.md: Errors, Endpoints) through `app.fetch`: status codes, envelope, headers, HEAD/OPTIONS,
 * and the semantics of every `/v1/anime` parameter on the real demo dataset.
 */
import { demoData } from '@catalogue-api/demo-data';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalogueApp, createMemoryStore } from '../src/index.js';
import { type Anime } from '../src/entry-schemas.js';
import { type CatalogueStore } from '../src/entry-store.js';
import { animeListResponseSchema, animeResponseSchema, animeSchema } from '../src/schemas/anime.js';
import { makeAnime } from './fixtures.js';

const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
const get = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
async function json(path: string) {
  const res = await get(path);
  return { res, body: (await res.json()) as any };
}
async function list(path: string): Promise<{ data: Anime[]; pagination: any }> {
  const { res, body } = await json(path);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}
async function all(query: string): Promise<Anime[]> {
  const out: Anime[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await list(`/v1/anime?limit=50&page=${page}&${query}`);
    out.push(...data);
    if (!pagination.has_next_page) return out;
  }
}

const envelope = z.object({
  status: z.number().int(),
  type: z.string(),
  message: z.string().min(1),
  error: z.string().min(1),
  path: z.string(),
}).strict();

describe('errors', () => {
  it.each([
    ['/v1/anime?limit=51', 400, 'BadRequestException', /^limit must be an integer from 1 to 50$/],
    ['/v1/anime?page=0', 400, 'BadRequestException', /^page/],
    ['/v1/anime/abc', 400, 'BadRequestException', /^id must be a positive integer$/],
    ['/v1/anime/0', 400, 'BadRequestException', /^id/],
    ['/v1/anime/999999999', 404, 'NotFoundException', /anime/],
    ['/v1/nothing-here', 404, 'NotFoundException', /\/v1\/nothing-here/],
    ['/anime', 404, 'NotFoundException', /\/anime/],
    ['/v1/users/nekomata/full', 404, 'NotFoundException', /does not serve/],
    ['/v1/clubs', 404, 'NotFoundException', /does not serve/],
    ['/v1/watch/episodes', 404, 'NotFoundException', /does not serve/],
    ['/v1/manga/1/forum', 404, 'NotFoundException', /manga forum/],
    ['/v1/anime/1/userupdates', 404, 'NotFoundException', /user-updates/],
    ['/v1/manga/1/userupdates', 404, 'NotFoundException', /user-updates/],
  ])('GET %s → %i %s', async (path, status, type, message) => {
    const { res, body } = await json(path);
    expect(res.status).toBe(status);
    expect(envelope.parse(body)).toMatchObject({ status, type, path: path.split('?')[0] });
    expect(body.message).toMatch(message);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 with Allow', async (method) => {
    const { res, body } = { res: await get('/v1/anime', { method }), body: undefined };
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const parsed = envelope.parse(await res.json());
    expect(parsed).toMatchObject({ status: 405, type: 'MethodNotAllowedException', path: '/v1/anime' });
    void body;
  });

  it('turns an unexpected failure into the 500 envelope without internals', async () => {
    const logged: unknown[] = [];
    const failing = createCatalogueApp({
      // Only the method this request reaches; the rest of the interface is never called.
      store: {
        get: async () => { throw new Error('secret database detail'); },
      } as Partial<CatalogueStore> as CatalogueStore,
      logger: { error: (_m, detail) => logged.push(detail) },
      gateway: false,
    });
    const res = await failing.fetch(new Request('http://localhost/v1/anime/1'));
    expect(res.status).toBe(500);
    const body = envelope.parse(await res.json());
    expect(body).toMatchObject({ status: 500, type: 'InternalServerErrorException', path: '/v1/anime/1' });
    expect(JSON.stringify(body)).not.toMatch(/secret|at .*\.ts/);
    expect(logged).toHaveLength(1);
  });
});

describe('methods and headers', () => {
  it('answers every response with CORS and JSON headers', async () => {
    const res = await get('/v1/anime/1');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers HEAD like GET without a body', async () => {
    const [head, full] = await Promise.all([get('/v1/anime?q=naruto', { method: 'HEAD' }), get('/v1/anime?q=naruto')]);
    const text = await full.text();
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(full.headers.get('content-type'));
    expect(Number(head.headers.get('content-length'))).toBe(new TextEncoder().encode(text).byteLength);
  });

  it('answers HEAD of an error with its status and no body', async () => {
    const res = await get('/v1/anime?limit=0', { method: 'HEAD' });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('');
  });

  it('answers OPTIONS with 204, Allow and a CORS preflight', async () => {
    const res = await get('/v1/anime', { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Server-Key/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('tolerates a trailing slash', async () => {
    expect((await get('/v1/anime/20/')).status).toBe(200);
  });
});

describe('GET /v1/anime/{id}', () => {
  it('returns every field of the anime object with the right type and nullability', async () => {
    const { body } = await json('/v1/anime/20');
    const parsed = animeResponseSchema.strict().parse(body);
    expect(animeSchema.strict().parse(parsed.data)).toBeTruthy();
    expect(Object.keys(body.data)).toEqual(Object.keys(animeSchema.shape));
    expect(body.data).toMatchObject({ mal_id: 20, title: 'Naruto' });
  });

  it('gives absolute URLs clients can parse', async () => {
    const { body } = await json('/v1/anime/1');
    expect(new URL(body.data.url).hostname).toBe('myanimelist.net');
    for (const ref of [...body.data.genres, ...body.data.studios]) expect(() => new URL(ref.url)).not.toThrow();
  });
});

describe('GET /v1/anime', () => {
  it('validates every item of every page against the anime schema', async () => {
    for (const anime of await all('unapproved')) animeSchema.strict().parse(anime);
  });

  it('lists approved entries by mal_id ascending by default', async () => {
    const items = await all('');
    expect(items.length).toBe(demoData.anime.filter((a) => a.approved).length);
    expect(items.map((a) => a.mal_id)).toEqual([...items.map((a) => a.mal_id)].sort((a, b) => a - b));
  });

  it('describes pages exactly', async () => {
    const total = demoData.anime.filter((a) => a.approved).length;
    const { pagination, data } = await list('/v1/anime?limit=10&page=2');
    expect(data).toHaveLength(10);
    expect(pagination).toEqual({
      last_visible_page: Math.ceil(total / 10),
      has_next_page: true,
      current_page: 2,
      items: { count: 10, total, per_page: 10 },
    });
  });

  it('answers a page past the end with empty data and the true totals', async () => {
    const { pagination, data } = await list('/v1/anime?page=1000');
    expect(data).toEqual([]);
    expect(pagination).toMatchObject({ current_page: 1000, has_next_page: false, items: { count: 0, per_page: 25 } });
    expect(pagination.items.total).toBeGreaterThan(0);
  });

  it('answers no match with the empty shape', async () => {
    expect(await list('/v1/anime?q=zzzqqqxxxjjj')).toEqual({
      pagination: { last_visible_page: 1, has_next_page: false, current_page: 1, items: { count: 0, total: 0, per_page: 25 } },
      data: [],
    });
  });

  it('validates the whole list response', async () => {
    const { body } = await json('/v1/anime?q=naruto&limit=5');
    animeListResponseSchema.strict().parse(body);
  });

  describe('filters', () => {
    it('ORs several types', async () => {
      const items = await all('type=movie,ova');
      expect(new Set(items.map((a) => a.type))).toEqual(new Set(['Movie', 'OVA']));
    });

    it('ORs several ratings', async () => {
      const items = await all('rating=pg13,r17');
      expect(new Set(items.map((a) => a.rating))).toEqual(new Set(['PG-13 - Teens 13 or older', 'R - 17+ (violence & profanity)']));
    });

    it.each([
      ['airing', 'Currently Airing'],
      ['complete', 'Finished Airing'],
      ['upcoming', 'Not yet aired'],
    ])('maps status=%s to %s', async (status, label) => {
      const items = await all(`status=${status}`);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((a) => a.status === label)).toBe(true);
    });

    it('requires every listed genre, across genres, themes and demographics', async () => {
      const items = await all('genres=1,27');
      expect(items.length).toBeGreaterThan(0);
      for (const a of items) {
        const ids = [...a.genres, ...a.explicit_genres, ...a.themes, ...a.demographics].map((g) => g.mal_id);
        expect(ids).toEqual(expect.arrayContaining([1, 27]));
      }
    });

    it('excludes any listed genre', async () => {
      const items = await all('genres_exclude=1');
      expect(items.every((a) => !a.genres.some((g) => g.mal_id === 1))).toBe(true);
    });

    it('matches any listed producer among producers, studios and licensors', async () => {
      const naruto = demoData.anime.find((a) => a.mal_id === 20)!;
      const studio = naruto.studios[0]!.mal_id;
      const items = await all(`producers=${studio}`);
      expect(items.map((a) => a.mal_id)).toContain(20);
      for (const a of items) expect([...a.producers, ...a.studios, ...a.licensors].map((p) => p.mal_id)).toContain(studio);
    });

    it('filters by exact score and inclusive bounds', async () => {
      const some = demoData.anime.find((a) => a.approved && a.score !== null)!;
      expect((await all(`score=${some.score}`)).every((a) => a.score === some.score)).toBe(true);
      const bounded = await all('min_score=8&max_score=8.5');
      expect(bounded.length).toBeGreaterThan(0);
      expect(bounded.every((a) => a.score !== null && a.score >= 8 && a.score <= 8.5)).toBe(true);
    });

    it('filters by first letter, case-insensitively', async () => {
      const items = await all('letter=N');
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((a) => a.title.toLowerCase().startsWith('n'))).toBe(true);
      expect((await all('letter=n')).length).toBe(items.length);
    });

    it('bounds aired.from and aired.to by start_date and end_date, partial dates included', async () => {
      const items = await all('start_date=2010&end_date=2012-06');
      expect(items.length).toBeGreaterThan(0);
      for (const a of items) {
        expect(a.aired.from!.slice(0, 10) >= '2010-01-01').toBe(true);
        expect(a.aired.to!.slice(0, 10) <= '2012-06-30').toBe(true);
      }
    });

    it('shows approved entries only by default, both with unapproved, and only unapproved with only', async () => {
      const unapproved = demoData.anime.filter((a) => !a.approved).length;
      const approved = demoData.anime.length - unapproved;
      expect(unapproved).toBeGreaterThan(0);
      expect((await list('/v1/anime?limit=1')).pagination.items.total).toBe(approved);
      expect((await list('/v1/anime?limit=1&unapproved')).pagination.items.total).toBe(demoData.anime.length);
      expect((await list('/v1/anime?limit=1&unapproved=true')).pagination.items.total).toBe(demoData.anime.length);
      expect((await list('/v1/anime?limit=1&unapproved=only')).pagination.items.total).toBe(unapproved);
    });
  });

  describe('SFW', () => {
    const adult = (a: Anime) =>
      a.rating === 'R+ - Mild Nudity' ||
      a.rating === 'Rx - Hentai' ||
      [...a.genres, ...a.explicit_genres].some((g) => g.mal_id === 12 || g.mal_id === 49);
    const ecchi = (a: Anime) => a.explicit_genres.some((g) => g.mal_id === 9);

    it.each(['sfw', 'sfw=', 'sfw=true'])('drops R+, Rx, Hentai and Erotica with %s but keeps Ecchi', async (flag) => {
      const everything = await all('');
      expect(everything.some(adult)).toBe(true);
      const safe = await all(flag);
      expect(safe.some(adult)).toBe(false);
      expect(safe.length).toBe(everything.filter((a) => !adult(a)).length);
    });

    it('drops Ecchi as well with sfw and sfw-strict', async () => {
      expect((await all('sfw')).some(ecchi)).toBe(true);
      const strict = await all('sfw&sfw-strict');
      expect(strict.some(ecchi)).toBe(false);
      expect(strict.some(adult)).toBe(false);
    });

    it('ignores sfw-strict without sfw', async () => {
      expect((await all('sfw-strict')).length).toBe((await all('')).length);
    });
  });

  describe('ordering', () => {
    it.each(['score', 'members', 'episodes', 'start_date', 'rank', 'title'] as const)(
      'orders by %s with nulls last in both directions and pages that never repeat',
      async (field) => {
        const key = (a: Anime): string | number | null =>
          field === 'start_date' ? a.aired.from : field === 'title' ? a.title.toLowerCase() : a[field];
        for (const sort of ['asc', 'desc'] as const) {
          const items = await all(`order_by=${field}&sort=${sort}&unapproved`);
          expect(new Set(items.map((a) => a.mal_id)).size).toBe(items.length);
          expect(items.length).toBe(demoData.anime.length);
          const keys = items.map(key);
          const firstNull = keys.indexOf(null);
          if (firstNull >= 0) expect(keys.slice(firstNull).every((k) => k === null)).toBe(true);
          const present = keys.filter((k) => k !== null) as Array<string | number>;
          for (let i = 1; i < present.length; i++) {
            if (sort === 'asc') expect(present[i - 1]! <= present[i]!).toBe(true);
            else expect(present[i - 1]! >= present[i]!).toBe(true);
          }
        }
      },
    );

    it('defaults sort to asc', async () => {
      const { data } = await list('/v1/anime?order_by=score&limit=3');
      expect(data[0]!.score! <= data[1]!.score!).toBe(true);
    });
  });

  describe('search', () => {
    it('puts the exact title first, then prefix matches by popularity', async () => {
      const { data } = await list('/v1/anime?q=naruto');
      expect(data[0]!.mal_id).toBe(20);
      expect(data.slice(1).some((a) => a.title.startsWith('Naruto'))).toBe(true);
    });

    it('ignores case and punctuation for the exact match', async () => {
      expect((await list('/v1/anime?q=STEINS%20GATE')).data[0]!.title).toBe('Steins;Gate');
    });

    it('finds Naruto through a typo', async () => {
      expect((await list('/v1/anime?q=naruot')).data[0]!.mal_id).toBe(20);
    });

    it('finds by English and Japanese titles', async () => {
      const titan = demoData.anime.find((a) => a.title === 'Shingeki no Kyojin')!;
      expect((await list(`/v1/anime?q=${encodeURIComponent(titan.title_english!)}`)).data[0]!.mal_id).toBe(titan.mal_id);
      expect((await list(`/v1/anime?q=${encodeURIComponent(titan.title_japanese!)}`)).data[0]!.mal_id).toBe(titan.mal_id);
    });

    it('orders by the requested field when order_by is given with q', async () => {
      const { data } = await list('/v1/anime?q=naruto&order_by=mal_id&sort=desc');
      const ids = data.map((a) => a.mal_id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('combines q with filters', async () => {
      const { data } = await list('/v1/anime?q=naruto&type=movie');
      expect(data.length).toBeGreaterThan(0);
      expect(data.every((a) => a.type === 'Movie')).toBe(true);
    });
  });
});

describe('an app over a small fixture store', () => {
  it('breaks ordering ties by mal_id so pages never repeat or skip', async () => {
    const store = createMemoryStore({
      anime: Array.from({ length: 30 }, (_, i) => makeAnime({ mal_id: 100 - i, title: `Same ${i}`, score: 7 })),
    });
    const small = createCatalogueApp({ store, gateway: false });
    const ids: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await small.fetch(new Request(`http://x/v1/anime?order_by=score&sort=desc&limit=10&page=${page}`));
      ids.push(...((await res.json()) as { data: Anime[] }).data.map((a) => a.mal_id));
    }
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => 71 + i));
  });
});

describe('image host', () => {
  it('serves /s/ image paths as absolute URLs on the configured CDN', async () => {
    const person = demoData.pictures!.find((p) => p.type === 'person' && JSON.stringify(p).includes('"/s/'))!;
    const path = `/v1/people/${person.mal_id}/pictures`;
    const withDefault = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
    const custom = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false, cdnUrl: 'https://img.example.org/' });
    const text = await (await withDefault.fetch(new Request(`http://x${path}`))).text();
    expect(text).not.toContain('"/s/');
    expect(text).toContain('"https://cdn.myanimelist.net/images/s/');
    const other = await (await custom.fetch(new Request(`http://x${path}`))).text();
    expect(other).toContain('"https://img.example.org/images/s/');
  });
});
