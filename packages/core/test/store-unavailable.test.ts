/**
 * A store that is lost or slow: every store call is bounded by `storeTimeoutMs`, and a call past it,
 * or one that throws `StoreUnavailableError`, answers 503 `ServiceUnavailableException` with
 * `Retry-After: 1` (spec, Errors) in the catalogue and the status API; the checker keeps the results
 * it could not write and writes them, in order, once the store is back.
 */
import { describe, expect, it } from 'vitest';
import {
  createCatalogueApp,
  createChecker,
  createMemoryStatusStore,
  createMemoryStore,
  createStatusApp,
  StoreUnavailableError,
  type ServiceConfig,
  type StatusStore,
} from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { makeAnime } from './fixtures.js';

const TIMEOUT_MS = 50;
type Mode = 'ok' | 'hang' | 'unavailable' | 'unavailable-sync' | 'foreign' | 'broken';

/** Wraps every method of a store so that a test can make it hang or fail. */
function controllable<T extends object>(inner: T): { store: T; mode: Mode } {
  const control = { mode: 'ok' as Mode, store: {} as T };
  const fail = (mode: Mode): Error | undefined => {
    if (mode === 'unavailable' || mode === 'unavailable-sync') return new StoreUnavailableError('database unreachable');
    if (mode === 'foreign') return Object.assign(new Error('from another copy of core'), { name: 'StoreUnavailableError' });
    if (mode === 'broken') return new TypeError('a bug in the store');
    return undefined;
  };
  control.store = new Proxy(inner, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const mode = control.mode;
        if (mode === 'hang') return new Promise(() => undefined);
        if (mode === 'unavailable-sync') throw fail(mode)!;
        const error = fail(mode);
        if (error) return Promise.reject(error);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return control;
}

describe('a catalogue store that is lost or slow', () => {
  function setUp() {
    const control = controllable<CatalogueStore>(createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'One' })] }));
    const errors: string[] = [];
    const app = createCatalogueApp({ store: control.store, storeTimeoutMs: TIMEOUT_MS, gateway: false, logger: { error: (message) => errors.push(message) } });
    const get = (path = '/v1/anime/1') => app.fetch(new Request(`http://api.test${path}`));
    return { control, errors, get };
  }

  it.each<[string, Mode]>([
    ['never answers', 'hang'],
    ['throws StoreUnavailableError', 'unavailable'],
    ['throws StoreUnavailableError synchronously', 'unavailable-sync'],
    ['throws a StoreUnavailableError of another copy of core', 'foreign'],
  ])('answers 503 with Retry-After: 1 when the store %s, 200 once it answers again, 500 for other failures', async (_, mode) => {
    const { control, errors, get } = setUp();
    control.mode = mode;
    for (const path of ['/v1/anime/1', '/v1/anime?q=one', '/v1/anime/1/full']) {
      const res = await get(path);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException', message: 'Service Unavailable', path: path.split('?')[0] });
    }
    // One log line for the outage, not one per request.
    expect(errors).toEqual(['Catalogue store unavailable; answering 503 until it recovers']);
    control.mode = 'ok';
    expect((await get()).status).toBe(200);
    control.mode = mode;
    expect((await get()).status).toBe(503);
    expect(errors).toHaveLength(2);
    // Any other failure of the store is still a fault: the 500 envelope.
    control.mode = 'broken';
    const res = await get();
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it.each([0, -1, Number.NaN])('rejects storeTimeoutMs=%s with a RangeError naming it', (storeTimeoutMs) => {
    expect(() => createCatalogueApp({ storeTimeoutMs })).toThrow(/storeTimeoutMs/);
  });
});

describe('a status store that is lost or slow', () => {
  const services: ServiceConfig[] = [{ id: 'api', name: 'API', check: { url: 'http://api.test/v1/anime/1' } }];

  it('makes GET /api/status answer 503 with Retry-After: 1, and 200 once the store answers again', async () => {
    const control = controllable<StatusStore>(createMemoryStatusStore());
    const app = createStatusApp({ services, store: control.store, storeTimeoutMs: TIMEOUT_MS, cacheSeconds: 1, logger: { error: () => undefined } });
    for (const mode of ['hang', 'unavailable'] as const) {
      control.mode = mode;
      const res = await app.fetch(new Request('http://status.test/api/status'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException' });
    }
    control.mode = 'ok';
    expect((await app.fetch(new Request('http://status.test/api/status'))).status).toBe(200);
  });

  /** A checker whose target answers `status`, at one check a minute. */
  function setUp(options: { backlogLimit?: number; errors?: string[] } = {}) {
    const memory = createMemoryStatusStore();
    const control = controllable<StatusStore>(memory);
    let status = 200;
    let clock = Date.UTC(2026, 0, 10, 12, 0);
    const checker = createChecker({
      services,
      store: control.store,
      now: () => clock,
      storeTimeoutMs: TIMEOUT_MS,
      fetch: () => Promise.resolve(new Response('{}', { status })),
      logger: { error: (message) => options.errors?.push(message) },
      ...(options.backlogLimit ? { backlogLimit: options.backlogLimit } : {}),
    });
    return {
      memory,
      control,
      checker,
      round: async (answer: number) => {
        status = answer;
        clock += 60_000;
        return checker.runOnce();
      },
      segments: async () => (await memory.listSegments(0)).map((s) => [s.outcome, s.checks]),
    };
  }

  it.each<[string, Mode]>([
    ['never answers', 'hang'],
    ['throws StoreUnavailableError', 'unavailable'],
  ])('keeps checking while the store %s, and writes the kept results in order once it is back', async (_, mode) => {
    const { control, checker, round, segments } = setUp();
    expect(await round(200)).toMatchObject({ leader: true, results: { api: 'up' }, backlog: 0 });
    control.mode = mode;
    expect(await round(503)).toMatchObject({ leader: true, results: { api: 'fail' }, backlog: 1 });
    expect(await round(503)).toMatchObject({ results: { api: 'fail' }, backlog: 2 });
    expect(await round(200)).toMatchObject({ results: { api: 'up' }, backlog: 3 });
    control.mode = 'ok';
    expect(await round(200)).toMatchObject({ results: { api: 'up' }, backlog: 0 });
    expect(await segments()).toEqual([
      ['up', 1],
      ['fail', 2],
      ['up', 2],
    ]);
    await checker.stop();
  });

  it('keeps at most backlogLimit results, dropping the oldest with one log line', async () => {
    const errors: string[] = [];
    const { control, checker, round, segments } = setUp({ backlogLimit: 2, errors });
    expect((await round(200)).backlog).toBe(0);
    control.mode = 'unavailable';
    await round(503);
    await round(503);
    await round(200);
    expect((await round(200)).backlog).toBe(2);
    expect(errors.filter((e) => e.includes('dropping the oldest'))).toHaveLength(1);
    control.mode = 'ok';
    await round(200);
    // The two fails went first: the history shows the last two results kept, then the new one.
    expect(await segments()).toEqual([
      ['up', 1],
      ['up', 3],
    ]);
    await checker.stop();
  });

  it('drops its backlog when another checker took the lease meanwhile, whose results are written instead', async () => {
    const { memory, control, checker, round, segments } = setUp();
    await round(200);
    control.mode = 'unavailable';
    expect((await round(503)).backlog).toBe(1);
    // Another instance, which kept its own results, got the lease first once the store was back.
    await memory.acquireLease('another', Date.UTC(2027, 0, 1), 3_600_000);
    control.mode = 'ok';
    expect(await round(200)).toEqual({ leader: false, results: {}, backlog: 0 });
    expect(await segments()).toEqual([['up', 1]]);
    await checker.stop();
  });
});
