/**
 * The catalogue API embedded in a Express backend under `/catalogue`, over a real socket: the whole
 * HTTP contract at the mount, and the backend's own routes beside it.
 */
import { fileURLToPath } from 'node:url';
import { defineHttpContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    command: process.execPath,
    args: ['--import', 'tsx', 'server.ts'],
    cwd: `${root}examples/express`,
    // The contract sends a few hundred requests in seconds: no rate limit for it.
    env: { HOST: '127.0.0.1', RATE_LIMIT: 'off' },
  });
});
afterAll(() => server?.close());

describe('the Express backend around the library', () => {
  it('keeps answering its own routes', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('serves the catalogue under the mount path only', async () => {
    expect((await fetch(`${server.url}/catalogue/v1/anime?limit=1`)).status).toBe(200);
    const outside = await fetch(`${server.url}/v1/anime?limit=1`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('passes paths under the mount that the app does not own on to Express (next())', async () => {
    const res = await fetch(`${server.url}/catalogue/admin`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

defineHttpContract({ runtime: 'express (examples/express, mounted at /catalogue)', baseUrl: () => `${server.url}/catalogue` });
