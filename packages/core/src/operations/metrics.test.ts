import { describe, expect, it } from 'vitest';
import { createCatalogueApp } from '../app.js';
import type { PlainRequest } from '../edge/http.js';
import { createMemoryStore } from '../seam/memory-store.js';
import { createCatalogueMetrics, createMetricsRegistry } from './metrics.js';
import { createObservedApp, type RequestRecord } from './observe.js';
import { makeAnime } from '../../test/fixtures.js';

/** The value of one sample line, e.g. `catalogue_http_requests_total{route="/v1/anime/:id",status="200"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function setup() {
  const metrics = createCatalogueMetrics();
  const store = metrics.instrumentStore(createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] }));
  const catalogue = createCatalogueApp({ store, logger: { error: () => undefined } });
  const app = createObservedApp(catalogue, { observers: [metrics.observe] });
  const send = (path: string, address = '203.0.113.7', headers: Record<string, string> = {}) => {
    const [p, q = ''] = path.split('?');
    const request: PlainRequest = { method: 'GET', path: p!, query: q, header: (name) => headers[name], clientAddress: address };
    return app.handle(request);
  };
  return { metrics, send };
}

describe('createCatalogueMetrics', () => {
  it('counts requests by route template and status, exactly as many as were sent', async () => {
    const { metrics, send } = setup();
    for (let i = 0; i < 3; i++) await send('/v1/anime/1', `198.51.100.${i}`);
    for (let i = 0; i < 2; i++) await send(`/v1/anime/${900 + i}`, `198.51.100.${10 + i}`);
    await send('/v1/anime?page=0', '198.51.100.20');
    await send('/no/such/place?token=abc', '198.51.100.21');
    const text = metrics.render();
    expect(sample(text, 'catalogue_http_requests_total{route="/v1/anime/:id",status="200"}')).toBe(3);
    expect(sample(text, 'catalogue_http_requests_total{route="/v1/anime/:id",status="404"}')).toBe(2);
    expect(sample(text, 'catalogue_http_requests_total{route="/v1/anime",status="400"}')).toBe(1);
    expect(sample(text, 'catalogue_http_requests_total{route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'catalogue_http_request_duration_seconds_count{route="/v1/anime/:id"}')).toBe(5);
    expect(sample(text, 'catalogue_http_request_duration_seconds_bucket{route="/v1/anime/:id",le="+Inf"}')).toBe(5);
    // Raw paths and queries never become labels.
    expect(text).not.toContain('/no/such/place');
    expect(text).not.toContain('token');
    expect(text).not.toContain('/v1/anime/900');
  });

  it('counts cache hits, misses and 304s, 429s by window and tier, 403 blocks', async () => {
    const { metrics, send } = setup();
    const first = await send('/v1/anime/1', '192.0.2.1');
    await send('/v1/anime/1', '192.0.2.2');
    await send('/v1/anime/1', '192.0.2.3', { 'if-none-match': first.headers.etag! });
    let text = metrics.render();
    expect(sample(text, 'catalogue_cache_requests_total{tier="public",result="miss"}')).toBe(1);
    expect(sample(text, 'catalogue_cache_requests_total{tier="public",result="hit"}')).toBe(1);
    expect(sample(text, 'catalogue_cache_requests_total{tier="public",result="not_modified"}')).toBe(1);
    expect(sample(text, 'catalogue_blocked_requests_total')).toBe(0);

    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await send('/v1/anime/1', '192.0.2.99')).status);
    text = metrics.render();
    expect(sample(text, 'catalogue_rate_limited_total{tier="public",window="second"}')).toBe(statuses.filter((s) => s === 429).length);
    expect(sample(text, 'catalogue_blocked_requests_total')).toBe(statuses.filter((s) => s === 403).length);
    expect(statuses.filter((s) => s === 403).length).toBeGreaterThan(0);
  });

  it('counts every cache result of either tier under its own labels, and statuses of a route apart', () => {
    const metrics = createCatalogueMetrics();
    const base: RequestRecord = {
      ...{ time: 0, method: 'GET', path: '/v1/anime/1', route: '/v1/anime/:id', status: 200, bytes: 10, durationMs: 0.2 },
      ...{ tier: undefined, client: undefined, cache: undefined, limited: undefined, blocked: undefined, unavailable: undefined, requestId: undefined },
    };
    const results = ['hit', 'miss', 'bypass', 'not_modified'] as const;
    // n + 1 records of the n-th combination, interleaved.
    for (let round = 0; round < 8; round++) {
      results.forEach((cache, i) => {
        if (round <= i) metrics.observe({ ...base, tier: 'public', cache, status: cache === 'not_modified' ? 304 : 200 });
        if (round <= i + 4) metrics.observe({ ...base, tier: 'server', cache, status: 500 + i });
      });
    }
    metrics.observe({ ...base, tier: undefined, cache: 'hit' });
    const text = metrics.render();
    results.forEach((result, i) => {
      expect(sample(text, `catalogue_cache_requests_total{tier="public",result="${result}"}`), result).toBe(i + 1 + (result === 'hit' ? 1 : 0));
      expect(sample(text, `catalogue_cache_requests_total{tier="server",result="${result}"}`), result).toBe(i + 5);
      expect(sample(text, `catalogue_http_requests_total{route="/v1/anime/:id",status="${500 + i}"}`)).toBe(i + 5);
    });
    expect(sample(text, 'catalogue_http_requests_total{route="/v1/anime/:id",status="200"}')).toBe(1 + 2 + 3 + 1);
    expect(sample(text, 'catalogue_http_requests_total{route="/v1/anime/:id",status="304"}')).toBe(4);
  });

  it('times store calls by method and counts their failures', async () => {
    const metrics = createCatalogueMetrics();
    const store = metrics.instrumentStore(createMemoryStore({ anime: [makeAnime({ mal_id: 1, title: 'Cowboy Bebop' })] }));
    await store.get('anime', 1);
    await store.get('anime', 2);
    const failing = metrics.instrumentStore({ ...createMemoryStore(), get: (_: string, id: unknown) => Promise.reject(new Error(`down (${String(id)})`)) });
    await expect(failing.get('anime', 1)).rejects.toThrow('down');
    const text = metrics.render();
    expect(sample(text, 'catalogue_store_query_duration_seconds_count{method="get"}')).toBe(3);
    expect(sample(text, 'catalogue_store_errors_total{method="get"}')).toBe(1);
    expect(sample(text, 'catalogue_store_queries_in_flight')).toBe(0);
  });

  it('reports status checks and dependency health', () => {
    const metrics = createCatalogueMetrics();
    metrics.recordCheck('catalogue-api', 'up');
    metrics.recordCheck('catalogue-api', 'up');
    metrics.recordCheck('catalogue-api', 'fail');
    metrics.watchDependencies(() => ({ store: true, gateway: false }));
    const text = metrics.render();
    expect(sample(text, 'catalogue_status_checks_total{service="catalogue-api",outcome="up"}')).toBe(2);
    expect(sample(text, 'catalogue_status_checks_total{service="catalogue-api",outcome="fail"}')).toBe(1);
    expect(sample(text, 'catalogue_dependency_up{dependency="store"}')).toBe(1);
    expect(sample(text, 'catalogue_dependency_up{dependency="gateway"}')).toBe(0);
  });
});

describe('createMetricsRegistry', () => {
  it('writes HELP, TYPE, escaped label values and cumulative histogram buckets', () => {
    const registry = createMetricsRegistry();
    registry.counter('things_total', 'Things.\nAll of them.', ['name']).labels('a "quoted" \\ name\n').inc(2);
    const h = registry.histogram('wait_seconds', 'Waits.', [], [0.1, 1]);
    h.labels().observe(0.05);
    h.labels().observe(0.5);
    h.labels().observe(3);
    expect(registry.render()).toBe(
      [
        '# HELP things_total Things.\\nAll of them.',
        '# TYPE things_total counter',
        'things_total{name="a \\"quoted\\" \\\\ name\\n"} 2',
        '# HELP wait_seconds Waits.',
        '# TYPE wait_seconds histogram',
        'wait_seconds_bucket{le="0.1"} 1',
        'wait_seconds_bucket{le="1"} 2',
        'wait_seconds_bucket{le="+Inf"} 3',
        'wait_seconds_sum 3.55',
        'wait_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  it('refuses invalid or repeated names', () => {
    const registry = createMetricsRegistry();
    registry.counter('a_total', 'A.');
    expect(() => registry.counter('a_total', 'A again.')).toThrow(TypeError);
    expect(() => registry.counter('bad-name', 'B.')).toThrow(TypeError);
    expect(() => registry.histogram('h_seconds', 'H.', ['le'], [1])).toThrow(TypeError);
  });
});
