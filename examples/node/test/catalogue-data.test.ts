/**
 * What the Node example serves: `DATA` (a snapshot file) from memory, the demo otherwise, and
 * PostgreSQL never seeded unasked (`DEMO_DATA=on` asks); the combinations that would mix two
 * sources are refused at start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoData } from '@catalogue-api/demo-data';
import { afterAll, describe, expect, it } from 'vitest';
import { runExample, startExample } from '../../../test/support/example-servers.js';
import { chooseCatalogue, readSnapshot } from '../catalogue-data.js';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const [one, two] = demoData.anime.filter((anime) => anime.mal_id !== 20);

describe('chooseCatalogue', () => {
  it('serves the demo from memory by default, and seeds PostgreSQL only when asked', () => {
    expect(chooseCatalogue({ DATA: undefined, DEMO_DATA: undefined, DATABASE_URL: undefined })).toEqual({ kind: 'memory', demo: true });
    expect(chooseCatalogue({ DATA: undefined, DEMO_DATA: false, DATABASE_URL: undefined })).toEqual({ kind: 'memory', demo: false });
    expect(chooseCatalogue({ DATA: undefined, DEMO_DATA: undefined, DATABASE_URL: 'postgres://x/y' })).toEqual({ kind: 'postgres', seedDemo: false });
    expect(chooseCatalogue({ DATA: undefined, DEMO_DATA: true, DATABASE_URL: 'postgres://x/y' })).toEqual({ kind: 'postgres', seedDemo: true });
    expect(chooseCatalogue({ DATA: 'a.json', DEMO_DATA: undefined, DATABASE_URL: undefined })).toEqual({ kind: 'snapshot', file: 'a.json' });
  });

  it('refuses DATA with DATABASE_URL or DEMO_DATA=on', () => {
    expect(() => chooseCatalogue({ DATA: 'a.json', DEMO_DATA: undefined, DATABASE_URL: 'postgres://x/y' })).toThrow(/DATA .* and DATABASE_URL .* are both set/);
    expect(() => chooseCatalogue({ DATA: 'a.json', DEMO_DATA: true, DATABASE_URL: undefined })).toThrow(/DATA and DEMO_DATA=on are both set/);
  });
});

describe('readSnapshot', () => {
  it.each([
    ['missing.json', undefined, 'no such file'],
    ['text.json', 'not json', 'not JSON'],
    ['array.json', '[]', 'not a JSON object of collections'],
    ['unknown.json', '{"spaceships":[]}', '"spaceships" is not a collection of the catalogue'],
    ['scalar.json', '{"anime":3}', '"anime" is not an array of records'],
  ])('refuses %s, naming DATA', async (name, text, why) => {
    const file = join(dir, name);
    if (text !== undefined) writeFileSync(file, text);
    await expect(readSnapshot(file)).rejects.toThrow(`DATA must be a snapshot file written by catalogue-api import --store memory-snapshot, not "${file}": ${why}`);
  });
});

describe('the example with DATA', () => {
  it('serves the snapshot alone, from memory', async () => {
    const file = join(dir, 'snapshot.json');
    writeFileSync(file, JSON.stringify({ anime: [one, two] }));
    const server = await startExample('node', { DATA: file, RATE_LIMIT: 'off', ACCESS_LOG: 'off' });
    try {
      expect((await fetch(`${server.url}/v1/anime/${one!.mal_id}`)).status).toBe(200);
      expect((await fetch(`${server.url}/v1/anime/20`)).status).toBe(404);
      const list = (await (await fetch(`${server.url}/v1/anime`)).json()) as { data: unknown[] };
      expect(list.data).toHaveLength(2);
      expect(server.output()).toContain(`"msg":"serving ${file} (DATA) from memory"`);
    } finally {
      await server.close();
    }
  });

  it('refuses DATA with DATABASE_URL: exit code 2, one JSON line', async () => {
    const result = await runExample('node', { DATA: join(dir, 'snapshot.json'), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).msg).toMatch(/^Invalid configuration: DATA \(a snapshot file served from memory\) and DATABASE_URL/);
  });
});
