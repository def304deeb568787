/**
 * The importer takes Jikan v4 bodies through core's mapping: a `/full` record keeps its parts, a
 * sub-resource response imports with `--request` or as NDJSON `{ request, body }` lines, deleted
 * ids remove their entries, and what a file holds is told from its records (with a hint when a
 * record is something else). Runs the real CLI into memory snapshots.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@catalogue-api/core';
import type { AnimeCharacter, AnimeFull } from '@catalogue-api/core/schemas';
import type { CatalogueData } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { answersOf } from '@catalogue-api/testkit';
import { detectResource } from '../src/import.js';
import { parseRequest } from '../src/resources.js';
import { CLI_COMMAND, runCli } from './cli.js';
import { suiteDatabase } from './suite-database.js';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-import-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const snapshotOf = (out: string) => JSON.parse(readFileSync(out, 'utf8')) as CatalogueData;
const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};
const source = answersOf(createMemoryStore(demoData));
/** The `data` of a 200 answer of the demo catalogue (`undefined` for a 404). */
const sourceData = async <T = any>(target: string) => (await source<T>(target))?.data;

describe('catalogue-api import of Jikan bodies', () => {
  it('keeps the relations, theme, external and streaming parts of /full records, and serves them back', async () => {
    const out = join(dir, 'full.json');
    // The entries a relation points at are there first, as a catalogue would hold them; anime 20 and the parts of /full are not.
    const without = { anime: demoData.anime!.filter((a) => a.mal_id !== 20), relations: [], themes: [], external: [], streaming: [], moreinfo: [] };
    writeFileSync(out, JSON.stringify({ ...demoData, ...without }));
    const full = await sourceData<AnimeFull>('/v1/anime/20/full');
    expect(full!.relations.length + full!.streaming.length + full!.external.length).toBeGreaterThan(0);
    const result = await runCli(['import', write('anime-full.json', { data: [full] }), '--store', 'memory-snapshot', '--out', out]);
    expect(result.stderr).toMatch(/anime: 1 of 1 records imported/);
    expect(result.code).toBe(0);
    const served = await answersOf(createMemoryStore(snapshotOf(out)))('/v1/anime/20/full');
    expect(served!.data).toEqual(full);
    const again = await runCli(['import', join(dir, 'anime-full.json'), '--store', 'memory-snapshot', '--out', out]);
    expect(again.stderr).toMatch(/1 already stored as they are/);
  }, 60_000);

  it('imports a sub-resource response with --request, and NDJSON lines { request, body }, the owner from the request', async () => {
    const out = join(dir, 'parts.json');
    const anime20 = demoData.anime!.find((a) => a.mal_id === 20)!;
    const cast = await sourceData<AnimeCharacter[]>('/v1/anime/20/characters');
    expect(cast!.length).toBeGreaterThan(0);
    const one = await runCli(['import', write('cast.json', { data: cast }), '--request', '/anime/20/characters', '--store', 'memory-snapshot', '--out', out]);
    expect(one.stderr).toMatch(/requests: 1 of 1 records imported/);
    expect(one.code).toBe(0);
    const lines = [
      { request: 'https://api.jikan.moe/v4/anime/20/full', body: { data: anime20 } },
      { request: '/anime/20/staff', body: await source('/v1/anime/20/staff') },
      { request: '/anime/20/themes', body: await source('/v1/anime/20/themes') },
      { request: '/anime/20/spaceships', body: { data: [] } },
      { request: '/anime/20/statistics', body: { data: { watching: -1 } } },
    ];
    const many = await runCli(['import', write('responses.ndjson', lines.map((l) => JSON.stringify(l)).join('\n')), '--store', 'memory-snapshot', '--out', out]);
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/rejected line 4: request: "\/anime\/20\/spaceships" names no part/);
    expect(many.stderr).toMatch(/rejected line 5: animeStatistics\.0\.completed: /);
    const served = answersOf(createMemoryStore(snapshotOf(out)));
    expect((await served<AnimeCharacter[]>('/v1/anime/20/characters'))!.data.map((c) => c.character.mal_id).sort()).toEqual(cast!.map((c) => c.character.mal_id).sort());
    for (const part of ['staff', 'themes']) expect(await served(`/v1/anime/20/${part}`), part).toEqual(await source(`/v1/anime/20/${part}`));
  }, 60_000);

  it('tells characters from anime by the records, not the file name, and hints when told wrong', async () => {
    const out = join(dir, 'characters.json');
    const characters = demoData.characters!.slice(0, 3);
    const file = write('character-objects.json', { data: characters });
    expect(await detectResource(file)).toEqual({ resource: 'characters' });
    const detected = await runCli(['import', file, '--store', 'memory-snapshot', '--out', out]);
    expect(detected.stderr).toMatch(/characters: 3 of 3 records imported/);
    expect(detected.code).toBe(0);
    const told = await runCli(['import', file, '--resource', 'anime', '--store', 'memory-snapshot', '--out', out]);
    expect(told.code).toBe(1);
    expect(told.stderr).toMatch(/rejected index 0: .*\(it is a valid characters record: pass --resource characters\)/);
    const response = write('cast-response.json', await source('/v1/anime/20/characters'));
    const usage = await runCli(['import', response, '--store', 'memory-snapshot', '--out', out]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/holds a Jikan response of \/anime\/\{id\}\/characters.*pass --request/);
  }, 60_000);

  it('removes the entries of imported deleted ids with what they own, and lists them', async () => {
    const out = join(dir, 'deleted.json');
    writeFileSync(out, JSON.stringify(demoData));
    const result = await runCli(['import', write('deletedAnimeIds.json', [20, 999_999_1]), '--store', 'memory-snapshot', '--out', out]);
    expect(result.stderr).toMatch(/deletedAnimeIds: 2 of 2 records imported/);
    expect(result.code).toBe(0);
    const snapshot = snapshotOf(out);
    expect(snapshot.anime!.some((a) => a.mal_id === 20)).toBe(false);
    expect(snapshot.animeCharacters!.some((r) => r.anime_id === 20)).toBe(false);
    expect(snapshot.deletedAnimeIds).toEqual(expect.arrayContaining([20, 9_999_991]));
    expect(await answersOf(createMemoryStore(snapshot))('/v1/anime/20')).toBeUndefined();
  }, 60_000);

  it("lists every option of --help in the configuration guide's importer table", async () => {
    const guide = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const table = guide.slice(guide.indexOf('## The importer'), guide.indexOf('`catalogue-api --help`'));
    // The import command's part of --help: the other commands (delete, purge-cache) follow under their own usage lines.
    const all = spawnSync(CLI_COMMAND[0]!, [...CLI_COMMAND.slice(1), '--help'], { encoding: 'utf8' }).stdout;
    const help = all.slice(0, all.indexOf('usage: catalogue-api', 1) > 0 ? all.indexOf('usage: catalogue-api', 1) : undefined);
    const options = [...new Set(help.match(/^ {2}--[a-z-]+/gm) ?? [])].map((o) => o.trim());
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) expect(table, option).toContain(`| \`${option}\` |`);
  }, 60_000);

  it('reads the request of a response from a path or a URL', () => {
    expect(parseRequest('/anime/20/characters')).toEqual({ kind: 'anime', id: 20, part: 'characters' });
    expect(parseRequest('https://api.jikan.moe/v4/manga/2/relations?page=1')).toEqual({ kind: 'manga', id: 2, part: 'relations' });
    expect(parseRequest('/v1/anime/20')).toEqual({ kind: 'anime', id: 20, part: 'full' });
    expect(parseRequest('/manga/2/staff')).toBeUndefined();
    expect(parseRequest('/people/2/full')).toBeUndefined();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('catalogue-api import of Jikan bodies --store postgres', () => {
  const { fresh } = suiteDatabase('pgseam_b_mapping_bodies', 2);

  it('writes /full parts and responses through the record writer, writes nothing for an equal record, and removes deleted ids', async () => {
    const store = await fresh();
    const into = ['--store', 'postgres', '--database-url', process.env.DATABASE_URL!, '--schema', store.schema];
    const without = demoData.anime!.filter((a) => a.mal_id !== 20);
    expect((await runCli(['import', write('pg-anime.ndjson', without.map((a) => JSON.stringify(a)).join('\n')), ...into])).code).toBe(0);
    expect((await runCli(['import', write('pg-manga.ndjson', demoData.manga!.map((m) => JSON.stringify(m)).join('\n')), ...into])).code).toBe(0);
    const full = await sourceData('/v1/anime/20/full');
    const first = await runCli(['import', write('pg-full.json', { data: [full] }), ...into]);
    expect(first.code).toBe(0);
    const get = answersOf(store);
    expect((await get('/v1/anime/20/full'))!.data).toEqual(full);
    const updated = await store.get('updates', 'anime:20');
    expect(updated).toBeDefined();
    const again = await runCli(['import', join(dir, 'pg-full.json'), ...into]);
    expect(again.stderr).toMatch(/1 already stored as they are/);
    expect(await store.get('updates', 'anime:20')).toEqual(updated);
    const deleted = await runCli(['import', write('deletedAnimeIds-pg.json', [20]), ...into]);
    expect(deleted.code).toBe(0);
    expect(await store.get('anime', 20)).toBeUndefined();
    expect(await store.query('relations', { where: [{ field: 'owners', op: 'has', value: 'anime:20' }], offset: 0, limit: 10 })).toMatchObject({ total: 0 });
    expect((await get<number[]>('/v1/anime/deleted'))!.data).toContain(20);
  }, 120_000);
});
