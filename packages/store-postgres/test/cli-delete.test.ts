/**
 * `catalogue-api delete` (records by resource and id, or the demo seed while it is as seeded) and
 * `catalogue-api purge-cache` (the shared response cache in Redis, nothing else), run as a user
 * runs them.
 */
import { demoData } from '@catalogue-api/demo-data';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { suiteDatabase } from './suite-database.js';

const { DATABASE_URL, REDIS_URL } = process.env;

describe('catalogue-api delete: usage', { timeout: 60_000 }, () => {
  it.each([
    [['delete'], 'delete needs --resource and ids, or --demo'],
    [['delete', '--resource', 'spaceships', '1'], 'unknown --resource "spaceships"'],
    [['delete', '--resource', 'anime'], 'delete --resource needs at least one id'],
    [['delete', '--demo', '--resource', 'anime'], '--demo takes no --resource and no ids'],
    [['delete', '--demo', '--database-url', 'localhost:5432/test'], 'must be a postgres:// URL'],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: catalogue-api delete');
  });

  it('is in --help, with purge-cache', async () => {
    const { spawnSync } = await import('node:child_process');
    const { CLI_COMMAND } = await import('./cli.js');
    const help = spawnSync(CLI_COMMAND[0]!, [...CLI_COMMAND.slice(1), '--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('usage: catalogue-api delete');
    expect(help.stdout).toContain('usage: catalogue-api purge-cache');
  });
});

describe.skipIf(!DATABASE_URL)('catalogue-api delete on PostgreSQL', { timeout: 120_000 }, () => {
  const { fresh } = suiteDatabase('cli_delete_f_operator', 2);

  it('deletes records by resource and id, and says how many were there', async () => {
    const store = await fresh();
    await store.upsert('anime', demoData.anime.slice(0, 3));
    const [a, b, c] = demoData.anime.slice(0, 3).map((anime) => anime.mal_id);
    const result = await runCli(['delete', '--resource', 'anime', String(a), String(b), '999999999', '--schema', store.schema]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('anime: 2 of 3 records deleted');
    expect(await store.get('anime', a!)).toBeUndefined();
    expect(await store.get('anime', b!)).toBeUndefined();
    expect((await store.get('anime', c!))?.mal_id).toBe(c);
    expect(await store.count('anime')).toBe(1);
  });

  it('--demo deletes the seeded demo in every resource, and keeps a record an import replaced under a demo id', async () => {
    const store = await fresh();
    await store.seed(demoData);
    const mine = { ...demoData.anime[0]!, title: 'My own record under a demo id' };
    await store.upsert('anime', [mine]);
    const result = await runCli(['delete', '--demo', '--schema', store.schema]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/demo: \d+ records deleted/);
    expect(await store.count('anime')).toBe(1);
    expect((await store.get('anime', mine.mal_id))?.title).toBe('My own record under a demo id');
    expect(await store.count('manga')).toBe(0);
    expect(await store.count('characters')).toBe(0);
  });
});

describe.skipIf(!REDIS_URL)('catalogue-api purge-cache', { timeout: 60_000 }, () => {
  it('deletes the response cache keys of its prefix, and nothing else', async () => {
    const prefix = `catalogue-api-test:f-operator-purge:${process.pid}:`;
    const other = `catalogue-api-test:f-operator-other:${process.pid}:`;
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    try {
      await client.hSet(`${prefix}{cache:public}`, 'GET /v1/anime/1', '{}');
      await client.set(`${prefix}{cache:public}:bytes`, '2');
      await client.zAdd(`${prefix}{cache:server}:index`, { score: 1, value: 'GET /v1/anime/1' });
      await client.set(`${prefix}keys`, 'kept');
      await client.hSet(`${other}{cache:public}`, 'GET /v1/anime/1', '{}');
      const result = await runCli(['purge-cache', '--redis-url', REDIS_URL!, '--prefix', prefix]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('response cache purged: 3 Redis keys deleted');
      expect(await client.exists([`${prefix}{cache:public}`, `${prefix}{cache:public}:bytes`, `${prefix}{cache:server}:index`])).toBe(0);
      expect(await client.get(`${prefix}keys`)).toBe('kept');
      expect(await client.exists(`${other}{cache:public}`)).toBe(1);
    } finally {
      await client.del([`${prefix}keys`, `${other}{cache:public}`]);
      client.destroy();
    }
  });

  it('refuses a URL that is not Redis with exit code 2', async () => {
    const result = await runCli(['purge-cache', '--redis-url', 'localhost:6379']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('purge-cache needs --redis-url or REDIS_URL');
  });
});
