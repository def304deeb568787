/**
 * Admission of store work (`createCatalogueApp({ admission })`): searches and reads each have a
 * bounded number of store calls running at once; past it a request waits its turn in a bounded
 * first-in-first-out queue, briefly, and then gets 503 `ServiceUnavailableException` with
 * `Retry-After: 1` (spec, Errors: "API offline or busy") instead of piling up, while the other
 * kind of work goes on being answered at once.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryStore, StoreUnavailableError, type CatalogueAppOptions } from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { makeAnime } from './fixtures.js';

type Mode = 'ok' | 'hold' | 'hang' | 'unavailable' | 'broken';

/**
 * A memory store whose searches (`query` with `search` text) the test controls: while `mode` is
 * `hold`, each waits until the test releases it; `hang` never answers; `unavailable` and `broken`
 * fail. Every other call is answered at once.
 */
function controlledStore() {
  const inner = createMemoryStore({ anime: [1, 2, 3].map((id) => makeAnime({ mal_id: id, title: `Title ${id}` })) });
  const control = {
    mode: 'ok' as Mode,
    /** The search text of every search the store was asked, in order. */
    searches: [] as string[],
    /** Releases of held searches, oldest first. */
    held: [] as Array<() => void>,
    /** Releases the oldest held search. */
    releaseOne() {
      control.held.shift()!();
    },
    store: undefined as unknown as CatalogueStore,
  };
  control.store = new Proxy(inner, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = () => (value as (...a: unknown[]) => unknown).apply(target, args);
        const search = key === 'query' ? (args[1] as { search?: string }).search : undefined;
        if (search === undefined) return call();
        control.searches.push(search);
        switch (control.mode) {
          case 'hold':
            return new Promise((resolve) => control.held.push(() => resolve(call())));
          case 'hang':
            return new Promise(() => undefined);
          case 'unavailable':
            return Promise.reject(new StoreUnavailableError('database unreachable'));
          case 'broken':
            return Promise.reject(new TypeError('a bug in the store'));
          default:
            return call();
        }
      };
    },
  });
  return control;
}

function setUp(options: Partial<CatalogueAppOptions> = {}) {
  const control = controlledStore();
  const errors: string[] = [];
  const app = createCatalogueApp({ store: control.store, gateway: false, storeTimeoutMs: Infinity, logger: { error: (message) => errors.push(message) }, ...options });
  const get = (path: string) => app.fetch(new Request(`http://api.test${path}`));
  const search = (i: number) => get(`/v1/anime?q=titel${i}`);
  return { control, errors, get, search };
}

/** Lets every pending promise callback and zero-delay timer run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Whether a promise has settled yet. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await settle();
  return settled;
}

async function expectBusy(res: Response, path = '/v1/anime') {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException', message: 'Too many searches at once', path });
}

describe('admission of searches', () => {
  it('holds the 31st search while 30 run, answers it 503 with Retry-After: 1 after waitMs, and answers a read by id at once meanwhile', async () => {
    const { control, get, search } = setUp({ admission: { search: { concurrency: 30, queue: 10, waitMs: 200 } } });
    control.mode = 'hold';
    const running = Array.from({ length: 30 }, (_, i) => search(i));
    await settle();
    expect(control.searches).toHaveLength(30);

    const waiting = search(30);
    expect(await isSettled(waiting)).toBe(false);
    // Reads have their own gate: the store is asked and answers at once.
    const read = await get('/v1/anime/2');
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { mal_id: number } }).data.mal_id).toBe(2);
    expect((await get('/v1/anime/2/full')).status).toBe(200);

    await expectBusy(await waiting);
    // The store never saw it.
    expect(control.searches).toHaveLength(30);

    for (let i = 0; i < 30; i++) control.releaseOne();
    for (const res of await Promise.all(running)) expect(res.status).toBe(200);
  });

  it('gives a waiting search the first place that frees up, in the order they came', async () => {
    const { control, search } = setUp({ admission: { search: { concurrency: 2, queue: 10, waitMs: 60_000 } } });
    control.mode = 'hold';
    const first = [search(0), search(1)];
    const waiting = [search(2), search(3), search(4)];
    await settle();
    expect(control.searches).toEqual(['titel0', 'titel1']);
    control.releaseOne();
    expect((await first[0]!).status).toBe(200);
    await settle();
    expect(control.searches).toEqual(['titel0', 'titel1', 'titel2']);
    control.releaseOne();
    control.releaseOne();
    await settle();
    expect(control.searches).toEqual(['titel0', 'titel1', 'titel2', 'titel3', 'titel4']);
    control.releaseOne();
    control.releaseOne();
    for (const res of await Promise.all([first[1]!, ...waiting])) expect(res.status).toBe(200);
  });

  it('answers 503 at once to a search that finds the queue full, and lets the waiting ones through', async () => {
    const { control, search } = setUp({ admission: { search: { concurrency: 1, queue: 2, waitMs: 60_000 } } });
    control.mode = 'hold';
    const running = search(0);
    const waiting = [search(1), search(2)];
    // Answered while the others still wait: no place in the queue means no wait.
    await expectBusy(await search(3));
    expect(await isSettled(running)).toBe(false);
    for (let i = 0; i < 3; i++) {
      control.releaseOne();
      await settle();
    }
    for (const res of await Promise.all([running, ...waiting])) expect(res.status).toBe(200);
    expect(control.searches).toEqual(['titel0', 'titel1', 'titel2']);
  });

  it('frees the place of a search that timed out, failed or threw, so later searches still run', async () => {
    const { control, search } = setUp({ storeTimeoutMs: 30, admission: { search: { concurrency: 2, queue: 0, waitMs: 0 } } });
    for (const [mode, status] of [
      ['hang', 503],
      ['unavailable', 503],
      ['broken', 500],
    ] as const) {
      control.mode = mode;
      // More failed searches than places: each must give its place back.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([search(1), search(2)]);
        expect(answers.map((res) => res.status)).toEqual([status, status]);
      }
    }
    control.mode = 'ok';
    const answers = await Promise.all([search(1), search(2)]);
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
  });

  it('counts id lists, top lists and seasons as searches, and a record with its children as reads', async () => {
    const { control, get, search } = setUp({ admission: { search: { concurrency: 1, queue: 0, waitMs: 0 } } });
    control.mode = 'hold';
    const running = search(0);
    await settle();
    for (const path of ['/v1/anime', '/v1/anime/ids', '/v1/top/anime', '/v1/seasons/2020/spring', '/v1/genres/anime', '/v1/schedules']) {
      await expectBusy(await get(path), path);
    }
    for (const path of ['/v1/anime/1', '/v1/anime/1/full', '/v1/anime/1/characters', '/v1/anime/1/episodes', '/v1/random/anime', '/v1/openapi.json']) {
      expect((await get(path)).status, path).toBe(200);
    }
    control.releaseOne();
    expect((await running).status).toBe(200);
  });

  it('runs two searches at once by default, and lets a third wait for a place', async () => {
    const { control, search } = setUp();
    control.mode = 'hold';
    const running = [search(0), search(1), search(2)];
    await settle();
    expect(control.searches).toEqual(['titel0', 'titel1']);
    control.releaseOne();
    await settle();
    expect(control.searches).toEqual(['titel0', 'titel1', 'titel2']);
    control.releaseOne();
    control.releaseOne();
    for (const res of await Promise.all(running)) expect(res.status).toBe(200);
  });

  it('lets every search through to the store with admission: false', async () => {
    const { control, search } = setUp({ admission: false });
    control.mode = 'hold';
    const running = Array.from({ length: 100 }, (_, i) => search(i));
    await settle();
    expect(control.searches).toHaveLength(100);
    for (let i = 0; i < 100; i++) control.releaseOne();
    for (const res of await Promise.all(running)) expect(res.status).toBe(200);
  });
});

describe('a memory store', () => {
  // Its calls do their work as they are called: a gate would only turn searches away that are
  // already answered. The same store behind a proxy is any other store, and is gated.
  const searchAll = async (store: CatalogueStore) => {
    const app = createCatalogueApp({ store, gateway: false, admission: { search: { concurrency: 1, queue: 0 } } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => app.fetch(new Request(`http://api.test/v1/anime?q=title${i % 3}`))));
    return answers.map((res) => res.status);
  };
  const memory = () => createMemoryStore({ anime: [1, 2, 3].map((id) => makeAnime({ mal_id: id, title: `Title ${id}` })) });

  it('is not held back by the admission gates', async () => {
    expect(new Set(await searchAll(memory()))).toEqual(new Set([200]));
  });

  it('is gated as any other store once something wraps it', async () => {
    const statuses = await searchAll(new Proxy(memory(), {}));
    expect(statuses).toContain(503);
    expect(statuses).toContain(200);
  });
});

describe('admission of reads', () => {
  it('bounds reads by their own gate, apart from searches', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inner = createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'One' })] });
    const store = new Proxy(inner, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'get' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await held;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const app = createCatalogueApp({ store, gateway: false, admission: { read: { concurrency: 2, queue: 1, waitMs: 60_000 } } });
    const get = (path: string) => app.fetch(new Request(`http://api.test${path}`));
    const reads = [get('/v1/anime/1'), get('/v1/anime/1'), get('/v1/anime/1')];
    const rejected = await get('/v1/anime/1');
    expect(rejected.status).toBe(503);
    expect(rejected.headers.get('retry-after')).toBe('1');
    expect(await rejected.json()).toMatchObject({ type: 'ServiceUnavailableException', message: 'Too many requests at once', path: '/v1/anime/1' });
    // Searches are not held back by busy reads.
    expect((await get('/v1/anime?q=one')).status).toBe(200);
    release();
    for (const res of await Promise.all(reads)) expect(res.status).toBe(200);
  });
});

describe('admission options', () => {
  it.each([
    [{ search: { concurrency: 0 } }, /admission\.search\.concurrency/],
    [{ search: { concurrency: 1.5 } }, /admission\.search\.concurrency/],
    [{ read: { queue: -1 } }, /admission\.read\.queue/],
    [{ read: { waitMs: Number.NaN } }, /admission\.read\.waitMs/],
    [{ search: { waitMs: Infinity } }, /admission\.search\.waitMs/],
  ])('rejects %j with a RangeError naming the option', (admission, message) => {
    expect(() => createCatalogueApp({ admission })).toThrow(message);
  });
});
