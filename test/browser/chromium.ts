/**
 * Headless Chromium for the browser suites: Debian's `chromium` package (installed by `.ci/run`),
 * driven by playwright-core, with a fresh profile each launch. Every request a page makes, and
 * every console error, page error and CSP violation, is recorded for the tests to check.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser suites can run here. */
export const hasChromium = existsSync(CHROMIUM);

/** The suites' title suffix when they cannot run, naming the fix (scripts/test.mjs prints it too). */
export const SKIP_REASON = `${CHROMIUM} is missing (apt-get install chromium)`;

/** Where the screenshots go: git-ignored, kept after the run for a person to look at. */
export const SCREENSHOTS = fileURLToPath(new URL('./.screenshots/', import.meta.url));

/** A page in a browser of its own, with everything it asked for and everything it complained about. */
export interface RecordedPage {
  page: Page;
  context: BrowserContext;
  /** Every request URL, in order. */
  requests: string[];
  /** Console errors and uncaught page errors (a CSP violation is a console error). */
  errors: string[];
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Opens a page in Chromium started with the flags a container needs and nothing that phones home,
 * on a fresh profile (`--user-data-dir`, which playwright-core takes as launchPersistentContext's
 * first argument).
 * @param options - Viewport, colour scheme, time zone, JavaScript on or off.
 */
export async function open(options: BrowserContextOptions = {}): Promise<RecordedPage> {
  const profile = mkdtempSync(join(tmpdir(), 'catalogue-api-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    ...options,
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => void requests.push(request.url()));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => void errors.push(error.message));
  return {
    page,
    context,
    requests,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
