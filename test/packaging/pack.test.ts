/**
 * Every publishable package as a new user gets it, starting from a fresh clone: a copy of the files
 * git would commit (no dist/, no node_modules), `npm ci` there, then the commands the docs give:
 * the importer through `npx` before anything is built, `npm pack --workspace packages` (which builds
 * through each package's `prepack`), the tarballs installed into an empty project, the importer and
 * the getting-started example run from that install, on Node (ESM and CommonJS), Bun and Deno.
 * Also: publint and @arethetypeswrong/cli on each tarball, the incremental build of
 * `npm run start:bun`, and the release steps (`npx changeset version`, `npm publish --dry-run`).
 *
 * No step may ask the registry for one of this project's own package names: the clone's and the
 * project's `.npmrc` point the `@catalogue-api` scope at a closed port, and `npx` runs with the
 * registry itself pointed there. Third-party packages come from the npm cache, or the registry.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from '@catalogue-api/testkit';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import postgres from 'postgres';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  sideEffects?: boolean;
  files?: string[];
  exports?: Record<string, unknown>;
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const publishable = readdirSync(join(root, 'packages'))
  .map((name) => ({ dir: join(root, 'packages', name), ...manifest(join(root, 'packages', name)) }))
  .filter((pkg) => !pkg.private);

/** A user's server file: the demo catalogue on a free port, printing its URL. */
const serverSource = (adapter: string) =>
  [
    `import { serve } from '@catalogue-api/${adapter}';`,
    "import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';",
    "import { demoData } from '@catalogue-api/demo-data';",
    'const server = await serve(createCatalogueApp({ store: createMemoryStore(demoData) }), { port: 0 });',
    'console.log(server.url);',
  ].join('\n');

/**
 * The records the importer is run on: real Jikan v4 records, a list response of nine anime as Jikan
 * serves them (test/fixtures/jikan-v4/README.md says where they come from). To run it on another
 * file, point `file` at it and set `resource` and `records` to match.
 */
const IMPORT_FIXTURE = { file: join(root, 'test/fixtures/jikan-v4/anime.json'), resource: 'anime', records: 9 };

/** A registry URL where nothing listens: any request for it fails at once. */
const CLOSED = 'http://127.0.0.1:9/';

/** The text of `// #region name` … `// #endregion name` in a file, dedented (as the docs show it). */
function region(file: string, name: string): string {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${name}`);
  if (start < 0 || end < 0) throw new Error(`${file} has no region "${name}"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(indent)).join('\n');
}

/** The lines of the fenced block under `<!-- marker -->` in a page. */
function block(page: string, marker: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const found = text.match(new RegExp(`<!-- ${marker} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``));
  if (!found) throw new Error(`${page} has no block under <!-- ${marker} -->`);
  return found[1]!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

/** How docs/deploying.md runs the importer: the words before `import` (`npx @catalogue-api/store-postgres`). */
const importer = block('docs/deploying.md', 'command: importer')[0]!.split(' import ')[0]!.split(/\s+/);
const tarballSteps = block('docs/getting-started.md', 'install: tarballs');
/** getting-started.md's pack command (after `mkdir ../tarballs &&`). */
const packCommand = tarballSteps.find((line) => line.includes('npm pack'))!.split('&&').pop()!.trim().split(/\s+/);
/** The tarballs getting-started.md installs, relative to the new project. */
const installLine = tarballSteps.find((line) => line.startsWith('npm install '))!.split(/\s+/).slice(2);

/** Copies the files git would commit from this checkout (tracked, or new and not ignored): no dist/, no node_modules. */
function freshClone(to: string) {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0');
  for (const file of files.filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file));
  }
}

/** Runs a command to the end; stdout and stderr together. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

// The clone and the fresh project get zod, itty-router, postgres, redis… from the npm cache or the
// registry. Without a registry there is nothing to install into, so the suite is skipped, and says so in its name.
const registryUp = spawnSync(npm, ['ping'], { timeout: 30_000, stdio: 'ignore' }).status === 0;

describe('the package manifests', () => {
  it('lists the nine packages, none private', () => {
    expect(publishable.map((p) => p.name).sort()).toEqual([
      '@catalogue-api/adapter-bun',
      '@catalogue-api/adapter-deno',
      '@catalogue-api/adapter-node',
      '@catalogue-api/api-reference',
      '@catalogue-api/core',
      '@catalogue-api/demo-data',
      '@catalogue-api/redis',
      '@catalogue-api/store-postgres',
      '@catalogue-api/testkit',
    ]);
  });

  it.each(publishable.map((p) => [p.name, p] as const))('%s: sideEffects false, files, types-first exports, README and LICENSE', (_name, pkg) => {
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.files).toContain('dist');
    const entry = pkg.exports?.['.'] as Record<string, Record<string, string>>;
    for (const condition of ['import', 'require']) expect(Object.keys(entry[condition]!)[0]).toBe('types');
    expect(existsSync(join(pkg.dir, 'README.md'))).toBe(true);
    expect(readFileSync(join(pkg.dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
  });
});

describe.skipIf(!registryUp)(`from a fresh clone: packed, installed and served${registryUp ? '' : ' (skipped: the npm registry is unreachable)'}`, () => {
  let work = '';
  let clone = '';
  let project = '';
  let ciOutput = '';
  const packed = new Map<string, { tarball: string; files: string[] }>();
  const documentedTarballs: string[] = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'catalogue-api-pack-'));
    clone = join(work, 'catalogue-api');
    freshClone(clone);
    writeFileSync(join(clone, '.npmrc'), `@catalogue-api:registry=${CLOSED}\n`);
    const ci = run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], clone);
    ciOutput = ci.out;
    expect(ci.status, ci.out).toBe(0);
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('npm ci prints no EBADENGINE warning on this Node', () => {
    expect(ciOutput.split('\n').filter((line) => /EBADENGINE/.test(line))).toEqual([]);
  });

  it('before any build, the importer command of docs/deploying.md runs the clone’s own CLI, without the registry', () => {
    expect(existsSync(join(clone, 'packages/store-postgres/dist'))).toBe(false);
    const out = join(work, 'unbuilt-snapshot.json');
    const cli = run(importer[0]!, [...importer.slice(1), 'import', IMPORT_FIXTURE.file, '--store', 'memory-snapshot', '--resource', IMPORT_FIXTURE.resource, '--out', out], clone, {
      npm_config_registry: CLOSED,
    });
    expect(cli.status, cli.out).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown[]>)[IMPORT_FIXTURE.resource]).toHaveLength(IMPORT_FIXTURE.records);
  });

  it('npm pack --workspace packages, as docs/getting-started.md gives it, packs every package with its dist/', () => {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    // The clone sits in `work`, so the command's `../tarballs` is `work/tarballs`, as in the page.
    const pack = run(packCommand[0]!, packCommand.slice(1), clone);
    expect(pack.status, pack.out).toBe(0);
    for (const pkg of publishable) {
      const filename = `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz`;
      const tarball = join(tarballs, filename);
      expect(existsSync(tarball), `${filename}\n${pack.out}`).toBe(true);
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''));
      packed.set(pkg.name, { tarball, files });
    }
    documentedTarballs.push(...installLine.map((arg) => join(work, 'my-catalogue', arg)));
    for (const tarball of documentedTarballs) expect(existsSync(tarball), `getting-started.md installs ${tarball}`).toBe(true);
  }, 900_000);

  it('each tarball holds package.json, README.md, LICENSE and dist/ only (plus demo-data NOTICE.md, store-postgres bin/)', () => {
    for (const [name, { files }] of packed) {
      const extra = { '@catalogue-api/demo-data': ['NOTICE.md'], '@catalogue-api/store-postgres': ['bin/catalogue-api.js'] }[name] ?? [];
      const outside = files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE', ...extra].includes(f));
      expect(outside, name).toEqual([]);
      expect(files, name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', ...extra]));
      expect(files.filter((f) => /\.test\.|\/src\//.test(f)), name).toEqual([]);
    }
  });

  it('the tarballs install into an empty project, none of our names fetched from a registry', () => {
    project = join(work, 'my-catalogue');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-catalogue', private: true, type: 'module' }));
    writeFileSync(join(project, '.npmrc'), `@catalogue-api:registry=${CLOSED}\n`);
    const tarballs = [...packed.values()].map((p) => p.tarball);
    const install = run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], project);
    expect(install.status, install.out).toBe(0);
    for (const { name, version } of publishable) expect(manifest(join(project, 'node_modules', name)).version, name).toBe(version);
  }, 600_000);

  it('each installed package passes publint --strict', async () => {
    for (const { name } of publishable) {
      const pkgDir = join(project, 'node_modules', name);
      const pkg = manifest(pkgDir);
      const { messages } = await publint({ pkgDir, pack: false, strict: true });
      expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`), name).toEqual([]);
    }
  });

  it('each tarball passes @arethetypeswrong/cli (ESM and CJS, every resolution mode)', () => {
    const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    for (const [name, { tarball }] of packed) {
      const check = spawnSync(process.execPath, [attw, tarball, '--format', 'ascii', '--no-color'], { encoding: 'utf8' });
      expect(check.status, `${name}\n${check.stdout}${check.stderr}`).toBe(0);
    }
  });

  it('Node (ESM): the getting-started example serves from the install, and /v1/openapi.json too', async () => {
    writeFileSync(join(project, 'server.js'), region('docs/examples/getting-started.ts', 'server'));
    const server = await spawnServer({ command: process.execPath, args: ['server.js'], cwd: project });
    try {
      const search = await fetch(`${server.url}/v1/anime?q=bebop&limit=1`);
      expect(search.status).toBe(200);
      const body = (await search.json()) as { data: Array<{ title: string }>; pagination: { items: { count: number } } };
      expect(body.data[0]?.title).toMatch(/bebop/i);
      const openapi = await fetch(`${server.url}/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      const doc = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(doc.paths)).toContain('/v1/anime');
    } finally {
      await server.close();
    }
  });

  it('Node (CommonJS): require() of every package loads its CJS build', () => {
    const names = publishable.map((p) => p.name).filter((n) => n !== '@catalogue-api/testkit'); // testkit needs vitest's ESM-only runner
    writeFileSync(
      join(project, 'require.cjs'),
      [
        `for (const name of ${JSON.stringify(names)}) require(name);`,
        "const { createCatalogueApp, createMemoryStore } = require('@catalogue-api/core');",
        "const { demoData } = require('@catalogue-api/demo-data');",
        'const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: false });',
        "app.fetch(new Request('http://x/v1/anime/1')).then((r) => r.json()).then((b) => console.log(b.data.mal_id));",
      ].join('\n'),
    );
    expect(execFileSync(process.execPath, ['require.cjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe('1');
  });

  it('Bun: the Bun adapter serves from the installed packages', async () => {
    writeFileSync(join(project, 'server-bun.ts'), serverSource('adapter-bun'));
    const server = await spawnServer({ command: join(root, 'node_modules/.bin/bun'), args: ['server-bun.ts'], cwd: project });
    try {
      expect((await fetch(`${server.url}/v1/anime?limit=1`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('Deno: the Deno adapter serves from the installed packages (node_modules beside package.json)', async () => {
    writeFileSync(join(project, 'server-deno.ts'), serverSource('adapter-deno'));
    const server = await spawnServer({
      command: join(root, 'node_modules/.bin/deno'),
      args: ['run', '--allow-net', '--allow-env', '--allow-read', 'server-deno.ts'],
      cwd: project,
      timeoutMs: 60_000,
    });
    try {
      expect((await fetch(`${server.url}/v1/anime?limit=1`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('the importer command of docs/deploying.md runs the installed CLI: a memory snapshot that createMemoryStore loads', () => {
    const help = run(importer[0]!, [...importer.slice(1), '--help'], project, { npm_config_registry: CLOSED });
    expect(help.out).toMatch(/usage: catalogue-api import/);
    const cli = run(importer[0]!, [...importer.slice(1), 'import', IMPORT_FIXTURE.file, '--store', 'memory-snapshot', '--resource', IMPORT_FIXTURE.resource, '--out', 'snapshot.json'], project, {
      npm_config_registry: CLOSED,
    });
    expect(cli.status, cli.out).toBe(0);
    writeFileSync(
      join(project, 'load-snapshot.js'),
      [
        "import { readFileSync } from 'node:fs';",
        "import { createMemoryStore } from '@catalogue-api/core';",
        "const store = createMemoryStore(JSON.parse(readFileSync('snapshot.json', 'utf8')));",
        "const page = await store.query('anime', { offset: 0, limit: 25 });",
        'console.log(page.total);',
      ].join('\n'),
    );
    expect(execFileSync(process.execPath, ['load-snapshot.js'], { cwd: project, encoding: 'utf8' }).trim()).toBe(String(IMPORT_FIXTURE.records));
  });

  it.skipIf(!process.env.DATABASE_URL)('the installed importer loads PostgreSQL (needs DATABASE_URL)', async () => {
    const schema = `catalogue_pack_${Math.random().toString(36).slice(2, 10)}`;
    const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      const cli = run(importer[0]!, [...importer.slice(1), 'import', IMPORT_FIXTURE.file, '--store', 'postgres', '--resource', IMPORT_FIXTURE.resource, '--schema', schema], project, {
        npm_config_registry: CLOSED,
      });
      expect(cli.status, cli.out).toBe(0);
      const [row] = await sql.unsafe<Array<{ n: number }>>(`select count(*)::int as n from "${schema}".${IMPORT_FIXTURE.resource}`);
      expect(row?.n).toBe(IMPORT_FIXTURE.records);
    } finally {
      await sql.unsafe(`drop schema if exists "${schema}" cascade`);
      await sql.end();
    }
  }, 120_000);

  it('npm run start:bun builds only what changed: nothing after the pack, then the one package touched', () => {
    const before = run(npm, ['run', 'prestart:bun', '--silent'], clone);
    expect(before.status, before.out).toBe(0);
    const lines = (out: string) => out.split('\n').filter((line) => line.startsWith('build: '));
    expect(lines(before.out)).toEqual([
      'build: packages/core up to date',
      'build: packages/adapter-bun up to date',
      'build: packages/api-reference up to date',
      'build: packages/demo-data up to date',
    ]);
    const later = Date.now() / 1000 + 5;
    utimesSync(join(clone, 'packages/adapter-bun/src/index.ts'), later, later);
    const after = run(npm, ['run', 'prestart:bun', '--silent'], clone);
    expect(after.status, after.out).toBe(0);
    expect(lines(after.out)).toEqual([
      'build: packages/core up to date',
      'build: packages/adapter-bun (packages/adapter-bun/src/index.ts changed)',
      'build: packages/api-reference up to date',
      'build: packages/demo-data up to date',
    ]);
  }, 600_000);

  it('the release steps run on the clone: npm publish --dry-run of every package, then npx changeset version', () => {
    // A dry run still asks the registry whether the version exists; the scope's registry is closed, so
    // once, not npm's default three tries with back-off, then it carries on.
    const publish = run(npm, ['publish', '--dry-run', '--fetch-retries=0', '--workspace', 'packages'], clone);
    expect(publish.status, publish.out).toBe(0);
    for (const { name, version } of publishable) expect(publish.out).toContain(`${name}@${version}`);
    // changesets reads the commits that added each changeset, so the copy becomes a repository first.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.org', ...args], { cwd: clone, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'fresh clone');
    const env = { ...process.env };
    delete env.GITHUB_TOKEN;
    const version = spawnSync('npx', ['changeset', 'version'], { cwd: clone, encoding: 'utf8', env });
    expect(version.status, `${version.stdout}${version.stderr}`).toBe(0);
    const bumped = manifest(join(clone, 'packages/core'));
    expect(semver.gt(bumped.version, manifest(join(root, 'packages/core')).version)).toBe(true);
  }, 900_000);
});
