/**
 * The HTTP contract over a real socket against the Node example server, spawned from its build
 * (`examples/node/dist/server.js`, which imports the packages' `dist/`).
 */
import { fileURLToPath } from 'node:url';
import { defineHttpContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    command: process.execPath,
    args: ['examples/node/dist/server.js'],
    cwd: root,
    // The contract sends a few hundred requests in seconds: no rate limit for it.
    env: { HOST: '127.0.0.1', RATE_LIMIT: 'off' },
  });
});
afterAll(() => server?.close());

defineHttpContract({ runtime: 'node (examples/node)', baseUrl: () => server.url });
