/**
 * A newcomer's first day, scripted: a fresh copy of the tracked files (no build, no `node_modules`),
 * the README's commands in a shell as a user types them (`npm ci`, `npm start --silent`, the
 * importer through `npx catalogue-api`), and the records of `test/fixtures/jikan-v4` (real Jikan v4
 * responses) imported while the server runs: from memory with `DATA`, and into PostgreSQL with the
 * server already serving, where they must be served at once. Only files of the repository are used.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { DATABASE_URL } = process.env;
const fixture = JSON.parse(readFileSync(join(root, 'test/fixtures/jikan-v4/anime.json'), 'utf8')) as { data: Array<{ mal_id: number; title: string }> };
const [first] = fixture.data;

/** A shell command in the copy, as a user types it; its environment without the test run's settings. */
function shell(dir: string, command: string, env: Record<string, string> = {}): { status: number | null; out: string } {
  const result = spawnSync('bash', ['-c', command], { cwd: dir, env: userEnv(env), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** The environment a newcomer has: no suite variables (DATABASE_URL, REDIS_URL), a few of their own. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'DATABASE_SCHEMA', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS']) delete base[name];
  return { ...base, ...env };
}

/** `npm start --silent` in a process group of its own, once it has printed its URL. */
async function npmStart(dir: string, env: Record<string, string>): Promise<{ url: string; stdout: () => string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn('bash', ['-c', 'npm start --silent'], { cwd: dir, env: userEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  let url: string | undefined;
  while (!(url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stdout)?.[1])) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not listen:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stdout: () => stdout,
    async stop() {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { data?: unknown } };
};

describe('a newcomer, from a fresh copy of the tracked files and the README', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalogue-newcomer-'));
    const files = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(root, file), join(dir, file));
    }
    // The README's first command; packages come from npm's cache when it holds them.
    const install = shell(dir, 'npm ci --prefer-offline --no-audit --no-fund');
    expect(install.status, install.out).toBe(0);
    expect(install.out).not.toMatch(/npm warn deprecated/);
  }, 900_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('npm start --silent serves the demo, and writes only JSON lines with pino\'s fields on stdout', async () => {
    const server = await npmStart(dir, { RATE_LIMIT: 'off' });
    try {
      const naruto = await get(`${server.url}/v1/anime/20`);
      expect(naruto.status).toBe(200);
    } finally {
      await server.stop();
    }
    const lines = server.stdout().trimEnd().split('\n');
    for (const line of lines) expect(JSON.parse(line), line).toMatchObject({ level: 30, time: expect.any(Number), pid: expect.any(Number), hostname: expect.any(String), msg: expect.any(String) });
    expect(lines.some((line) => line.includes('"path":"/v1/anime/20"'))).toBe(true);
  });

  it('imports real Jikan records into a snapshot and serves them with DATA, the demo left out', async () => {
    const imported = shell(dir, 'npx catalogue-api import test/fixtures/jikan-v4/anime.json --store memory-snapshot --out snapshot.json');
    expect(imported.status, imported.out).toBe(0);
    const server = await npmStart(dir, { DATA: 'snapshot.json', RATE_LIMIT: 'off' });
    try {
      const mine = await get(`${server.url}/v1/anime/${first!.mal_id}`);
      expect(mine.status).toBe(200);
      expect(mine.body.data).toMatchObject({ mal_id: first!.mal_id, title: first!.title });
      const list = await get(`${server.url}/v1/anime?limit=25`);
      expect((list.body.data as unknown[]).length).toBe(fixture.data.length);
    } finally {
      await server.stop();
    }
  });

  describe.skipIf(!DATABASE_URL)('on PostgreSQL, importing while the server runs', () => {
    const schema = `newcomer_f_operator_${Math.random().toString(36).slice(2, 10)}`;
    let sql: postgres.Sql;
    beforeAll(() => void (sql = postgres(DATABASE_URL!, { max: 1, onnotice: () => undefined })));
    afterAll(async () => {
      await sql.unsafe(`drop schema if exists "${schema}" cascade`);
      await sql.end();
    });

    it('serves nothing unasked, then the imported records at once', async () => {
      const server = await npmStart(dir, {
        DATABASE_URL: DATABASE_URL!,
        DATABASE_SCHEMA: schema,
        RATE_LIMIT: 'off',
      });
      try {
        // Never seeded unasked: no demo records mixed into the user's catalogue.
        expect((await get(`${server.url}/v1/anime/20`)).status).toBe(404);
        expect(server.stdout()).toContain(`PostgreSQL schema ${schema} holds no anime`);
        const search = `${server.url}/v1/anime?q=${encodeURIComponent(first!.title)}`;
        expect((await get(search)).body.data).toEqual([]);
        expect((await get(`${server.url}/v1/anime/${first!.mal_id}`)).status).toBe(404);

        const imported = shell(dir, `npx catalogue-api import test/fixtures/jikan-v4/anime.json --store postgres --schema ${schema}`, { DATABASE_URL: DATABASE_URL! });
        expect(imported.status, imported.out).toBe(0);
        expect(imported.out).toContain(`${fixture.data.length} of ${fixture.data.length} records imported`);

        // At once, with the response cache on: the store's change feed tells the running server of the
        // import's commit (NOTIFY; a 1 s poll is the fallback, hence the bound).
        await expect.poll(async () => (await get(`${server.url}/v1/anime/${first!.mal_id}`)).status, { timeout: 1_500, interval: 50 }).toBe(200);
        const mine = await get(`${server.url}/v1/anime/${first!.mal_id}`);
        expect(mine.status).toBe(200);
        expect(mine.body.data).toMatchObject({ mal_id: first!.mal_id, title: first!.title });
        expect((await get(search)).body.data).toEqual(expect.arrayContaining([expect.objectContaining({ mal_id: first!.mal_id })]));

        // And out again: the delete command, then the record is gone at once.
        const deleted = shell(dir, `npx catalogue-api delete --resource anime ${first!.mal_id} --schema ${schema}`, { DATABASE_URL: DATABASE_URL! });
        expect(deleted.status, deleted.out).toBe(0);
        await expect.poll(async () => (await get(`${server.url}/v1/anime/${first!.mal_id}`)).status, { timeout: 1_500, interval: 50 }).toBe(404);
      } finally {
        await server.stop();
      }
    });
  });
});
