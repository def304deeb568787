/**
 * The HTTP contract over a real socket against the Node example server, spawned from its build
 * (`examples/node/dist/server.js`, which imports the packages' `dist/`).
 */
import { fileURLToPath } from 'node:url';
import { statusSnapshotSchema } from '@catalogue-api/core';
import { defineHttpContract, defineRequestTargetContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    command: process.execPath,
    args: ['examples/node/dist/server.js'],
    cwd: root,
    // The contract sends a few hundred requests in seconds: no rate limit for it. The memory
    // store and gateway, even when the test run has DATABASE_URL/REDIS_URL set for other suites.
    env: { HOST: '127.0.0.1', RATE_LIMIT: 'off', DATABASE_URL: '', REDIS_URL: '' },
  });
});
afterAll(() => server?.close());

it('serves the status API at /api/status beside the catalogue', async () => {
  const res = await fetch(`${server.url}/api/status`);
  expect(res.status).toBe(200);
  const snapshot = statusSnapshotSchema.parse(await res.json());
  expect(snapshot.services.map((service) => service.id)).toContain('catalogue-api');
});

defineHttpContract({ runtime: 'node (examples/node)', baseUrl: () => server.url });

describe('with restricted routes', () => {
  let restricted: SpawnedServer;
  beforeAll(async () => {
    restricted = await spawnServer({
      command: process.execPath,
      args: ['examples/node/dist/server.js'],
      cwd: root,
      env: { HOST: '127.0.0.1', RATE_LIMIT: 'off', DATABASE_URL: '', REDIS_URL: '', SERVER_KEYS: 'key-one', RESTRICTED_ROUTES: '/v1/top/*,/v1/anime/:id/full' },
    });
  });
  afterAll(() => restricted?.close());

  defineRequestTargetContract({ runtime: 'node (examples/node)', baseUrl: () => restricted.url, serverKey: 'key-one' });
});
