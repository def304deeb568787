/**
 * An import is served at once: a running example Node server (as `npm start` runs it) on
 * PostgreSQL, with its response cache on (in Redis when `REDIS_URL` is set, else in memory), has
 * cached a record; `catalogue-api import` then writes a new version of it from another process,
 * and the server serves the new version as soon as the database's `NOTIFY` reaches it, not a
 * day later. Needs `DATABASE_URL`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { demoData } from '@catalogue-api/demo-data';
import { spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { createClient } from 'redis';
import { runCli } from './cli.js';

const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe.skipIf(!url)('an import into PostgreSQL, served by a running example server with its cache on', () => {
  const schema = `a_cache_import_${Math.random().toString(36).slice(2, 10)}`;
  const prefix = `a-cache-import:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
  let server: SpawnedServer;
  let dir: string;
  const entry = demoData.anime!.find((a) => a.mal_id === 20) ?? demoData.anime![0]!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'a-cache-import-'));
    server = await spawnServer({
      command: process.execPath,
      // As `npm start` runs it (the root package.json).
      args: ['--import', 'tsx', '--import', './examples/node/raw-imports.mjs', 'examples/node/server.ts'],
      cwd: root,
      env: {
        TSX_TSCONFIG_PATH: 'examples/node/tsconfig.json',
        DATABASE_URL: url!,
        DATABASE_SCHEMA: schema,
        REDIS_URL: redisUrl ?? '',
        REDIS_PREFIX: prefix,
        RATE_LIMIT: 'off',
        STATUS_DATABASE_URL: '',
        DEMO_DATA: 'on',
      },
      timeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
    const sql = postgres(url!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end({ timeout: 5 });
    if (redisUrl) {
      const client = createClient({ url: redisUrl });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
      client.destroy();
    }
  });

  const read = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { response, body: (await response.json()) as { data: { title: string } } };
  };

  it('serves the imported title at once, on the entry and on the list that shows it', async () => {
    const path = `/v1/anime/${entry.mal_id}`;
    const first = await read(path);
    expect(first.body.data.title).toBe(entry.title);
    // Held by the cache now, for a day.
    expect((await read(path)).response.headers.get("cache-control"), server.output()).toMatch(/max-age=8640\d|max-age=8639\d/);
    const file = join(dir, 'anime.ndjson');
    await writeFile(file, `${JSON.stringify({ ...entry, title: 'Imported Anew' })}\n`);
    const run = await runCli(['import', file, '--store', 'postgres', '--database-url', url!, '--schema', schema, '--resource', 'anime']);
    expect(run.code, run.stderr).toBe(0);
    // Only the NOTIFY's delivery (or, at worst, one poll) stands between the commit and the answer.
    let title = '';
    for (const until = Date.now() + 1_500; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) {
      title = (await read(path)).body.data.title;
      if (title === 'Imported Anew') break;
    }
    expect(title).toBe('Imported Anew');
    expect((await read(`/v1/anime/${entry.mal_id}/full`)).body.data.title).toBe('Imported Anew');
  }, 60_000);
});
