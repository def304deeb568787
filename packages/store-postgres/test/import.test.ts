/**
 * The importer (`catalogue-api import`): every rejected record reported with its line or index and
 * zod's reason while the valid ones are imported; idempotent re-runs; batches committed before a
 * failure (or a SIGKILL) are kept. Runs the real CLI with tsx. Needs `DATABASE_URL` for PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { demoData } from '@catalogue-api/demo-data';
import { answersOf } from '@catalogue-api/testkit';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { createSnapshotSink, importFile, ImportInterruptedError, toStoreSink, type ImportSink } from '../src/import.js';
import { RESOURCE_NAMES } from '../src/resources.js';
import { CLI_COMMAND, runCli, startCli } from './cli.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'catalogue-import-'));
const anime = demoData.anime as readonly Anime[];

/** 30 anime as NDJSON, with a blank line, a record with a string mal_id (line 7) and broken JSON (line 12). */
function writeNdjson(): string {
  const lines = anime.slice(0, 30).map((a) => JSON.stringify(a));
  lines[6] = JSON.stringify({ ...anime[6], mal_id: 'seven' });
  lines[11] = '{"mal_id": 12, "title": ';
  lines.splice(20, 0, '');
  const file = join(dir, 'anime.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catalogue-api import --store memory-snapshot', () => {
  it('imports the valid records, reports each rejected one with its line and reason, exits 1', async () => {
    const file = writeNdjson();
    const out = join(dir, 'snapshot.json');
    const first = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out, '--batch-size', '4']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/rejected line 7: mal_id: .*expected number/);
    expect(first.stderr).toMatch(/rejected line 12: invalid JSON/);
    expect(first.stderr).toMatch(/28 of 30 records imported/);
    const snapshot = JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] };
    expect(snapshot.anime).toHaveLength(28);
    const served = await answersOf(createMemoryStore(snapshot))(`/v1/anime/${anime[0]!.mal_id}`);
    expect(JSON.stringify(served!.data)).toBe(JSON.stringify(anime[0]));

    const again = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
    expect(again.code).toBe(1);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime).toHaveLength(28);
  }, 60_000);

  it('writes an ASCII snapshot (other characters as \\u escapes) that parses back to the same records', async () => {
    const out = join(dir, 'snapshot-ascii.json');
    const records = [...anime.slice(0, 5), { ...anime[5]!, title: 'Ünïcödé ★ 進撃の巨人 😀' }];
    expect(records.some((r) => /[^\x00-\x7f]/.test(JSON.stringify(r)))).toBe(true);
    const sink = await createSnapshotSink(out);
    await sink.write('anime', records);
    await sink.close();
    const bytes = readFileSync(out);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    expect(bytes.toString('latin1')).toContain('\\u00dcn\\u00efc\\u00f6d\\u00e9 \\u2605 \\u9032');
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ anime: records });
  });

  it('reads a JSON array and a { data: [...] } document, naming a bad element by its index', async () => {
    const out = join(dir, 'snapshot-json.json');
    const list = anime.slice(0, 5).map((a) => ({ ...a }));
    (list[3] as Record<string, unknown>).score = 'high';
    writeFileSync(join(dir, 'list.json'), JSON.stringify(list, null, 2));
    const array = await runCli(['import', join(dir, 'list.json'), '--store', 'memory-snapshot', '--out', out, '--resource', 'anime']);
    expect(array.code).toBe(1);
    expect(array.stderr).toMatch(/rejected index 3: score: /);
    writeFileSync(join(dir, 'page.json'), JSON.stringify({ pagination: {}, data: anime.slice(5, 8) }));
    const page = await runCli(['import', join(dir, 'page.json'), '--store', 'memory-snapshot', '--out', out, '--resource', 'anime']);
    expect(page.code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime.map((a) => a.mal_id)).toEqual(
      [0, 1, 2, 4, 5, 6, 7].map((i) => anime[i]!.mal_id),
    );
  }, 60_000);

  it('reads a { data: {...} } document, the response of one record (GET /v4/anime/{id}), as that record', async () => {
    const out = join(dir, 'snapshot-one.json');
    writeFileSync(join(dir, 'one.json'), JSON.stringify({ data: anime[9] }));
    const one = await runCli(['import', join(dir, 'one.json'), '--store', 'memory-snapshot', '--out', out, '--resource', 'anime']);
    expect(one.stderr).not.toMatch(/rejected line/);
    expect(one.code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime).toEqual([anime[9]]);
  }, 60_000);

  it('exits 2 with the usage on a bad command line', async () => {
    const bad = await runCli(['import', 'x.json', '--store', 'mongo']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--store must be memory-snapshot or postgres/);
    expect((await runCli(['import', 'x.json', '--store', 'postgres', '--resource', 'spaceships'])).code).toBe(2);
    const file = writeNdjson();
    const badUrl = await runCli(['import', file, '--store', 'postgres', '--database-url', 'localhost:5432/test']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/--database-url \(or DATABASE_URL\) must be a postgres:\/\/ URL, got "localhost:5432\/test"/);
  }, 60_000);

  it('exits 2 naming a FILE that does not exist, before connecting to any database', async () => {
    const missing = join(dir, 'no-such-file.ndjson');
    const result = await runCli(['import', missing, '--store', 'postgres', '--database-url', 'postgres://nobody@127.0.0.1:1/none']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read FILE "${missing}": no such file`);
    expect(result.stderr).not.toMatch(/ECONNREFUSED|\n\s+at /);
  }, 60_000);

  // `script` (util-linux) runs the CLI on a pseudo-terminal, where the importer draws a bar instead of
  // log lines; without it there is no terminal to test on.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('draws a progress bar on a terminal, and plain progress lines elsewhere', async () => {
    const file = writeNdjson();
    const out = join(dir, 'snapshot-tty.json');
    const command = [...CLI_COMMAND, 'import', file, '--store', 'memory-snapshot', '--out', out, '--batch-size', '4'];
    const quoted = command.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const tty = spawnSync('script', ['-qec', quoted, '/dev/null'], { env: { ...process.env, FORCE_COLOR: '0' }, encoding: 'utf8' });
    expect(tty.stdout).toMatch(/anime ← anime\.ndjson \[[█░]+\] 100% \| 28 imported, 2 rejected/);
    const plain = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out, '--batch-size', '4']);
    expect(plain.stderr).not.toMatch(/[█░]/);
    expect(plain.stderr).toMatch(/28 of 30 records imported/);
  }, 60_000);
});

describe.skipIf(!url)('catalogue-api import --store postgres', () => {
  const { sql, fresh } = suiteDatabase('pgseam_import', 2);
  let store: PostgresStore;
  /** The CLI options that import into `target`. */
  const into = (target: PostgresStore) => ['--store', 'postgres', '--database-url', url!, '--schema', target.schema];

  beforeAll(async () => {
    store = await fresh();
  });

  it('imports all but the bad lines, reports them, and a re-run leaves the same rows', async () => {
    const file = writeNdjson();
    const first = await runCli(['import', file, ...into(store), '--batch-size', '4']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/rejected line 7: mal_id: /);
    expect(first.stderr).toMatch(/rejected line 12: invalid JSON/);
    expect(await store.count('anime')).toBe(28);
    const again = await runCli(['import', file, ...into(store)]);
    expect(again.code).toBe(1);
    expect(await store.count('anime')).toBe(28);
    expect(JSON.stringify(await store.get('anime', anime[29]!.mal_id))).toBe(JSON.stringify(anime[29]));
  }, 60_000);

  it('imports another resource by its file name, validated by its own schema', async () => {
    const manga = demoData.manga ?? [];
    expect(manga.length).toBeGreaterThan(0);
    const file = join(dir, 'manga.ndjson');
    writeFileSync(file, manga.map((m) => JSON.stringify(m)).join('\n'));
    const result = await runCli(['import', file, ...into(store)]);
    expect(result.code).toBe(0);
    expect(await store.count('manga')).toBe(manga.length);
  }, 60_000);

  it('imports every resource of the demo data from its own file, and the store then answers like the memory store', async () => {
    const target = await fresh();
    for (const name of RESOURCE_NAMES) {
      const records = (demoData as unknown as Record<string, readonly unknown[] | undefined>)[name] ?? [];
      const file = join(dir, `${name}.ndjson`);
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
      const summary = await importFile(file, { resource: name, sink: toStoreSink(target) });
      expect(summary.rejected, name).toEqual([]);
      expect(await target.count(name), name).toBe(records.length);
    }
    const person = demoData.people![0]!.mal_id;
    const targets = [
      '/v1/manga/11/full',
      '/v1/manga?sfw&unapproved&order_by=score&sort=desc',
      '/v1/characters/17/full',
      `/v1/people/${person}/full`,
      '/v1/anime/47/staff',
      '/v1/anime/20/full',
      '/v1/genres/anime',
      '/v1/recommendations/anime',
      '/v1/manga/deleted',
    ];
    // The API over the imported records answers as over the memory store.
    const imported = answersOf(target);
    const memory = answersOf(createMemoryStore(demoData));
    for (const t of targets) expect(JSON.stringify(await imported(t)), t).toBe(JSON.stringify(await memory(t)));
  }, 120_000);

  it('keeps the batches committed before a failing one, and says how far it got', async () => {
    const failing = await fresh();
    const inner = toStoreSink(failing);
    let writes = 0;
    const sink: ImportSink = {
      async write(resource, records) {
        if (++writes === 3) throw new Error('connection lost');
        await inner.write(resource, records);
      },
      close: () => inner.close(),
    };
    const file = join(dir, 'anime-all.ndjson');
    writeFileSync(file, anime.slice(0, 50).map((a) => JSON.stringify(a)).join('\n'));
    const error = await importFile(file, { resource: 'anime', sink, batchSize: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInterruptedError);
    expect((error as ImportInterruptedError).summary).toMatchObject({ batches: 2, imported: 20 });
    expect(await failing.count('anime')).toBe(20);
    const ids = (await sql<{ mal_id: number }[]>`select mal_id from ${sql(`${failing.schema}.anime`)} order by mal_id`).map((r) => r.mal_id);
    expect(ids).toEqual(anime.slice(0, 20).map((a) => a.mal_id).sort((a, b) => a - b));
    // Re-running finishes the import.
    const summary = await importFile(file, { resource: 'anime', sink: toStoreSink(failing), batchSize: 10 });
    expect(summary.rejected).toEqual([]);
    expect(await failing.count('anime')).toBe(50);
    // A fresh schema, two imports and counts: more than the default 5 s on a busy machine.
  }, 60_000);

  it("calls the sink's finish once after the last batch (the store sink's analyze), never after a failure", async () => {
    const file = join(dir, 'anime-finish.ndjson');
    writeFileSync(file, anime.slice(0, 25).map((a) => JSON.stringify(a)).join('\n'));
    const recording = (failAt?: number) => {
      const calls: string[] = [];
      const sink: ImportSink = {
        async write(_resource, records) {
          if (calls.length + 1 === failAt) throw new Error('connection lost');
          calls.push(`write ${records.length}`);
        },
        async finish() {
          calls.push('finish');
        },
        async close() {
          calls.push('close');
        },
      };
      return { calls, sink };
    };
    const ok = recording();
    await importFile(file, { resource: 'anime', sink: ok.sink, batchSize: 10 });
    expect(ok.calls).toEqual(['write 10', 'write 10', 'write 5', 'finish', 'close']);
    const failed = recording(2);
    await expect(importFile(file, { resource: 'anime', sink: failed.sink, batchSize: 10 })).rejects.toBeInstanceOf(ImportInterruptedError);
    expect(failed.calls).toEqual(['write 10', 'close']);
    expect(typeof toStoreSink(createPostgresStore({ sql, schema: store.schema })).finish).toBe('function');
  });

  it('a SIGKILL mid-import loses no committed batch, and a re-run completes it', async () => {
    const target = await fresh();
    // 2,330 records (the demo set five times over, with new ids), 10 per batch.
    const records = [0, 1, 2, 3, 4].flatMap((copy) => anime.map((a) => ({ ...a, mal_id: a.mal_id + copy * 1_000_000 })));
    const file = join(dir, 'anime-big.ndjson');
    writeFileSync(file, records.map((a) => JSON.stringify(a)).join('\n'));
    const child = startCli(['import', file, ...into(target), '--batch-size', '10']);
    child.stderr.resume();
    child.stdout.resume();
    const closed = new Promise((resolve) => child.on('close', resolve));
    for (let i = 0; i < 3000 && (await target.count('anime')) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    await closed;
    const count = await target.count('anime');
    expect(count).toBeGreaterThan(0);
    // Whole batches only, and exactly the first ones of the file.
    expect(count % 10 === 0 || count === records.length).toBe(true);
    const ids = (await sql<{ mal_id: number }[]>`select mal_id from ${sql(`${target.schema}.anime`)}`).map((r) => r.mal_id);
    expect(new Set(ids)).toEqual(new Set(records.slice(0, count).map((a) => a.mal_id)));
    const rerun = await runCli(['import', file, ...into(target), '--batch-size', '200']);
    expect(rerun.code).toBe(0);
    expect(await target.count('anime')).toBe(records.length);
  }, 120_000);
});

describe('snapshot sink', () => {
  it('replaces records of the same identity in place and keeps first-seen order', async () => {
    const out = join(dir, 'sink.json');
    const sink = await createSnapshotSink(out);
    await sink.write('relations', [
      { from_type: 'anime', from_id: 1, relation: 'Sequel', to_type: 'anime', to_id: 2 },
      { from_type: 'anime', from_id: 1, relation: 'Prequel', to_type: 'anime', to_id: 3 },
    ]);
    await sink.write('relations', [{ from_type: 'anime', from_id: 1, relation: 'Sequel', to_type: 'anime', to_id: 2 }]);
    await sink.write('deletedAnimeIds', [5, 6, 5]);
    const data = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown[]>;
    expect(data.relations).toHaveLength(2);
    expect(data.deletedAnimeIds).toEqual([5, 6]);
  });
});
