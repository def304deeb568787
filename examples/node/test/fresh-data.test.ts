/**
 * Fresh data end to end, as an operator runs it: two Node example servers on one PostgreSQL schema
 * and one Redis, both with `UPSTREAM_URL` pointed at a fake Jikan v4 upstream holding the demo
 * catalogue (limits 20/s and 1,200/min, `UPSTREAM_TIME_SCALE=3600`: an hour of the schedule is a
 * second, the budget and the lease stay in real time). Once both have cached the old copies,
 * changes upstream are served by both: airing entries within 30 s, old finished entries and manga
 * within 240 s, a new id within 60 s; the leader killed, the other serves the next change within 60 s.
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { checkRequestLog, createFakeUpstream, newAnimeLike, type FakeRecord, type FakeUpstream, type SpawnedServer } from '@catalogue-api/testkit';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startExample } from '../../../test/support/example-servers.js';

const { DATABASE_URL, REDIS_URL } = process.env;
const LIMITS = { perSecond: 20, perMinute: 1_200 };

interface Instance {
  server: SpawnedServer;
  metrics: string;
}

/** The `data.title` an instance serves at a path, or its status when not a 200. */
async function titleAt(instance: Instance, path: string): Promise<string | number> {
  const response = await fetch(`${instance.server.url}${path}`);
  if (response.status !== 200) return response.status;
  return ((await response.json()) as { data: { title: string } }).data.title;
}

/** Waits until every instance serves `title` at `path`; the seconds it took. */
async function servedBy(instances: Instance[], path: string, title: string, withinMs: number): Promise<number> {
  const started = Date.now();
  for (const instance of instances) {
    await expect.poll(() => titleAt(instance, path), { timeout: Math.max(1, withinMs - (Date.now() - started)), interval: 250 }).toBe(title);
  }
  return (Date.now() - started) / 1000;
}

async function isLeader(instance: Instance): Promise<boolean> {
  const text = await (await fetch(instance.metrics)).text();
  return /^catalogue_refresh_leader 1$/m.test(text);
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('two example servers keep current from an upstream (PostgreSQL + Redis)', () => {
  const tag = Math.random().toString(36).slice(2, 10);
  const schema = `fresh_e2e_${tag}`;
  let upstream: FakeUpstream;
  const instances: Instance[] = [];

  const airing = demoData.anime.find((a) => a.airing && a.status === 'Currently Airing')!;
  const finished = [...demoData.anime]
    .filter((a) => a.status === 'Finished Airing' && (a.aired.prop.from.year ?? 9999) < 2000)
    .sort((a, b) => (b.popularity ?? 0) - (a.popularity ?? 0))[0]!;
  const manga = demoData.manga!.at(-1)!;
  const newId = Math.max(...demoData.anime.map((a) => a.mal_id)) + 1_000;

  async function start(): Promise<Instance> {
    const metricsPort = await freePort();
    const server = await startExample('node', {
      DATABASE_URL: DATABASE_URL!,
      DATABASE_SCHEMA: schema,
      DEMO_DATA: 'on',
      REDIS_URL: REDIS_URL!,
      REDIS_PREFIX: `fresh-e2e-${tag}:`,
      RATE_LIMIT: 'off',
      UPSTREAM_URL: upstream.url,
      UPSTREAM_MAX_PER_SECOND: String(LIMITS.perSecond),
      UPSTREAM_MAX_PER_MINUTE: String(LIMITS.perMinute),
      UPSTREAM_TIME_SCALE: '3600',
      METRICS_PORT: String(metricsPort),
    });
    return { server, metrics: `http://127.0.0.1:${metricsPort}/metrics` };
  }

  beforeAll(async () => {
    const backing = createCatalogueApp({ store: createMemoryStore(demoData) });
    upstream = await createFakeUpstream({
      anime: demoData.anime as unknown as FakeRecord[],
      manga: demoData.manga! as unknown as FakeRecord[],
      backing,
      limits: LIMITS,
      slackMs: 250,
    });
    // One after the other: the first seeds the demo catalogue into the new schema.
    instances.push(await start());
    instances.push(await start());
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.server.close()));
    await upstream?.close();
    const sql = postgres(DATABASE_URL!, { max: 1, onnotice: () => undefined });
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end();
  });

  it('serves changes upstream on both instances within each tier’s bound, and a new id, and survives the leader', { timeout: 420_000 }, async () => {
    // Both caches hold the old copies first.
    for (const instance of instances) {
      for (const path of [`/v1/anime/${airing.mal_id}`, `/v1/anime/${finished.mal_id}`, `/v1/manga/${manga.mal_id}`]) {
        expect(await titleAt(instance, path)).not.toBe(404);
        await fetch(`${instance.server.url}${path}`);
      }
      expect(await titleAt(instance, `/v1/anime/${newId}`)).toBe(404);
    }

    upstream.set('anime', { ...(airing as unknown as FakeRecord), title: `${airing.title} (airing, changed)` });
    upstream.set('anime', { ...(finished as unknown as FakeRecord), title: `${finished.title} (finished, changed)` });
    upstream.set('manga', { ...(manga as unknown as FakeRecord), title: `${manga.title} (changed)` });
    upstream.set('anime', newAnimeLike(airing, newId, 'A new entry upstream'));

    const seconds = await Promise.all([
      servedBy(instances, `/v1/anime/${airing.mal_id}`, `${airing.title} (airing, changed)`, 30_000),
      servedBy(instances, `/v1/anime/${newId}`, 'A new entry upstream', 60_000),
      servedBy(instances, `/v1/anime/${finished.mal_id}`, `${finished.title} (finished, changed)`, 240_000),
      servedBy(instances, `/v1/manga/${manga.mal_id}`, `${manga.title} (changed)`, 240_000),
    ]);
    console.info(`fresh data end to end: airing ${seconds[0]} s, new id ${seconds[1]} s, finished ${seconds[2]} s, manga ${seconds[3]} s`);

    // The leader killed: the other takes over and serves the next change.
    const leaders = await Promise.all(instances.map(isLeader));
    expect(leaders.filter(Boolean)).toHaveLength(1);
    const leader = instances[leaders.indexOf(true)]!;
    const other = instances[leaders.indexOf(false)]!;
    leader.server.process.kill('SIGKILL');
    upstream.set('anime', { ...(airing as unknown as FakeRecord), title: `${airing.title} (after the leader)` });
    await servedBy([other], `/v1/anime/${airing.mal_id}`, `${airing.title} (after the leader)`, 60_000);
    expect(await isLeader(other)).toBe(true);

    // The budget held over any sliding second and minute, across the change of leader too.
    const check = checkRequestLog(upstream.log, LIMITS, { slackMs: 250 });
    expect(check.ok, JSON.stringify(check)).toBe(true);
  });
});
