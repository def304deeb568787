import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createChecker, createStatusApp, type ServiceConfig } from '@catalogue-api/core';
import { statusSnapshotSchema } from '@catalogue-api/core/schemas';
import { defineStatusStoreContract } from '@catalogue-api/testkit';
import { createPostgresStatusStore, type PostgresStatusStore } from './status-store.js';

const url = process.env.DATABASE_URL;
const M = 60_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0);
// Others share the database: every schema this file makes is unique to the run and dropped after.
const run = `status_test_${process.pid}_${Date.now().toString(36)}`;
let counter = 0;
const schemaName = () => `${run}_${++counter}`;

describe.skipIf(!url)('PostgreSQL status store', () => {
  const sql = postgres(url ?? 'postgres://127.0.0.1/none', { max: 4, onnotice: () => {} });
  const made: string[] = [];

  afterAll(async () => {
    for (const schema of made) await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end({ timeout: 5 });
  });

  defineStatusStoreContract('postgres', {
    async create() {
      const schema = schemaName();
      made.push(schema);
      return createPostgresStatusStore({ sql, schema });
    },
  });

  const services: ServiceConfig[] = [{ id: 'api', name: 'Catalogue API', check: { url: 'http://127.0.0.1:1/' } }];

  it('keeps history and maintenance records across a restart', async () => {
    const schema = schemaName();
    made.push(schema);
    const first = await createPostgresStatusStore({ url: url!, schema });
    for (let minute = 0; minute < 20; minute++) {
      await first.recordCheck({ serviceId: 'api', outcome: minute >= 5 && minute < 12 ? 'fail' : 'up', at: T0 + minute * M }, 2 * M);
    }
    const before = createStatusApp({ services, store: first, now: () => T0 + 20 * M });
    await before.maintenance.add({ id: 'm', serviceId: 'api', title: 'Later', startsAt: T0 + 60 * M, endsAt: T0 + 90 * M });
    const expected = await before.snapshot();
    await first.close();

    const second = await createPostgresStatusStore({ url: url!, schema });
    try {
      const after = statusSnapshotSchema.parse(await createStatusApp({ services, store: second, now: () => T0 + 20 * M }).snapshot());
      expect(after).toEqual(expected);
      expect(after.services[0]).toMatchObject({ outage_minutes_90d: 7, daily_outage_minutes_90d: { '2026-01-10': 7 } });
      expect(after.scheduled_maintenances.map((m) => m.id)).toEqual(['m']);
    } finally {
      await second.close();
    }
  });

  it('migrates once when several instances start at the same time, and again is a no-op', async () => {
    const schema = schemaName();
    made.push(schema);
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresStatusStore({ url: url!, schema })));
    await Promise.all(stores.map((store) => store.close()));
    const again = await createPostgresStatusStore({ sql, schema });
    const versions = await sql.unsafe(`select version from "${schema}".status_migrations`);
    expect(versions.map((row) => row.version)).toEqual([1]);
    expect(await again.listSegments(0)).toEqual([]);
  });

  it('does not double-count when two checker instances share the database', async () => {
    const schema = schemaName();
    made.push(schema);
    const server = createServer((_, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const watched: ServiceConfig[] = [{ id: 'api', name: 'API', check: { url: target } }];
    let t = T0;
    const stores: PostgresStatusStore[] = [await createPostgresStatusStore({ sql, schema }), await createPostgresStatusStore({ sql, schema })];
    const checkers = stores.map((store, i) => createChecker({ services: watched, store, now: () => t, holder: `instance-${i}` }));
    try {
      for (let round = 0; round < 5; round++) {
        const rounds = await Promise.all(checkers.map((checker) => checker.runOnce()));
        expect(rounds.filter((r) => r.leader)).toHaveLength(1);
        t += M;
      }
      const segments = await stores[0]!.listSegments(0);
      expect(segments).toEqual([{ serviceId: 'api', outcome: 'up', startedAt: T0, lastAt: T0 + 4 * M, checks: 5 }]);
    } finally {
      await Promise.all(checkers.map((checker) => checker.stop()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
