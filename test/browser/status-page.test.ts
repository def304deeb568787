/**
 * The status page in headless Chromium, against a status app with a scripted history: one service
 * down for two hours yesterday, one degraded now, one in maintenance, a maintenance scheduled for
 * tomorrow, and then a checker that stopped reporting. Screenshots at phone and desktop width go to
 * test/browser/.screenshots/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serve, type Server } from '@catalogue-api/adapter-node';
import { createMemoryStatusStore, createStatusApp, type CheckOutcome, type ServiceConfig, type StatusApp, type StatusStore } from '@catalogue-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, open, SCREENSHOTS, SKIP_REASON, type RecordedPage } from './chromium.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Noon UTC: "yesterday" is 2026-11-26, the scheduled maintenance is on 2026-11-28. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const YESTERDAY = '2026-11-26';
const TODAY = '2026-11-27';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const check = { url: 'http://127.0.0.1:9/health' };
const services: ServiceConfig[] = [
  { id: 'api', name: 'Catalogue API', homepageUrl: 'https://api.example.org/v1', check },
  { id: 'search', name: 'Search', check },
  { id: 'images', name: 'Image CDN', check },
];

/** One check a minute over `[from, to)`, each with the outcome `outcome(at)` gives. */
async function history(store: StatusStore, serviceId: string, from: number, to: number, outcome: (at: number) => CheckOutcome): Promise<void> {
  for (let at = from; at < to; at += MINUTE) await store.recordCheck({ serviceId, outcome: outcome(at), at }, 2 * MINUTE);
}

let now = NOW;
let app: StatusApp;
let server: Server;

beforeAll(async () => {
  if (!hasChromium) return;
  const store = createMemoryStatusStore();
  const from = NOW - 3 * DAY;
  const last = NOW - MINUTE;
  const downFrom = NOW - DAY - 2 * HOUR;
  await history(store, 'api', from, last + 1, (at) => (at >= downFrom && at < NOW - DAY ? 'fail' : 'up'));
  await history(store, 'search', from, last + 1, (at) => (at >= NOW - 45 * MINUTE ? 'degraded' : 'up'));
  await history(store, 'images', from, last + 1, () => 'up');
  app = createStatusApp({ services, store, now: () => now, page: { name: 'Catalogue <status> & "friends"', url: 'https://status.example.org/' } });
  await app.maintenance.add({ id: 'cdn', serviceId: 'images', title: 'CDN cache rebuild', startsAt: NOW - 30 * MINUTE, endsAt: NOW + HOUR });
  await app.maintenance.add({ id: 'db', serviceId: 'all', title: 'Database upgrade', startsAt: Date.UTC(2026, 10, 28, 2), endsAt: Date.UTC(2026, 10, 28, 3) });
  server = await serve(app, { port: 0 });
});

afterAll(() => server?.close());

/** What one page shows of each service. */
function service(page: RecordedPage['page'], id: string) {
  return page.locator(`section[data-service="${id}"]`);
}

async function background(page: RecordedPage['page'], selector: string): Promise<string> {
  return page.locator(selector).evaluate((element) => getComputedStyle(element).backgroundColor);
}

/** Serious and critical axe-core violations, as `rule: target…` lines. */
async function axeViolations(page: RecordedPage['page']): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function onlyOwnOrigin(requests: string[]): string[] {
  const origin = new URL(server.url).origin;
  return requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
}

describe.skipIf(!hasChromium)(`status page in headless Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('shows each service\'s state, 90 coloured days with their minutes, uptime and maintenance in the reader\'s time zone', async () => {
    now = NOW;
    const recorded = await open({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    const { page } = recorded;
    try {
      const res = await page.goto(`${server.url}/status`);
      expect(res?.status()).toBe(200);
      expect(await page.title()).toBe('Catalogue <status> & "friends"');
      await expect.poll(() => page.locator('#tz').textContent()).toBe('Times are in your time zone (Asia/Tokyo).');

      expect(await page.locator('#summary').textContent()).toBe('Some services are degraded');
      expect(await page.locator('#stale').count()).toBe(0);
      expect(await page.locator('#checked').textContent()).toMatch(/^Last checked 1 min ago\./);
      for (const id of ['api', 'search', 'images']) expect(await service(page, id).locator('li.bar').count(), id).toBe(90);

      const api = service(page, 'api');
      expect(await api.locator('.state').textContent()).toBe('Operational');
      expect(await api.locator('li.bar.down').count()).toBe(1);
      expect(await api.locator('li.bar.degraded').count()).toBe(0);
      expect(await api.locator(`li[data-day="${YESTERDAY}"]`).getAttribute('class')).toBe('bar down');
      expect(await api.locator(`li[data-day="${YESTERDAY}"] .tip`).textContent()).toBe(`${YESTERDAY}: 120 min outage`);
      // 120 minutes of 89 days and 12 hours: 99.906…, shown rounded down.
      expect(await api.locator('.meta').textContent()).toBe('99.90 % uptime over 90 days · 120 min outage · 0 min degraded');
      expect(await background(page, `section[data-service="api"] li[data-day="${YESTERDAY}"]`)).toBe('rgb(207, 34, 46)');
      expect(await background(page, `section[data-service="api"] li[data-day="${TODAY}"]`)).toBe('rgb(45, 164, 78)');

      const search = service(page, 'search');
      expect(await search.locator('.state').textContent()).toBe('Degraded performance');
      expect(await search.locator('li.bar.degraded').count()).toBe(1);
      expect(await search.locator(`li[data-day="${TODAY}"] .tip`).textContent()).toBe(`${TODAY}: 45 min degraded`);
      expect(await background(page, `section[data-service="search"] li[data-day="${TODAY}"]`)).toBe('rgb(212, 167, 44)');
      expect(await search.locator('.meta').textContent()).toBe('100.00 % uptime over 90 days · 0 min outage · 45 min degraded');

      const images = service(page, 'images');
      expect(await images.locator('.state').textContent()).toBe('Under maintenance');
      expect(await images.locator('li.bar.up').count()).toBe(90);
      // 13:00 UTC is 22:00 in Tokyo (UTC+9).
      expect(await images.locator('.maintenance').textContent()).toBe('Maintenance: CDN cache rebuild, until Nov 27, 2026, 10:00 PM GMT+9');

      expect(await page.locator('#active-h + ul li').allTextContents()).toEqual([expect.stringContaining('CDN cache rebuild · In progress')]);
      const scheduled = page.locator('#scheduled-h + ul li');
      expect(await scheduled.count()).toBe(1);
      expect(await scheduled.locator('strong').textContent()).toBe('Database upgrade');
      expect(await scheduled.locator('.muted').textContent()).toBe('All services: Nov 28, 2026, 11:00 AM GMT+9 to Nov 28, 2026, 12:00 PM GMT+9');
      expect(await scheduled.locator('time').first().getAttribute('datetime')).toBe('2026-11-28T02:00:00.000Z');

      // The day's minutes show on focus (keyboard) and on hover, below the row of bars.
      const bar = api.locator(`li[data-day="${YESTERDAY}"]`);
      expect((await bar.locator('.tip').boundingBox())!.width).toBeLessThanOrEqual(1);
      await bar.focus();
      const tip = (await bar.locator('.tip').boundingBox())!;
      expect(tip.width).toBeGreaterThan(100);
      expect(tip.y).toBeGreaterThan((await api.locator('ol.bars').boundingBox())!.y);
      await page.screenshot({ path: join(SCREENSHOTS, 'status-desktop-light.png'), fullPage: true });
      await page.locator('#summary').focus();
      await search.locator(`li[data-day="${TODAY}"]`).hover();
      expect((await search.locator(`li[data-day="${TODAY}"] .tip`).boundingBox())!.width).toBeGreaterThan(100);

      expect(await axeViolations(page)).toEqual([]);
      expect(onlyOwnOrigin(recorded.requests)).toEqual([]);
      expect(recorded.requests).toEqual([`${server.url}/status`]);
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });

  it('fits a phone\'s width in the dark colour scheme, with the same texts', async () => {
    now = NOW;
    const recorded = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'dark', timezoneId: 'UTC' });
    const { page } = recorded;
    try {
      await page.goto(`${server.url}/status`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await background(page, `section[data-service="api"] li[data-day="${YESTERDAY}"]`)).toBe('rgb(218, 54, 51)');
      expect(await background(page, 'body')).toBe('rgb(13, 17, 23)');
      const bars = await service(page, 'api').locator('li.bar').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().width));
      expect(Math.min(...bars)).toBeGreaterThan(1.5);
      await page.screenshot({ path: join(SCREENSHOTS, 'status-phone-dark.png'), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      expect(onlyOwnOrigin(recorded.requests)).toEqual([]);
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });

  it('works with JavaScript off: the same bars, times in UTC', async () => {
    now = NOW;
    const recorded = await open({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false, colorScheme: 'light' });
    const { page } = recorded;
    try {
      await page.goto(`${server.url}/status`);
      expect(await page.locator('li.bar').count()).toBe(270);
      expect(await page.locator('#tz').textContent()).toBe('Times are in UTC.');
      expect(await page.locator('#scheduled-h + ul .muted').textContent()).toBe('All services: 2026-11-28 02:00 UTC to 2026-11-28 03:00 UTC');
      await page.screenshot({ path: join(SCREENSHOTS, 'status-phone-light-no-js.png'), fullPage: true });
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });

  it('shows a clear banner once the checker is stale, picked up by the page\'s own refresh a minute later and not before', async () => {
    now = NOW;
    const recorded = await open({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', timezoneId: 'UTC' });
    const { page } = recorded;
    try {
      await page.clock.install({ time: NOW });
      await page.goto(`${server.url}/status`);
      expect(await page.locator('#stale').count()).toBe(0);
      // The checker stops: 25 minutes without a check (the threshold is 2 minutes).
      now = NOW + 24 * MINUTE;
      // The browser's HTTP cache runs on real time, which the fake clock does not move: a minute
      // later, the 30 s the page may be kept would be over.
      await (await recorded.context.newCDPSession(page)).send('Network.clearBrowserCache');
      await page.clock.runFor(59_000);
      expect(recorded.requests.filter((url) => url.endsWith('/status'))).toHaveLength(1);
      await page.clock.runFor(1_000);
      await expect.poll(() => page.locator('#stale').count()).toBe(1);
      expect(recorded.requests.filter((url) => url.endsWith('/status'))).toHaveLength(2);
      expect(await page.locator('#stale').textContent()).toBe(
        'Status checks are stale. The checker has not reported for 25 min (it should at least every 2 min), so the states below may be out of date.',
      );
      expect(await page.locator('#stale').getAttribute('role')).toBe('alert');
      expect(await page.locator('#checked').textContent()).toMatch(/^Last checked 25 min ago\./);
      expect(await service(page, 'api').locator('.state').textContent()).toBe('Unknown');
      expect(await service(page, 'images').locator('.state').textContent()).toBe('Under maintenance');
      expect(await page.locator('#summary').textContent()).toBe('Maintenance in progress');
      // The refreshed part is localized again.
      expect(await page.locator('#checked time').textContent()).toMatch(/GMT|UTC/);
      await page.screenshot({ path: join(SCREENSHOTS, 'status-desktop-stale.png'), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      expect(onlyOwnOrigin(recorded.requests)).toEqual([]);
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });
});
