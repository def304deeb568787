/**
 * Every publishable package as npm would publish it: `npm pack` it, check the tarball's contents,
 * lint it with publint and @arethetypeswrong/cli, install all the tarballs into a fresh project
 * (third-party dependencies from the registry) and serve the catalogue from that install on Node,
 * through ESM and CommonJS, on Bun and on Deno. Packs what `npm run build` last built (`npm test` builds first).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from '@catalogue-api/testkit';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Manifest {
  name: string;
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

// The fresh project gets zod, itty-router, postgres, redis… from the registry. Without one there is
// nothing to install into, so the suite is skipped, and says so in its name.
const registryUp = spawnSync(npm, ['ping'], { timeout: 30_000, stdio: 'ignore' }).status === 0;

describe('the package manifests', () => {
  it('lists the eight packages, none private', () => {
    expect(publishable.map((p) => p.name).sort()).toEqual([
      '@catalogue-api/adapter-bun',
      '@catalogue-api/adapter-deno',
      '@catalogue-api/adapter-node',
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

describe.skipIf(!registryUp)(`packed, installed and served${registryUp ? '' : ' (skipped: the npm registry is unreachable)'}`, () => {
  let work = '';
  let project = '';
  const packed = new Map<string, { tarball: string; files: string[] }>();

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'catalogue-api-pack-'));
    for (const pkg of publishable) {
      const out = execFileSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: pkg.dir, encoding: 'utf8' });
      const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
      packed.set(pkg.name, { tarball: join(work, info!.filename), files: info!.files.map((f) => f.path) });
    }
    project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }));
    const tarballs = [...packed.values()].map((p) => p.tarball);
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: project, stdio: 'pipe' });
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('each tarball holds package.json, README.md, LICENSE and dist/ only (plus demo-data NOTICE.md)', () => {
    for (const [name, { files }] of packed) {
      const extra = name === '@catalogue-api/demo-data' ? ['NOTICE.md'] : [];
      const outside = files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE', ...extra].includes(f));
      expect(outside, name).toEqual([]);
      expect(files, name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']));
      expect(files.filter((f) => /\.test\.|\/src\//.test(f)), name).toEqual([]);
    }
  });

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
      const run = spawnSync(process.execPath, [attw, tarball, '--format', 'ascii', '--no-color'], { encoding: 'utf8' });
      expect(run.status, `${name}\n${run.stdout}${run.stderr}`).toBe(0);
    }
  });

  it('Node (ESM): serve(createCatalogueApp({ store: createMemoryStore(demoData) })) answers /v1/anime and /v1/openapi.json', async () => {
    writeFileSync(join(project, 'server.js'), serverSource('adapter-node'));
    const server = await spawnServer({ command: process.execPath, args: ['server.js'], cwd: project });
    try {
      const list = await fetch(`${server.url}/v1/anime?limit=1`);
      expect(list.status).toBe(200);
      const body = (await list.json()) as { data: Array<{ mal_id: number }>; pagination: { items: { count: number } } };
      expect([body.data.length, body.pagination.items.count]).toEqual([1, 1]);
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

  it('the importer CLI runs from its installed bin', () => {
    const out = execFileSync(join(project, 'node_modules/.bin/catalogue-api'), ['--help'], { encoding: 'utf8' });
    expect(out).toMatch(/usage: catalogue-api import/);
  });
});
