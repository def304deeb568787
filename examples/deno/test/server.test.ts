/**
 * The HTTP contract over a real socket against the Deno example server (`deno run … server.ts`),
 * whose `npm:` imports resolve through `node_modules` to the built `dist/` (see ../README.md).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statusSnapshotSchema } from '@catalogue-api/core';
import { defineHttpContract, defineRequestTargetContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// The `deno` npm package (a devDependency) installs the binary here.
const deno = `${root}node_modules/.bin/deno`;
const config = ['--config', 'examples/deno/deno.json'];
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({
    command: deno,
    args: ['run', '--allow-net', '--allow-env', '--allow-read', ...config, 'examples/deno/server.ts'],
    cwd: root,
    // The contract sends a few hundred requests in seconds: no rate limit for it.
    env: { HOST: '127.0.0.1', RATE_LIMIT: 'off', NO_COLOR: '1' },
  });
});
afterAll(() => server?.close());

it('loads @catalogue-api/* from the built packages, not from their sources', () => {
  const graph = JSON.parse(execFileSync(deno, ['info', '--json', ...config, 'examples/deno/server.ts'], { cwd: root, encoding: 'utf8' }));
  const local = (graph.modules as Array<{ specifier: string }>).map((m) => m.specifier).filter((s) => s.includes('/packages/'));
  for (const p of ['core', 'adapter-deno', 'demo-data']) expect(local).toContain(`file://${root}packages/${p}/dist/index.js`);
  expect(local.filter((s) => s.includes('/src/'))).toEqual([]);
});

it('serves the status API at /api/status beside the catalogue', async () => {
  const res = await fetch(`${server.url}/api/status`);
  expect(res.status).toBe(200);
  const snapshot = statusSnapshotSchema.parse(await res.json());
  expect(snapshot.services.map((service) => service.id)).toContain('catalogue-api');
});

defineHttpContract({ runtime: 'deno (examples/deno)', baseUrl: () => server.url });

describe('with restricted routes', () => {
  let restricted: SpawnedServer;
  beforeAll(async () => {
    restricted = await spawnServer({
      command: deno,
      args: ['run', '--allow-net', '--allow-env', '--allow-read', ...config, 'examples/deno/server.ts'],
      cwd: root,
      env: { HOST: '127.0.0.1', RATE_LIMIT: 'off', SERVER_KEYS: 'key-one', RESTRICTED_ROUTES: '/v1/top/*,/v1/anime/:id/full', NO_COLOR: '1' },
    });
  });
  afterAll(() => restricted?.close());

  defineRequestTargetContract({ runtime: 'deno (examples/deno)', baseUrl: () => restricted.url, serverKey: 'key-one' });
});
