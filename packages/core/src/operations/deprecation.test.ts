import { describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import { combineApps } from '../edge/combine-apps.js';
import { toDeprecationHeaders } from './deprecation.js';
import type { PlainRequest, PlainResponse } from '../edge/http.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { createStatusApp } from '../status/app.js';
import { createMemoryStatusStore } from '../status/memory-status-store.js';
import type { CatalogueStore } from '../seam/types.js';
import { makeAnime } from '../../test/fixtures.js';

const KEY = 'deprecation-test-key';
const DEPRECATION = { deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successorUrl: 'https://api.example.org/v2' };
const EXPECTED = { deprecation: '@1798761600', sunset: 'Thu, 01 Jul 2027 00:00:00 GMT', link: '<https://api.example.org/v2>; rel="successor-version"' };

/** A `/v2` app: the catalogue's routes under another prefix, as a future version would mount. */
function asVersion(app: ReturnType<typeof createCatalogueApp>, prefix: string) {
  return {
    owns: (path: string) => path === prefix || path.startsWith(`${prefix}/`),
    handle: (request: PlainRequest) => app.handle({ ...request, path: `/v1${request.path.slice(prefix.length)}` }),
  };
}

function setup() {
  const store = createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] });
  let failing = false;
  const flaky = new Proxy(store, {
    get: (target, name, receiver) => {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'get' || typeof value !== 'function') return value;
      return (...args: unknown[]) => (failing ? Promise.reject(new Error('boom')) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  }) as CatalogueStore;
  const options = { store: flaky, logger: { error: () => undefined }, gateway: { keys: [KEY], restrictedRoutes: ['/v1/top/*'] } };
  const v1 = createCatalogueApp({ ...options, deprecation: DEPRECATION });
  const v2 = asVersion(createCatalogueApp(options), '/v2');
  const status = createStatusApp({ services: [], store: createMemoryStatusStore(), page: { name: 'x', url: 'http://x' } });
  const app = combineApps(status, v2, v1);
  let client = 0;
  // A new address per request by default, so that only the burst below meets the rate limits.
  const send = (path: string, init: { method?: string; headers?: Record<string, string>; address?: string } = {}): Promise<PlainResponse> => {
    const [p, q = ''] = path.split('?');
    const headers = init.headers ?? {};
    return app.handle({ method: init.method ?? 'GET', path: p!, query: q, header: (name) => headers[name], clientAddress: init.address ?? `203.0.113.${++client}` });
  };
  return { send, fail: (on: boolean) => (failing = on) };
}

describe('deprecation headers', () => {
  it('are on every answer of the deprecated version, whatever its status or method', async () => {
    const { send, fail } = setup();
    const ok = await send('/v1/anime/1');
    const answers: PlainResponse[] = [
      ok,
      await send('/v1/anime/1', { headers: { 'if-none-match': ok.headers.etag! } }),
      await send('/v1/anime/1', { method: 'HEAD' }),
      await send('/v1/anime/1', { method: 'OPTIONS' }),
      await send('/v1/anime/1', { method: 'POST' }),
      await send('/v1/anime?page=0'),
      await send('/v1/anime/999'),
      await send('/v1/top/anime'),
      await send('/v1/anime/1', { headers: { 'x-server-key': 'wrong' } }),
      await send('/v1/nothing-here'),
    ];
    fail(true);
    answers.push(await send('/v1/anime/7', { address: '198.51.100.1' }));
    fail(false);
    for (let i = 0; i < 40; i++) answers.push(await send('/v1/anime/1', { address: '192.0.2.50' }));
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([200, 204, 304, 400, 401, 403, 404, 405, 429, 500]);
    for (const answer of answers) {
      expect(answer.headers, `status ${answer.status}`).toMatchObject(EXPECTED);
      expect(answer.headers['access-control-expose-headers']).toContain('Deprecation, Sunset, Link');
    }
  });

  it('are on no answer of another version or app', async () => {
    const { send } = setup();
    const answers = [
      await send('/v2/anime/1'),
      await send('/v2/anime?page=0'),
      await send('/v2/anime/1', { method: 'OPTIONS' }),
      await send('/api/status'),
      await send('/api/status', { method: 'POST' }),
      // Paths no app owns: the last app (v1) answers them, but they are no answer of /v1.
      await send('/metrics'),
      await send('/favicon.ico', { method: 'HEAD' }),
      await send('/v1/../v3/anime/1'),
      await send('/'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 204, 200, 405, 404, 404, 404, 404]);
    for (const answer of answers) {
      expect(answer.headers.deprecation).toBeUndefined();
      expect(answer.headers.sunset).toBeUndefined();
      expect(answer.headers.link).toBeUndefined();
    }
  });
});

describe('toDeprecationHeaders', () => {
  it('writes RFC 9745 and RFC 8594 values and both links', () => {
    expect(toDeprecationHeaders({ ...DEPRECATION, noticeUrl: 'https://example.org/v1-ends' })).toEqual({
      ...EXPECTED,
      link: '<https://api.example.org/v2>; rel="successor-version", <https://example.org/v1-ends>; rel="deprecation"',
    });
    expect(toDeprecationHeaders({ deprecatedAt: Date.UTC(2027, 0, 1, 0, 0, 0, 999) })).toEqual({ deprecation: '@1798761600' });
    expect(toDeprecationHeaders({})).toEqual({});
  });

  it('rejects unreadable dates, a sunset before the deprecation and relative or unsafe links', () => {
    expect(() => toDeprecationHeaders({ deprecatedAt: 'soon' })).toThrow(/deprecatedAt must be a date/);
    expect(() => toDeprecationHeaders({ deprecatedAt: '2027-07-01', sunsetAt: '2027-01-01' })).toThrow(/sunsetAt/);
    expect(() => toDeprecationHeaders({ successorUrl: '/v2' })).toThrow(/successorUrl/);
    expect(() => toDeprecationHeaders({ successorUrl: 'https://x.org/>; rel="next"' })).toThrow(/successorUrl/);
    expect(() => toDeprecationHeaders({ successorUrl: 'https://x.org/v2\x7f' })).toThrow(/successorUrl/);
    expect(() => toDeprecationHeaders({ successorUrl: 'ftp://x.org/v2' })).toThrow(/successorUrl/);
  });

  it('reads ISO 8601 dates only, real days from 1970 to 9999, with an offset when they have a time', () => {
    const at = (value: string | number | Date) => toDeprecationHeaders({ deprecatedAt: value }).deprecation;
    expect(at('2027-01-01')).toBe('@1798761600');
    expect(at('2027-01-01T09:00:00+09:00')).toBe('@1798761600');
    expect(at('2026-12-31T19:30-04:30')).toBe('@1798761600');
    expect(at('2027-01-01t00:00:00.999z')).toBe('@1798761600');
    expect(at('2024-02-29T00:00:00Z')).toBe('@1709164800');
    // Other forms Date.parse takes (some in the server's own time zone), days that do not exist,
    // times without an offset, and years an HTTP date cannot carry.
    for (const value of ['1', '12/31/2027', 'Dec 31 2027', '2027-06-31', '2027-02-29', '2027-01-01T24:00:00Z', '2027-01-01T00:00:00', '2027-01-01T00:00+24:00', '1969-12-31', '+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z']) {
      expect(() => at(value), value).toThrow(`deprecatedAt must be a date from 1970 to 9999 (ISO 8601, e.g. 2027-01-31T00:00:00Z), not "${value}"`);
    }
    expect(() => toDeprecationHeaders({ sunsetAt: Date.UTC(10_000, 0, 1) })).toThrow(/sunsetAt must be a date from 1970 to 9999/);
    expect(() => toDeprecationHeaders({ sunsetAt: new Date(Number.NaN) })).toThrow(/sunsetAt must be a date/);
  });

  it('sends a successor URL as a header can hold it, non-ASCII characters percent-encoded', () => {
    expect(toDeprecationHeaders({ successorUrl: 'https://api.example.org/v2/日本' }).link).toBe('<https://api.example.org/v2/%E6%97%A5%E6%9C%AC>; rel="successor-version"');
    expect(toDeprecationHeaders({ successorUrl: 'https://bücher.example/v2' }).link).toBe('<https://xn--bcher-kva.example/v2>; rel="successor-version"');
    expect(toDeprecationHeaders({ successorUrl: 'https://api.example.org/v2/é' }).link).toBe('<https://api.example.org/v2/%C3%A9>; rel="successor-version"');
  });
});
