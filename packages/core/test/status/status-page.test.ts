import { describe, expect, it } from 'vitest';
import { combineApps, createCatalogueApp, createMemoryStatusStore, createStatusApp, STATUS_PAGE_CSP, type ServiceConfig, type StatusStore } from '@catalogue-api/core';
import { createTestClock, MINUTE } from './helpers.js';

const NOON = Date.UTC(2026, 0, 10, 12, 0, 0);
const check = { url: 'http://127.0.0.1:9/health' };

/** Checks of one service, once a minute over `[from, to)`, all with one outcome. */
async function record(store: StatusStore, serviceId: string, outcome: 'up' | 'degraded' | 'fail', from: number, to: number): Promise<void> {
  for (let at = from; at < to; at += MINUTE) await store.recordCheck({ serviceId, outcome, at }, 120_000);
}

async function page(app: { fetch(request: Request): Promise<Response> }, path = '/status', init?: RequestInit): Promise<{ res: Response; html: string }> {
  const res = await app.fetch(new Request(`http://localhost${path}`, init));
  return { res, html: await res.text() };
}

describe('status page: HTTP', () => {
  const services: ServiceConfig[] = [{ id: 'api', name: 'Catalogue API', check }];

  it('answers GET /status with HTML, the JSON endpoint\'s Cache-Control and a Content-Security-Policy', async () => {
    const app = createStatusApp({ services, now: () => NOON });
    const { res, html } = await page(app);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('cache-control')).toBe((await app.fetch(new Request('http://localhost/api/status'))).headers.get('cache-control'));
    expect(res.headers.get('content-security-policy')).toBe(STATUS_PAGE_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html).toMatch(/^<!doctype html>/);
  });

  it('follows cacheSeconds like the JSON endpoint', async () => {
    const app = createStatusApp({ services, now: () => NOON, cacheSeconds: 10 });
    expect((await page(app)).res.headers.get('cache-control')).toBe('public, max-age=10');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const app = createStatusApp({ services, now: () => NOON });
    const get = await page(app);
    const { res, html } = await page(app, '/status', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(html).toBe('');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(new TextEncoder().encode(get.html).byteLength));
  });

  it('answers POST with the 405 envelope', async () => {
    const app = createStatusApp({ services, now: () => NOON });
    const res = await app.fetch(new Request('http://localhost/status', { method: 'POST' }));
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ status: 405, path: '/status' });
  });

  it('serves the page at / when the status app is served alone, and leaves / to the catalogue beside it', async () => {
    const app = createStatusApp({ services, now: () => NOON });
    const alone = await page(app, '/');
    expect(alone.res.status).toBe(200);
    expect(alone.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(alone.html).toBe((await page(app)).html);
    expect(app.owns('/status')).toBe(true);
    expect(app.owns('/')).toBe(false);
    const both = combineApps(app, createCatalogueApp({ gateway: false }));
    const root = await both.fetch(new Request('http://localhost/'));
    expect(root.status).toBe(404);
    expect(root.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await page(both)).res.status).toBe(200);
  });

  it('answers 503 with the error envelope when the store cannot be read', async () => {
    const store = createMemoryStatusStore();
    const app = createStatusApp({ services, store: { ...store, listSegments: () => Promise.reject(new Error('gone')) }, logger: { error: () => {} } });
    const res = await app.fetch(new Request('http://localhost/status'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException', path: '/status' });
  });
});

describe('status page: content', () => {
  it('renders an empty history: grey bars, no uptime yet, and a banner that no check has run', async () => {
    const app = createStatusApp({ services: [{ id: 'api', name: 'Catalogue API', check }], now: () => NOON });
    const { html } = await page(app);
    expect(html.match(/class="bar none"/g)).toHaveLength(90);
    expect(html).toContain('No checks yet');
    expect(html).toContain('Status checks are stale. No check has completed yet');
    expect(html).toContain('The state of some services is unknown');
    expect(html).toContain('<span class="state s-unknown">Unknown</span>');
  });

  it('renders a page with no services at all', async () => {
    const { html } = await page(createStatusApp({ services: [], now: () => NOON }));
    expect(html).toContain('No services are monitored');
  });

  it('escapes every configured string and links only http(s) URLs', async () => {
    const hostile = '<script>alert("x")</script>&\'';
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;';
    const clock = createTestClock(NOON);
    const app = createStatusApp({
      services: [
        { id: 'a"b', name: hostile, homepageUrl: 'javascript:alert(1)', check },
        { id: 'web', name: 'Web', homepageUrl: 'https://example.org/?a=1&b="2"', check },
      ],
      page: { name: hostile, url: 'https://status.example.org/"><script>' },
      now: clock.now,
    });
    await app.maintenance.add({ id: '<m>', serviceId: 'all', title: hostile, status: hostile, startsAt: NOON + MINUTE, endsAt: NOON + 2 * MINUTE });
    const { html } = await page(app);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(`<title>${escaped}</title>`);
    expect(html).toContain(`<a href="https://status.example.org/&quot;&gt;&lt;script&gt;">${escaped}</a>`);
    expect(html).toContain(`<h3 id="service-0">${escaped}</h3>`);
    expect(html).toContain('data-service="a&quot;b"');
    expect(html).toContain('<a href="https://example.org/?a=1&amp;b=&quot;2&quot;">Web</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain(`<strong>${escaped}</strong> · ${escaped}`);
    expect(html).toContain('data-maintenance="&lt;m&gt;"');
    // Only the page's own script element, at its end.
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('colours each UTC day by its outage and degraded minutes and states them in the bar\'s text', async () => {
    const clock = createTestClock(NOON);
    const store = createMemoryStatusStore();
    const yesterday = NOON - 86_400_000;
    await record(store, 'api', 'up', yesterday - 2 * 3_600_000, yesterday);
    await record(store, 'api', 'fail', yesterday, yesterday + 2 * 3_600_000);
    await record(store, 'api', 'up', yesterday + 2 * 3_600_000, NOON - 30 * MINUTE);
    await record(store, 'api', 'degraded', NOON - 30 * MINUTE, NOON);
    const app = createStatusApp({ services: [{ id: 'api', name: 'Catalogue API', check }], store, now: clock.now });
    const { html } = await page(app);
    expect(html).toContain('<li class="bar down" tabindex="0" data-day="2026-01-09"><span class="tip">2026-01-09: 120 min outage</span></li>');
    expect(html).toContain('<li class="bar degraded" tabindex="0" data-day="2026-01-10"><span class="tip">2026-01-10: 30 min degraded</span></li>');
    expect(html).toContain('<li class="bar up" tabindex="0" data-day="2026-01-08"><span class="tip">2026-01-08: no outage</span></li>');
    expect(html.match(/class="bar /g)).toHaveLength(90);
    // 120 outage minutes of 89 days and 12 hours.
    const share = Math.floor((1 - 120 / (89 * 1440 + 720)) * 10_000) / 100;
    expect(html).toContain(`${share.toFixed(2)} % uptime over 90 days · 120 min outage · 30 min degraded`);
    expect(html).toContain('<span class="state s-degraded">Degraded performance</span>');
    expect(html).toContain('Some services are degraded');
    expect(html).toContain('Last checked 1 min ago.');
    expect(html).not.toContain('Status checks are stale');
  });

  it('shows active and scheduled maintenance with UTC times in <time datetime>', async () => {
    const app = createStatusApp({ services: [{ id: 'api', name: 'Catalogue API', check }], now: () => NOON });
    await app.maintenance.add({ id: 'now', serviceId: 'api', title: 'Index rebuild', startsAt: NOON - MINUTE, endsAt: NOON + 60 * MINUTE });
    await app.maintenance.add({ id: 'later', serviceId: 'all', title: 'Database upgrade', startsAt: NOON + 86_400_000, endsAt: NOON + 86_400_000 + 30 * MINUTE });
    const { html } = await page(app);
    expect(html).toContain('<h2 id="active-h">Maintenance in progress</h2>');
    expect(html).toContain('<h2 id="scheduled-h">Scheduled maintenance</h2>');
    expect(html).toContain('<strong>Index rebuild</strong> · In progress');
    expect(html).toContain('<strong>Database upgrade</strong> · Scheduled');
    expect(html).toContain('All services: <time data-local datetime="2026-01-11T12:00:00.000Z">2026-01-11 12:00 UTC</time>');
    expect(html).toContain('<span class="state s-maintenance">Under maintenance</span>');
    expect(html).toContain('Maintenance: Index rebuild, until <time data-local datetime="2026-01-10T13:00:00.000Z">');
  });

  it('shows the stale banner with the checker\'s age once its latest check is older than the threshold', async () => {
    const clock = createTestClock(NOON);
    const store = createMemoryStatusStore();
    await record(store, 'api', 'up', NOON - 60 * MINUTE, NOON - 25 * MINUTE);
    const app = createStatusApp({ services: [{ id: 'api', name: 'Catalogue API', check }], store, now: clock.now });
    const { html } = await page(app);
    expect(html).toContain('<div class="banner" role="alert" id="stale">Status checks are stale. The checker has not reported for 26 min (it should at least every 2 min)');
    expect(html).toContain('Last checked 26 min ago.');
  });
});
