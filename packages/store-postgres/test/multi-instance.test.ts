/**
 * Several API instances on one database serve identical answers: two example Node servers started
 * at once on one empty PostgreSQL schema (both migrate and seed it) answer the same bytes, and the
 * same bytes as the in-process memory store for searches without `q`. Needs `DATABASE_URL`.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { spawnServer, type SpawnedServer } from '@catalogue-api/testkit';

const url = process.env.DATABASE_URL;
const root = fileURLToPath(new URL('../../../', import.meta.url));

const PATHS = [
  '/v1/anime',
  '/v1/anime?page=3&limit=7',
  '/v1/anime?order_by=score&sort=desc&sfw',
  '/v1/anime?type=tv,movie&genres=1&order_by=start_date',
  '/v1/anime?rating=pg13,r17&min_score=7.5&max_score=9&order_by=members&sort=desc',
  '/v1/anime?producers=352,37&letter=k&unapproved=true',
  '/v1/anime?start_date=2005&end_date=2015-06&order_by=end_date',
  '/v1/anime?q=naruto',
  '/v1/anime?q=fulmetal',
  '/v1/anime/20',
  '/v1/anime/999999999',
  '/v1/anime/20/full',
];

/**
 * Fetches from a spawned server at most ~3 times a second: the example server keeps the public
 * rate limit (4 per second, spec "Limits") unless it maps RATE_LIMIT=off, which it may not yet.
 */
const lastAt = new Map<string, number>();
async function paced(origin: string, path: string): Promise<Response> {
  const wait = (lastAt.get(origin) ?? 0) + 300 - Date.now();
  lastAt.set(origin, Date.now() + Math.max(0, wait));
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return fetch(`${origin}${path}`);
}

describe.skipIf(!url)('two example servers on one database', () => {
  const schema = `catalogue_test_${Math.random().toString(36).slice(2, 10)}`;
  let servers: SpawnedServer[] = [];

  beforeAll(async () => {
    const start = () =>
      spawnServer({
        command: process.execPath,
        // As `npm start` runs it (the root package.json).
        args: ['--import', 'tsx', '--import', './examples/node/raw-imports.mjs', 'examples/node/server.ts'],
        cwd: root,
        // No shared Redis: its response cache outlives the schema, and would answer with another run's records.
        env: { TSX_TSCONFIG_PATH: 'examples/node/tsconfig.json', REDIS_URL: '', DATABASE_URL: url!, DATABASE_SCHEMA: schema, RATE_LIMIT: 'off', STATUS_DATABASE_URL: '', DEMO_DATA: 'on' },
        timeoutMs: 60_000,
      });
    servers = await Promise.all([start(), start()]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    const sql = postgres(url!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end({ timeout: 5 });
  });

  it.each(PATHS)('%s: the same status and body from both instances', async (path) => {
    const [a, b] = await Promise.all(servers.map((s) => paced(s.url, path)));
    expect(a!.status).toBe(b!.status);
    expect(await a!.text()).toBe(await b!.text());
  });

  it.each(PATHS.filter((p) => !p.includes('q=')))('%s: the same body as the memory store', async (path) => {
    const memory = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });
    const [pg, mem] = await Promise.all([paced(servers[1]!.url, path), memory.fetch(new Request(`http://localhost${path}`))]);
    expect(pg.status).toBe(mem.status);
    expect(await pg.text()).toBe(await mem.text());
  });
});
