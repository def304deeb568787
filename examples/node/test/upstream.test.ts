/**
 * The Node example with `UPSTREAM_URL`: the refresher starts once the server listens and never
 * holds it up (here every upstream answer takes two seconds), the upstream is a service of the
 * status API, and a stop saves the state to `UPSTREAM_STATE_FILE`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startExample } from '../../../test/support/example-servers.js';

let upstream: Server;
let server: SpawnedServer | undefined;
let folder = '';
const asked: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'catalogue-api-upstream-'));
  // A slow upstream holding nothing: every listing is one empty page, two seconds late.
  upstream = createServer((request, response) => {
    asked.push(request.url ?? '');
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ pagination: { last_visible_page: 1, has_next_page: false }, data: [] }));
    }, 2_000);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v4`;
  server = await startExample('node', {
    UPSTREAM_URL: base,
    UPSTREAM_STATE_FILE: join(folder, 'state.json'),
    STATUS_INTERVAL_SECONDS: '1',
    ACCESS_LOG: 'off',
    RATE_LIMIT: 'off',
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(folder, { recursive: true, force: true });
});

it('answers from its first second while the refresher waits on the upstream', async () => {
  const answer = await fetch(`${server!.url}/v1/anime/1`);
  expect(answer.status).toBe(200);
});

it('lists the upstream as a monitored service, checked without a request upstream', async () => {
  let services: Array<{ id: string; status: string; homepage_url: string }> = [];
  for (let tries = 0; tries < 50; tries++) {
    services = ((await (await fetch(`${server!.url}/api/status`)).json()) as { services: typeof services }).services;
    if (services.find((s) => s.id === 'upstream')?.status === 'operational') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(services.map((s) => s.id)).toEqual(['catalogue-api', 'upstream']);
  expect(services[1]).toMatchObject({ status: 'operational', homepage_url: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`).origin });
  // Only the refresher's listings went upstream: the status check is answered in-process.
  expect(asked.every((path) => path.startsWith('/v4/'))).toBe(true);
}, 30_000);

it('refreshes from the upstream, and saves its state to UPSTREAM_STATE_FILE when stopped', async () => {
  for (let tries = 0; tries < 100 && asked.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(asked.length).toBeGreaterThan(0);
  await server!.close(15_000);
  expect(server!.process.exitCode).toBe(0);
  const saved = JSON.parse(await readFile(join(folder, 'state.json'), 'utf8')) as { tasks: unknown[] };
  expect(saved.tasks.length).toBeGreaterThan(0);
  server = undefined;
}, 30_000);
