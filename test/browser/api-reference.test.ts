/**
 * The API reference page (`/v1/docs`) of the Node example server, in headless Chromium, with the
 * example's default rate limits on: the page loads, lists every path of the served OpenAPI
 * document with its parameters, bounds and error responses, and "Try it out" on `/v1/anime?q=naruto`
 * shows a 200 answer from the same server.
 */
import { join } from 'node:path';
import type { SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from '../support/example-servers.js';
import { hasChromium, open, SCREENSHOTS, SKIP_REASON } from './chromium.js';

interface Operation {
  parameters?: { name: string; schema?: { minimum?: number; maximum?: number; maxLength?: number } }[];
  responses: Record<string, unknown>;
}

let server: SpawnedServer;
let paths: Record<string, { get: Operation }>;

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startExample('node');
  paths = ((await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { paths: typeof paths }).paths;
});

afterAll(() => server?.close());

describe.skipIf(!hasChromium)(`API reference page in headless Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('lists every path of the document, with parameters, bounds and errors, and runs "Try it out" against the same server', async () => {
    const recorded = await open({ viewport: { width: 1280, height: 900 } });
    const { page } = recorded;
    try {
      expect((await page.goto(`${server.url}/v1/docs`))?.status()).toBe(200);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const listed = await page.locator('.opblock-summary-path').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-path')));
      expect(new Set(listed)).toEqual(new Set(Object.keys(paths)));
      expect(listed).toHaveLength(Object.keys(paths).length);
      await page.screenshot({ path: join(SCREENSHOTS, 'api-reference-desktop.png') });

      const search = paths['/v1/anime']!.get;
      const operation = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path[data-path="/v1/anime"]') });
      await operation.locator('.opblock-summary').click();
      const names = await operation.locator('tr[data-param-name]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-param-name')));
      expect(names).toEqual(search.parameters!.map((parameter) => parameter.name));
      expect(await operation.locator('tr[data-param-name="q"]').innerText()).toContain('maxLength: 200');
      expect(await operation.locator('tr[data-param-name="limit"]').innerText()).toMatch(/minimum: 1\s+maximum: 50/);
      expect(await operation.locator('tr[data-param-name="page"]').innerText()).toMatch(/minimum: 1\s+maximum: 1000/);
      const codes = await operation.locator('tr.response').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));
      expect(codes).toEqual(Object.keys(search.responses));
      expect(codes).toEqual(expect.arrayContaining(['400', '429', '503']));

      await operation.locator('tr[data-param-name="q"] input').fill('naruto');
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      expect((await status.innerText()).trim()).toBe('200');
      expect(await operation.locator('.request-url').innerText()).toContain(`${server.url}/v1/anime?q=naruto`);
      expect(await operation.locator('.live-responses-table tbody .response-col_description').first().innerText()).toMatch(/"pagination"/);
      await operation.screenshot({ path: join(SCREENSHOTS, 'api-reference-try-it.png') });

      const own = new URL(server.url).origin;
      expect(recorded.requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== own)).toEqual([]);
      expect(recorded.requests.filter((url) => url.includes('/v1/anime?q=naruto'))).toHaveLength(1);
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });

  it('fits a phone\'s width', async () => {
    const recorded = await open({ viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 2 });
    const { page } = recorded;
    try {
      await page.goto(`${server.url}/v1/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      await page.screenshot({ path: join(SCREENSHOTS, 'api-reference-phone.png') });
      expect(recorded.errors).toEqual([]);
    } finally {
      await recorded.close();
    }
  });
});
