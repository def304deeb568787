/**
 * The Node example's start-up failures that involve its back ends, over real sockets: PostgreSQL
 * refusing, a schema migration that fails on a real PostgreSQL, and an unreachable Redis, each in
 * one line without a stack trace.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExample, startExample } from '../../../test/support/example-servers.js';

const { DATABASE_URL } = process.env;

it('stops with exit code 1 and one line naming DATABASE_URL when PostgreSQL refuses', async () => {
  // Port 1 at 127.0.0.1: nothing listens there.
  const result = await runExample('node', { DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/catalogue' });
  expect(result.code).toBe(1);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!).msg).toMatch(/^Could not start: PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/catalogue \(DATABASE_URL\): .*ECONNREFUSED/);
  expect(result.output).not.toContain('hunter2');
});

describe.skipIf(!DATABASE_URL)('with a schema its migration cannot upgrade', () => {
  const schema = `start_up_${Math.random().toString(36).slice(2, 10)}`;
  let sql: postgres.Sql;
  beforeAll(async () => {
    sql = postgres(DATABASE_URL!, { onnotice: () => undefined });
    // A schema a pre-release build made (its ledger stops before the baseline): not upgraded.
    await sql.unsafe(
      `create schema "${schema}"; create table "${schema}".catalogue_migrations (version integer primary key); insert into "${schema}".catalogue_migrations values (1), (2), (3)`,
    );
  });
  afterAll(async () => {
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end();
  });

  it('stops with exit code 1 and the migration error in one line', async () => {
    const result = await runExample('node', { DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toMatch(
      new RegExp(`^Could not start: PostgreSQL at .* \\(DATABASE_URL\\): PostgreSQL schema "${schema}" was made by a pre-release version of @catalogue-api/store-postgres \\(schema version 3\\), .*drop schema "${schema}" cascade.*import the records again$`),
    );
  });
});

it('says in one line each, without a stack trace, that its Redis is unreachable and requests get 503', async () => {
  const server = await startExample('node', { REDIS_URL: 'redis://127.0.0.1:1', ACCESS_LOG: 'off' });
  try {
    const res = await fetch(`${server.url}/v1/anime/1`);
    expect(res.status).toBe(503);
    await res.arrayBuffer();
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('Gateway back end unavailable; answering 503 until it recovers: ');
    expect(server.output()).toContain('Gateway back end unreachable: no answer from Redis at redis://127.0.0.1:1');
    expect(server.output()).not.toMatch(/^\s+at /m);
  } finally {
    await server.close();
  }
});
