/** `serve` of the Bun adapter, under a real Bun (the `bun` npm package's binary). */
import { fileURLToPath } from 'node:url';
import { spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAdapterSuite } from './shared.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

defineAdapterSuite('bun', { command: `${root}node_modules/.bin/bun`, args: [fileURLToPath(new URL('fixture.ts', import.meta.url))] });

const plain = { command: `${root}node_modules/.bin/bun`, args: [fileURLToPath(new URL('fixture.ts', import.meta.url))], env: { DOOR: 'plain' } };
defineAdapterSuite('bun, plain door', plain);

describe('adapter on bun, plain door', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer(plain);
  });
  afterAll(() => server?.close());

  it('sends large non-Latin-1 bodies byte-exact, also when they repeat or have the same length', async () => {
    for (const query of ['a', 'b', 'a', 'b', 'c']) {
      const res = await fetch(`${server.url}/large?${query}`);
      const text = await res.text();
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      expect(JSON.parse(text)).toBe(`${query}:${'ナルト'.repeat(4000)}`);
    }
  });
});
