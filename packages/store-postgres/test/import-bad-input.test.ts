/**
 * The importer on input and failures that used to crash it or fail whole batches, each through the
 * real CLI with its documented exit code and the database left consistent: records PostgreSQL
 * cannot store (NUL, unpaired surrogates, ids out of range, over-long index keys) rejected with
 * their lines; many rejections listed up to a cap; over-long lines, devices, directories and huge
 * JSON documents refused without reading them whole; a database connection cut mid-import (a
 * `node:net` proxy) ends with exit 3, whole batches kept, and a re-run completes the import.
 * PostgreSQL needs `DATABASE_URL`.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres, { type Sql } from 'postgres';
import type { Anime } from '@catalogue-api/core/schemas';
import { demoData } from '@catalogue-api/demo-data';
import { createPostgresStore } from '../src/catalogue-store.js';
import { cliFinished, runCli, startCli, type CliRun } from './cli.js';

const url = process.env.DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'catalogue-bad-input-'));
const anime = demoData.anime as readonly Anime[];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, lines: readonly string[]) => {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};

/**
 * 12 anime, 5 of them holding what no store may keep, each on its own line: a NUL in the title
 * (line 3), a negative id (5), a score of 11 (6), a genre id past 2³¹−1 (8), an unpaired surrogate
 * in a synonym (9).
 */
function unstorable(): { file: string; valid: number[] } {
  const records: Anime[] = anime.slice(0, 12).map((a) => structuredClone(a));
  records[2]!.title = 'Cowboy\u0000Bebop';
  records[4]!.mal_id = -5;
  records[5]!.score = 11;
  records[7]!.genres = [{ mal_id: 2 ** 31, type: 'anime', name: 'Action', url: 'https://myanimelist.net/anime/genre/1/Action' }];
  records[8]!.title_synonyms = ['half a pair \ud83d'];
  const file = write('anime-unstorable.ndjson', records.map((r) => JSON.stringify(r)));
  return { file, valid: records.filter((_, i) => ![2, 4, 5, 7, 8].includes(i)).map((r) => r.mal_id) };
}

function expectUnstorableRejected(result: CliRun): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/rejected line 3: title: holds U\+0000 \(NUL\)/);
  expect(result.stderr).toMatch(/rejected line 5: mal_id: an id must be an integer from 0 to 2147483647, got -5/);
  expect(result.stderr).toMatch(/rejected line 6: score: Too big: expected number to be <=10/);
  expect(result.stderr).toMatch(/rejected line 8: genres\.0\.mal_id: an id must be an integer from 0 to 2147483647, got 2147483648/);
  expect(result.stderr).toMatch(/rejected line 9: title_synonyms\.0: holds an unpaired UTF-16 surrogate/);
  expect(result.stderr).toMatch(/7 of 12 records imported .*, 5 rejected/);
}

describe('catalogue-api import: input no store can keep, and input too large to hold', () => {
  it('rejects records a store cannot keep with their lines and imports the rest into a snapshot (exit 1)', async () => {
    const { file, valid } = unstorable();
    const out = join(dir, 'unstorable.json');
    expectUnstorableRejected(await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]));
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime.map((a) => a.mal_id)).toEqual(valid);
  }, 60_000);

  it('lists the first 100 rejections as it finds them and counts the rest (exit 1)', async () => {
    const file = write('anime-empty-objects.ndjson', Array.from({ length: 5_000 }, () => '{}'));
    const out = join(dir, 'empty.json');
    const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr.match(/^rejected line \d+: /gm)).toHaveLength(100);
    expect(result.stderr).toContain('rejected line 100: mal_id: ');
    expect(result.stderr).toContain('(more rejections are counted, not listed; --list-rejected N lists more)');
    expect(result.stderr).toMatch(/0 of 5000 records imported .*, 5000 rejected\n$/);
    // The reason of one record lists ten issues and counts the rest.
    expect(result.stderr).toMatch(/rejected line 1: (?:[^;\n]+; ){10}and \d+ more issues\n/);
    const few = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out, '--list-rejected', '3']);
    expect(few.stderr.match(/^rejected line \d+: /gm)).toHaveLength(3);
  }, 60_000);

  it('rejects records nested too deeply with their lines, unparsed past 64 levels, and imports the lines around them (exit 1)', async () => {
    // `trailer.region_restriction` takes any object: 20 000 levels of it passed the schema and
    // overflowed the stack of the checks after it, which failed the whole import (exit 3).
    const nested = (levels: number) => {
      const deep = structuredClone(anime[1]!);
      delete (deep.trailer as Partial<Anime['trailer']>).region_restriction;
      return JSON.stringify(deep).replace('"trailer":{', `"trailer":{"region_restriction":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)},`);
    };
    const lines = [JSON.stringify(anime[0]), nested(20_000), nested(40), JSON.stringify(anime[2])];
    const file = write('anime-deep.ndjson', lines);
    const out = join(dir, 'deep.json');
    const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
    expect(result.code).toBe(1);
    // Past 64 levels the line is refused on its bytes, at the bracket past the limit: the record
    // and its `trailer` are two levels, so the 63rd `{"a":` of `region_restriction` is the 65th.
    const at = Buffer.byteLength(lines[0]!) + 1 + Buffer.from(nested(20_000)).indexOf('{"a":') + 62 * '{"a":'.length;
    expect(result.stderr).toContain(`rejected line 2: nested deeper than 64 levels (at byte ${at} of the file); a record nests at most 32\n`);
    expect(result.stderr).toMatch(/rejected line 3: trailer\.region_restriction(?:\.a)+: nested deeper than 32 levels/);
    expect(result.stderr).toMatch(/2 of 4 records imported .*, 2 rejected/);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime.map((a) => a.mal_id)).toEqual([anime[0]!.mal_id, anime[2]!.mal_id]);
  }, 60_000);

  it('exits 4, importing nothing, for a 62 MB JSON document nested deeper than 64 levels, refused on its bytes before parsing', async () => {
    const out = join(dir, 'nested.json');
    const levels = 31 * 1024 * 1024;
    for (const [name, open, close] of [
      ['anime-arrays.json', '[', ']'],
      ['anime-objects.json', '{"a":', '}'],
    ] as const) {
      const file = join(dir, name);
      const fd = openSync(file, 'w');
      const count = name === 'anime-arrays.json' ? levels : Math.floor(levels / 3);
      writeSync(fd, open.repeat(count));
      writeSync(fd, '1');
      writeSync(fd, close.repeat(count));
      closeSync(fd);
      const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
      rmSync(file);
      expect(result.code, name).toBe(4);
      expect(result.stderr, name).toContain(`${file} nests JSON deeper than 64 levels (at byte ${64 * open.length}); a record nests at most 32`);
      expect(result.stderr, name).toMatch(/Nothing was imported\.\n$/);
      expect(() => readFileSync(out), name).toThrow(/ENOENT/);
    }
  }, 120_000);

  it('reports records repeating an id of the input as duplicates, keeping the last one (exit 0)', async () => {
    const [a, b] = anime;
    const file = write('anime-repeated.ndjson', [
      JSON.stringify(a),
      JSON.stringify({ ...a, title: 'Second of one id' }),
      JSON.stringify(b),
      JSON.stringify({ ...a, title: 'Last of one id' }),
    ]);
    const out = join(dir, 'repeated.json');
    const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out, '--batch-size', '2']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/2 of 4 records imported .*, 0 rejected, 2 duplicates of an id already in this input \(the last one of each id is kept\)\n$/);
    const stored = (JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime;
    expect(stored.map((r) => [r.mal_id, r.title])).toEqual([
      [a!.mal_id, 'Last of one id'],
      [b!.mal_id, b!.title],
    ]);
  }, 60_000);

  it('refuses bytes that are not UTF-8 with their offset: an NDJSON line is rejected (exit 1), a JSON document imports nothing (exit 4)', async () => {
    const good = Buffer.from(JSON.stringify(anime[0]));
    const line = Buffer.from(JSON.stringify(anime[1]));
    const at = line.indexOf(Buffer.from(`"title":"`)) + '"title":"'.length;
    // Latin-1 "é" (0xE9) where UTF-8 wants two bytes: the decoder used to make it U+FFFD and import it.
    const latin1 = Buffer.concat([line.subarray(0, at), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20]), line.subarray(at)]);
    const ndjson = join(dir, 'anime-latin1.ndjson');
    writeFileSync(ndjson, Buffer.concat([good, Buffer.from('\n'), latin1, Buffer.from('\n'), Buffer.from(JSON.stringify(anime[2])), Buffer.from('\n')]));
    const out = join(dir, 'latin1.json');
    const lines = await runCli(['import', ndjson, '--store', 'memory-snapshot', '--out', out]);
    expect(lines.code).toBe(1);
    const offset = good.length + 1 + at + 3;
    expect(lines.stderr).toContain(`rejected line 2: not UTF-8: byte ${offset} of the file (${at + 3} of the line) is 0xe9\n`);
    expect(lines.stderr).toMatch(/2 of 3 records imported .*, 1 rejected\n$/);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime.map((a) => a.mal_id)).toEqual([anime[0]!.mal_id, anime[2]!.mal_id]);

    const document = join(dir, 'anime-latin1.json');
    writeFileSync(document, Buffer.concat([Buffer.from('['), good, Buffer.from(','), latin1, Buffer.from(']')]));
    const other = join(dir, 'latin1-document.json');
    const whole = await runCli(['import', document, '--store', 'memory-snapshot', '--out', other]);
    expect(whole.code).toBe(4);
    expect(whole.stderr).toContain(`${document} is not UTF-8: byte ${1 + good.length + 1 + at + 3} is 0xe9`);
    expect(whole.stderr).toMatch(/Nothing was imported\.\n$/);
    expect(() => readFileSync(other)).toThrow(/ENOENT/);
  }, 60_000);

  it('rejects a line over 16 MiB without holding it, and imports the lines around it (exit 1)', async () => {
    const file = join(dir, 'anime-long-line.ndjson');
    const fd = openSync(file, 'w');
    writeSync(fd, `${JSON.stringify(anime[0])}\n`);
    writeSync(fd, `{"mal_id": 1, "title": "`);
    const block = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 17; i++) writeSync(fd, block);
    writeSync(fd, `"}\n${JSON.stringify(anime[1])}\n`);
    closeSync(fd);
    const out = join(dir, 'long-line.json');
    const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rejected line 2: line is 17.0 MiB, longer than the 16 MiB a record may have');
    expect(result.stderr).toMatch(/2 of 3 records imported .*, 1 rejected/);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { anime: Anime[] }).anime.map((a) => a.mal_id)).toEqual([anime[0]!.mal_id, anime[1]!.mal_id]);
  }, 60_000);

  it('exits 2 for a FILE that is a directory or a device, naming it, before reading anything', async () => {
    const folder = join(dir, 'anime-folder');
    mkdirSync(folder);
    for (const file of [folder, '/dev/zero']) {
      const result = await runCli(['import', file, '--store', 'memory-snapshot', '--out', join(dir, 'none.json'), '--resource', 'anime']);
      expect(result.code, file).toBe(2);
      expect(result.stderr, file).toContain(`FILE "${file}" is not a regular file`);
    }
  }, 60_000);

  it('exits 4, importing nothing, for a JSON document that does not parse or is over 64 MiB', async () => {
    const out = join(dir, 'unreadable.json');
    const broken = write('anime-broken.json', [`[${JSON.stringify(anime[0])},`, '{"mal_id": ']);
    const result = await runCli(['import', broken, '--store', 'memory-snapshot', '--out', out]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/anime-broken\.json is not valid JSON: .*\nNothing was imported\.\n$/);

    const huge = join(dir, 'anime-huge.json');
    const fd = openSync(huge, 'w');
    const line = `${JSON.stringify(anime[0])},\n`;
    const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length));
    for (let i = 0; i < 65; i++) writeSync(fd, i === 0 ? `[${chunk}` : chunk);
    writeSync(fd, `${JSON.stringify(anime[0])}]`);
    closeSync(fd);
    const big = await runCli(['import', huge, '--store', 'memory-snapshot', '--out', out]);
    expect(big.code).toBe(4);
    expect(big.stderr).toContain('documents are read whole up to 64 MiB');
    expect(big.stderr).toContain(`jq -c '.[]' (or '.data[]') ${huge} > records.ndjson`);
    expect(() => readFileSync(out)).toThrow(/ENOENT/);
  }, 60_000);
});

/**
 * A TCP proxy to PostgreSQL that, once armed, cuts every connection through it as the client next
 * sends something (mid-write, where the driver used to crash), and refuses new ones.
 */
async function startProxy(target: URL): Promise<{ url: string; armCut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let armed = false;
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) return void client.destroy();
    client.on('data', () => {
      if (!armed || cut) return;
      cut = true;
      for (const socket of sockets) socket.destroy();
    });
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.href,
    armCut() {
      armed = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!url)('catalogue-api import --store postgres: bad records and a lost database', () => {
  let sql: Sql;
  const schema = `pgseam_import_bad_${Math.random().toString(36).slice(2, 10)}`;
  const db = (s: string, via = url!) => ['--store', 'postgres', '--database-url', via, '--schema', s];
  const ids = async (s: string) =>
    (await sql<{ mal_id: number }[]>`select mal_id from ${sql(`${s}.anime`)} order by mal_id`).map((r) => r.mal_id);

  beforeAll(() => {
    sql = postgres(url!, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    for (const s of [schema, `${schema}_refused`, `${schema}_cut`, `${schema}_repeated`]) await sql?.unsafe(`drop schema if exists "${s}" cascade`);
    await sql?.end({ timeout: 5 });
  });

  it('rejects what PostgreSQL cannot store with its line, imports the batches around it, and a re-run ends the same (exit 1)', async () => {
    const { file, valid } = unstorable();
    // Batches of 4: each bad record shares its batch with good ones, which must still be imported.
    expectUnstorableRejected(await runCli(['import', file, ...db(schema), '--batch-size', '4']));
    expect(await ids(schema)).toEqual([...valid].sort((a, b) => a - b));
    expectUnstorableRejected(await runCli(['import', file, ...db(schema), '--batch-size', '4']));
    expect(await ids(schema)).toEqual([...valid].sort((a, b) => a - b));
  }, 60_000);

  it('rejects a record PostgreSQL refuses on write (a title too long to index) with its line, keeping the rest of its batch (exit 1)', async () => {
    const records = anime.slice(0, 6).map((a) => structuredClone(a));
    // Random text does not compress below the B-tree's limit of a key (about 2.7 kB).
    records[2]!.title = randomBytes(3000).toString('base64');
    const file = write('anime-long-title.ndjson', records.map((r) => JSON.stringify(r)));
    const target = `${schema}_refused`;
    const result = await runCli(['import', file, ...db(target), '--batch-size', '10']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rejected line 3: the store refused it: index row size \d+ exceeds/);
    expect(result.stderr).toMatch(/5 of 6 records imported .*, 1 rejected/);
    expect(await ids(target)).toEqual(records.filter((_, i) => i !== 2).map((r) => r.mal_id).sort((a, b) => a - b));
  }, 60_000);

  it('stores the last of the records repeating an id and reports them as duplicates (exit 0)', async () => {
    const target = `${schema}_repeated`;
    const file = write('anime-repeated-pg.ndjson', [0, 1, 2].map((i) => JSON.stringify({ ...anime[0], title: `Copy ${i}` })));
    const result = await runCli(['import', file, ...db(target)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/1 of 3 records imported .*, 0 rejected, 2 duplicates of an id already in this input \(the last one of each id is kept\)\n$/);
    const rows = await sql<{ title: string }[]>`select record->>'title' as title from ${sql(`${target}.anime`)}`;
    expect(rows.map((r) => r.title)).toEqual(['Copy 2']);
  }, 60_000);

  it('exits 3 when the connection is cut mid-import, keeping whole batches only, and a re-run completes it', async () => {
    const target = `${schema}_cut`;
    const store = createPostgresStore({ sql, schema: target });
    await store.migrate();
    // 2,330 records (the demo set five times over, with new ids), 10 per batch.
    const records = [0, 1, 2, 3, 4].flatMap((copy) => anime.map((a) => ({ ...a, mal_id: a.mal_id + copy * 1_000_000 })));
    const file = write('anime-cut.ndjson', records.map((a) => JSON.stringify(a)));
    // Three times: the driver's failure mode on a cut connection varies from run to run.
    for (let attempt = 0; attempt < 3; attempt++) {
      await sql.unsafe(`truncate "${target}".anime cascade`);
      const proxy = await startProxy(new URL(url!));
      try {
        const child = startCli(['import', file, ...db(target, proxy.url), '--batch-size', '10']);
        let exited = false;
        const done = cliFinished(child).finally(() => (exited = true));
        while (!exited && (await store.count('anime')) < 30) await new Promise((r) => setTimeout(r, 5));
        proxy.armCut();
        const result = await done;
        expect(result.code, result.stderr).toBe(3);
        expect(result.stderr).toMatch(/import interrupted after \d+ committed batch\(es\) \(\d+ records\)/);
        expect(result.stderr).toContain('re-running the same command finishes the import');
        expect(result.stderr).not.toMatch(/\n\s+at /);
        const count = await store.count('anime');
        expect(count % 10 === 0 || count === records.length).toBe(true);
        expect(new Set(await ids(target))).toEqual(new Set(records.slice(0, count).map((a) => a.mal_id)));
      } finally {
        await proxy.close();
      }
    }
    const rerun = await runCli(['import', file, ...db(target), '--batch-size', '500']);
    expect(rerun.code).toBe(0);
    expect(await store.count('anime')).toBe(records.length);
  }, 120_000);
});
