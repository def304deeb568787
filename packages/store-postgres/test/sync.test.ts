import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresRefreshState } from '../src/refresh-state.js';
import { runCli } from './cli.js';

const url = process.env.DATABASE_URL;
// Others share the database: every schema this file makes is unique to the run and dropped after.
const run = `d2_sync_${process.pid}_${Date.now().toString(36)}`;

// Each run starts a process through tsx, a few seconds each.
describe('catalogue-api sync: usage', { timeout: 60_000 }, () => {
  it('asks for an upstream, with exit code 2 and the usage', async () => {
    const { code, stderr } = await runCli(['sync', '--database-url', 'postgres://127.0.0.1:1/none']);
    expect(code).toBe(2);
    expect(stderr).toContain('sync needs --upstream or UPSTREAM_URL');
    expect(stderr).toContain('usage: catalogue-api sync');
  });

  it('refuses an upstream that is not an http(s) URL, naming it', async () => {
    const { code, stderr } = await runCli(['sync', '--upstream', 'ftp://example.org/v4', '--database-url', 'postgres://127.0.0.1:1/none']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^UPSTREAM_URL must be a http:\/\/ or https:\/\/ URL/);
  });

  it('refuses a budget that is not a positive whole number', async () => {
    const { code, stderr } = await runCli(['sync', '--upstream', 'https://api.jikan.moe/v4', '--max-per-minute', '0', '--database-url', 'postgres://127.0.0.1:1/none']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^UPSTREAM_MAX_PER_MINUTE must be/);
  });

  it('prints its usage for --help, with exit code 0', async () => {
    expect((await runCli(['sync', '--help'])).code).toBe(0);
  });
});

if (url) {
  describe('catalogue-api sync into PostgreSQL', { timeout: 120_000 }, () => {
    const sql = postgres(url, { max: 2, onnotice: () => {} });
    const made: string[] = [];
    let server: Server;
    let base = '';
    const requests: string[] = [];

    beforeAll(async () => {
      // A Jikan v4-compatible upstream holding nothing: every listing is one empty page.
      server = createServer((request, response) => {
        requests.push(request.url ?? '');
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ pagination: { last_visible_page: 1, has_next_page: false }, data: [] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const schema of made) await sql.unsafe(`drop schema if exists "${schema}" cascade`);
      await sql.end({ timeout: 5 });
    });

    it('does nothing while another refresher holds the lease, with exit code 4', async () => {
      const schema = `${run}_leased`;
      made.push(schema);
      const state = await createPostgresRefreshState({ sql, schema });
      expect(await state.acquireLease('a-server', Date.now(), 10 * 60_000)).toBe(true);
      requests.length = 0;
      const { code, stderr } = await runCli(['sync', '--upstream', base, '--database-url', url, '--schema', schema]);
      expect(code).toBe(4);
      expect(stderr).toContain('another refresher holds the lease');
      expect(requests).toEqual([]);
    });

    it('works everything due in one pass, with exit code 0, and gives the lease up', async () => {
      const schema = `${run}_pass`;
      made.push(schema);
      requests.length = 0;
      const { code, stderr } = await runCli(['sync', '--upstream', base, '--database-url', url, '--schema', schema, '--max-per-second', '20', '--max-per-minute', '1200']);
      expect(stderr).toMatch(/^sync: \d+ requests in/m);
      expect(code).toBe(0);
      // The discovery listings were read, and their slots written to the shared ledger.
      expect(requests.some((path) => path.startsWith('/v4/anime?order_by=mal_id&sort=desc'))).toBe(true);
      const [ledger] = await sql.unsafe(`select count(*)::integer as n from "${schema}".refresh_requests`);
      expect(ledger!.n).toBe(requests.length);
      const leases = await sql.unsafe(`select holder from "${schema}".refresh_lease`);
      expect(leases).toEqual([]);
    });
  });
} else {
  // A named skip, not a silent one: without a database there is nothing to sync into.
  describe.skip('catalogue-api sync into PostgreSQL (DATABASE_URL is not set)', () => {
    it('needs DATABASE_URL', () => {});
  });
}
