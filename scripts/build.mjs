#!/usr/bin/env node
/**
 * Builds workspaces and the workspaces they depend on, in dependency order, skipping each one whose
 * build is newer than its inputs.
 *
 * ```
 * node scripts/build.mjs [--force] [DIR…]
 * ```
 *
 * DIR is a workspace folder (`packages/core`, `examples/bun`, `.` for the current one); without one,
 * every package under `packages/`. A workspace is up to date when every file its `package.json`
 * points into `dist/` (exports, main, module, types, bin) exists and the oldest of them is newer than
 * the newest of its inputs: every file of the workspace except `dist/`, `node_modules/`, tests and
 * docs, plus the shared `tsup.base.ts` and `tsconfig.base.json`. Only a workspace's own inputs count:
 * tsup leaves the other workspaces' code and types outside its `dist/` (they are dependencies), so a
 * change in `core` rebuilds `core` alone. `--force` builds every selected workspace regardless.
 *
 * Used by `npm run start:bun`, `npm run start:deno` and each package's `prepack` (so that `npm pack`
 * and `npm publish` from a fresh clone ship a built `dist/`). Prints one line per workspace: built or
 * up to date.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);
const force = args.includes('--force');
const asked = args.filter((a) => !a.startsWith('--'));

/** Every workspace of the root package.json (`packages/*`, `examples/*`), by name. */
const workspaces = new Map();
for (const pattern of JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces) {
  const parent = join(root, pattern.replace(/\/\*$/, ''));
  for (const name of readdirSync(parent)) {
    const dir = join(parent, name);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    workspaces.set(manifest.name, { dir, manifest });
  }
}
const byDir = new Map([...workspaces.values()].map((w) => [w.dir, w]));

const targets = asked.length ? asked.map((a) => resolve(a)) : [...byDir.keys()].filter((dir) => relative(root, dir).startsWith('packages'));
/** Workspaces to consider, dependencies before dependents. */
const order = [];
const visit = (dir, from) => {
  const ws = byDir.get(dir);
  if (!ws) throw new Error(`${relative(root, dir) || '.'} is not a workspace of ${root}${from ? ` (needed by ${from})` : ''}`);
  if (order.includes(ws)) return;
  const { dependencies = {}, peerDependencies = {}, devDependencies = {} } = ws.manifest;
  for (const name of Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })) {
    if (workspaces.has(name)) visit(workspaces.get(name).dir, ws.manifest.name);
  }
  order.push(ws);
};
for (const dir of targets) visit(dir);

/** Files under `dir` that a build reads: not its output, installed modules, tests or docs. */
function inputs(dir) {
  const skip = new Set(['dist', 'node_modules', 'test', '.turbo']);
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(path);
      } else if (!/\.test\.[cm]?[jt]sx?$|\.md$|^LICENSE$|^vitest\.config\.|^typedoc\.json$/.test(entry.name)) {
        out.push(path);
      }
    }
  };
  walk(dir);
  return [...out, join(root, 'tsup.base.ts'), join(root, 'tsconfig.base.json')];
}

/** The built files a workspace's package.json promises, or null when it promises none. */
function outputs({ dir, manifest }) {
  const found = new Set();
  const collect = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') || value.startsWith('dist/')) found.add(join(dir, value));
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(collect);
    }
  };
  collect([manifest.exports, manifest.main, manifest.module, manifest.types, manifest.bin]);
  if (found.size === 0 && existsSync(join(dir, 'dist'))) {
    for (const name of readdirSync(join(dir, 'dist'))) found.add(join(dir, 'dist', name));
  }
  return [...found];
}

/** Why `ws` needs a build, or '' when its build is newer than its inputs. */
function staleness(ws) {
  const built = outputs(ws);
  if (built.length === 0) return 'no dist/';
  const missing = built.find((file) => !existsSync(file));
  if (missing) return `${relative(ws.dir, missing)} missing`;
  const oldest = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const newer = inputs(ws.dir).find((file) => existsSync(file) && statSync(file).mtimeMs > oldest);
  return newer ? `${relative(root, newer)} changed` : '';
}

for (const ws of order) {
  const label = relative(root, ws.dir);
  if (!ws.manifest.scripts?.build) continue; // e.g. examples/bun: runs its dependencies' builds
  const why = force ? 'forced' : staleness(ws);
  if (!why) {
    console.log(`build: ${label} up to date`);
    continue;
  }
  console.log(`build: ${label} (${why})`);
  const run = spawnSync(npm, ['run', 'build', '--silent'], { cwd: ws.dir, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`build: ${label} failed`);
    process.exit(run.status ?? 1);
  }
}
