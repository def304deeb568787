/**
 * The HTTP contract over a real socket against the Bun example server (`bun examples/bun/server.ts`),
 * which resolves `@catalogue-api/*` through the workspace links to the built `dist/`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statusSnapshotSchema } from '@catalogue-api/core';
import { defineHttpContract, defineRequestTargetContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// The `bun` npm package (a devDependency) installs the binary here.
const bun = `${root}node_modules/.bin/bun`;
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    command: bun,
    args: ['examples/bun/server.ts'],
    cwd: root,
    // The contract sends a few hundred requests in seconds: no rate limit for it.
    env: { HOST: '127.0.0.1', RATE_LIMIT: 'off' },
  });
});
afterAll(() => server?.close());

it('resolves @catalogue-api/* to the built packages, not to their sources', () => {
  const script = "for (const p of ['core', 'adapter-bun', 'demo-data']) console.log(import.meta.resolve('@catalogue-api/' + p))";
  const resolved = execFileSync(bun, ['-e', script], { cwd: `${root}examples/bun`, encoding: 'utf8' }).trim().split('\n');
  expect(resolved).toEqual(['core', 'adapter-bun', 'demo-data'].map((p) => `file://${root}packages/${p}/dist/index.js`));
});

it('serves the status API at /api/status beside the catalogue', async () => {
  const res = await fetch(`${server.url}/api/status`);
  expect(res.status).toBe(200);
  const snapshot = statusSnapshotSchema.parse(await res.json());
  expect(snapshot.services.map((service) => service.id)).toContain('catalogue-api');
});

defineHttpContract({ runtime: 'bun (examples/bun)', baseUrl: () => server.url });

describe('with restricted routes', () => {
  let restricted: SpawnedServer;
  beforeAll(async () => {
    restricted = await spawnServer({
      command: bun,
      args: ['examples/bun/server.ts'],
      cwd: root,
      env: { HOST: '127.0.0.1', RATE_LIMIT: 'off', SERVER_KEYS: 'key-one', RESTRICTED_ROUTES: '/v1/top/*,/v1/anime/:id/full' },
    });
  });
  afterAll(() => restricted?.close());

  defineRequestTargetContract({ runtime: 'bun (examples/bun)', baseUrl: () => restricted.url, serverKey: 'key-one' });
});
