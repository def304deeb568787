import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoAnime, demoData } from '@catalogue-api/demo-data';
import { checkRequestLog, createFakeUpstream, maxInWindow, type FakeRecord, type FakeUpstream } from '../src/fake-upstream.js';

const anime = demoAnime as unknown as FakeRecord[];
const manga = demoData.manga as unknown as FakeRecord[];
let fake: FakeUpstream | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(fake!.url + path, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as any) : undefined };
};

/** A not-yet-aired anime for the current season, added while the fake runs. */
const newcomer = (id: number): FakeRecord => ({ ...anime[0]!, mal_id: id, title: `New ${id}`, status: 'Not yet aired', airing: false, year: 2026, season: 'winter', members: 1 });

describe('createFakeUpstream', () => {
  it('serves records, full bodies and parts with Jikan’s envelopes, 404 for an unknown id', async () => {
    fake = await createFakeUpstream({ anime, manga });
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect((await get('/anime/1')).body.data.mal_id).toBe(1);
    expect((await get('/anime/1/full')).body.data).toMatchObject({ mal_id: 1, relations: [], theme: { openings: [], endings: [] }, external: [], streaming: [] });
    expect((await get('/manga/1/full')).body.data).toMatchObject({ mal_id: 1, relations: [], external: [] });
    expect((await get('/anime/1/statistics')).body.data).toMatchObject({ total: 0 });
    expect((await get('/anime/1/episodes')).body).toEqual({ data: [] });
    expect(await get('/anime/999999999/full')).toMatchObject({ status: 404, body: { status: 404, type: 'BadResponseException' } });
    expect((await get('/anime/1/nonsense')).status).toBe(404);
    fake.setPart('anime', 1, 'characters', { data: [{ character: { mal_id: 3 }, role: 'Main', voice_actors: [] }] });
    expect((await get('/anime/1/characters')).body.data).toHaveLength(1);
  });

  it('answers parts from a backing catalogue app, with the current record laid over its full body', async () => {
    const backing = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
    fake = await createFakeUpstream({ anime, manga, backing });
    fake.set('anime', { ...fake.get('anime', 1)!, title: 'Changed upstream' });
    const full = (await get('/anime/1/full')).body.data;
    expect(full.title).toBe('Changed upstream');
    expect(full.streaming.length).toBeGreaterThan(0);
    expect((await get('/anime/1/characters')).body.data.length).toBeGreaterThan(0);
  });

  it('sends an ETag and answers 304 to a matching If-None-Match until the record changes', async () => {
    fake = await createFakeUpstream({ anime });
    const first = await get('/anime/1/full');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await get('/anime/1/full', { 'if-none-match': etag })).status).toBe(304);
    fake.set('anime', { ...fake.get('anime', 1)!, score: 9.9 });
    expect((await get('/anime/1/full', { 'if-none-match': etag })).status).toBe(200);
  });

  it('pages listings by 25 with Jikan’s pagination, by mal_id either way and by status', async () => {
    fake = await createFakeUpstream({ anime, manga });
    const listed = anime.filter((a) => a.approved !== false);
    const desc = (await get('/anime?order_by=mal_id&sort=desc&page=1')).body;
    expect(desc.data).toHaveLength(25);
    expect(desc.pagination).toEqual({ last_visible_page: Math.ceil(listed.length / 25), has_next_page: true, current_page: 1, items: { count: 25, total: listed.length, per_page: 25 } });
    expect(desc.data.map((a: FakeRecord) => a.mal_id)).toEqual(listed.map((a) => a.mal_id).sort((a, b) => b - a).slice(0, 25));
    const past = (await get(`/anime?order_by=mal_id&sort=asc&page=${desc.pagination.last_visible_page + 1}`)).body;
    expect(past).toMatchObject({ data: [], pagination: { has_next_page: false } });
    const publishing = (await get('/manga?status=publishing')).body.data;
    expect(publishing.length).toBeGreaterThan(0);
    expect(publishing.every((m: FakeRecord) => m.status === 'Publishing')).toBe(true);
    expect((await get('/anime?page=0')).status).toBe(400);
  });

  it('shows a new id first on newest, upcoming season and upcoming top, never on the current season or schedules', async () => {
    fake = await createFakeUpstream({ anime, season: { year: 2026, season: 'winter' } });
    const seasonNow = (await get('/seasons/now')).body.data;
    expect(seasonNow.length).toBeGreaterThan(0);
    fake.set('anime', newcomer(99_999_001));
    for (const path of ['/anime?order_by=mal_id&sort=desc', '/seasons/upcoming', '/top/anime?filter=upcoming']) {
      expect((await get(path)).body.data[0].mal_id, path).toBe(99_999_001);
    }
    fake.set('anime', { ...newcomer(99_999_002), status: 'Currently Airing', airing: true });
    for (const path of ['/seasons/now', '/schedules']) {
      const pages = (await get(path)).body;
      expect(pages.data.map((a: FakeRecord) => a.mal_id), path).not.toContain(99_999_001);
      expect(pages.data.map((a: FakeRecord) => a.mal_id), path).not.toContain(99_999_002);
    }
  });

  it('serves a hidden entry by id only, like an unapproved one', async () => {
    fake = await createFakeUpstream({ anime });
    const last = Math.max(...anime.map((a) => a.mal_id));
    fake.hide('anime', last);
    expect((await get(`/anime/${last}`)).status).toBe(200);
    expect((await get('/anime?order_by=mal_id&sort=desc')).body.data.map((a: FakeRecord) => a.mal_id)).not.toContain(last);
    fake.hide('anime', last, false);
    expect((await get('/anime?order_by=mal_id&sort=desc')).body.data[0].mal_id).toBe(last);
  });

  it('serves the failures a test sets: next N, per path, and a 404 that heals', async () => {
    fake = await createFakeUpstream({ anime });
    fake.fail({ type: 'status', status: 404 }, { path: '/anime/1/full', times: 2 });
    expect((await get('/anime/1/full')).status).toBe(404);
    expect((await get('/anime/5/full')).status).toBe(200);
    expect((await get('/anime/1/full')).status).toBe(404);
    expect((await get('/anime/1/full')).status).toBe(200);
    const stop = fake.fail({ type: 'status', status: 429, retryAfter: 7 }, { path: /^\/anime\/5/ });
    const limited = await get('/anime/5/full');
    expect(limited).toMatchObject({ status: 429, body: { type: 'RateLimitException' } });
    expect(limited.headers.get('retry-after')).toBe('7');
    stop();
    expect((await get('/anime/5/full')).status).toBe(200);
    fake.fail({ type: 'error-body' }, { times: 1 });
    expect(await get('/anime/1')).toMatchObject({ status: 200, body: { status: 500 } });
    fake.fail({ type: 'invalid' }, { times: 1 });
    expect((await get('/anime/1')).body.data.score).toBe(11);
    fake.fail({ type: 'not-json' }, { times: 1 });
    const html = await fetch(fake.url + '/anime/1');
    expect(html.headers.get('content-type')).toBe('text/html');
    fake.fail({ type: 'hang' }, { times: 1 });
    await expect(fetch(fake.url + '/anime/1', { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(fake.log.at(-1)!.status).toBe(0);
  });

  it('enforces its own limits: 429 with Retry-After past them, counted as violations', async () => {
    const now = Date.UTC(2026, 0, 15);
    fake = await createFakeUpstream({ anime, clock: () => now, limits: { perSecond: 2, perMinute: 60 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/anime/1')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(fake.violations).toBe(1);
    expect(fake.log.map((r) => r.status)).toEqual([200, 200, 429]);
    fake.clearLog();
    expect(fake.log).toEqual([]);
    expect(fake.violations).toBe(0);
  });

  it('acts as this library: /v1 ids changed since an instant and deleted ids', async () => {
    let now = Date.UTC(2026, 0, 15);
    fake = await createFakeUpstream({ anime, clock: () => now, thisLibrary: true });
    expect(fake.url).toMatch(/\/v1$/);
    expect((await get('/anime/ids')).body.total).toBe(anime.length);
    now += 60_000;
    fake.set('anime', { ...fake.get('anime', 20)!, title: 'Changed' });
    fake.remove('anime', 1);
    const since = new Date(now - 1_000).toISOString();
    expect((await get(`/anime/ids?updated_at=${since}`)).body).toEqual({ total: 1, data: [20] });
    expect((await get('/anime/deleted')).body).toEqual({ total: 1, data: [1] });
    expect((await get('/anime/1')).status).toBe(404);
    expect((await get('/anime/ids?updated_at=nonsense')).status).toBe(400);
  });

  it('logs each request with its time, method, path, status and headers', async () => {
    fake = await createFakeUpstream({ anime });
    await get('/anime/1/full?x=1', { 'user-agent': 'test-agent' });
    expect(fake.log).toEqual([{ time: expect.any(Number), method: 'GET', path: '/anime/1/full?x=1', status: 200, headers: expect.objectContaining({ 'user-agent': 'test-agent' }) }]);
  });
});

describe('request log checks', () => {
  it('finds the fullest sliding window', () => {
    expect(maxInWindow([0, 500, 999, 1_000, 1_999], 1_000)).toBe(3);
    expect(maxInWindow([0, 1_000, 2_000], 1_000)).toBe(1);
    expect(maxInWindow([], 1_000)).toBe(0);
    // Slack forgives arrival jitter at the window's edge.
    expect(maxInWindow([0, 990, 1_000], 1_000)).toBe(2);
    expect(maxInWindow([0, 990, 1_000], 1_000, 20)).toBe(2);
    expect(maxInWindow([10, 990, 1_005], 1_000, 20)).toBe(2);
  });

  it('checks a log against both windows', () => {
    const log = Array.from({ length: 61 }, (_, i) => ({ time: i * 500 }));
    expect(checkRequestLog(log, { perSecond: 3, perMinute: 60 })).toEqual({ ok: false, maxPerSecond: 2, maxPerMinute: 61 });
    expect(checkRequestLog(log.slice(0, 60), { perSecond: 3, perMinute: 60 }).ok).toBe(true);
  });
});
