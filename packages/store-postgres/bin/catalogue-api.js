#!/usr/bin/env node
/**
 * The `catalogue-api` command: runs the importer CLI (`src/cli.ts`, built to `dist/cli.js`).
 *
 * This file, not `dist/cli.js`, is the package's bin because npm links a bin only if its file exists
 * when the package is installed. In a fresh clone `npm ci` links the workspaces before anything is
 * built, so a bin pointing into `dist/` would be left unlinked, and `npx catalogue-api` would then
 * ask the registry for a package of that name. This file is committed, so it is always linked.
 *
 * An installed package has `dist/` (`prepack` builds it) and no sources: it runs `dist/cli.js`. In a
 * clone of the repository it runs the TypeScript sources, built or not, so that the command always
 * does what the code says: through tsx (a dev dependency of the repository) with the root
 * tsconfig.json, whose `paths` map `@catalogue-api/*` to the other packages' sources.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli.js', import.meta.url);
const sources = new URL('../src/cli.ts', import.meta.url);
const tsconfig = new URL('../../../tsconfig.json', import.meta.url);

if (existsSync(sources) && existsSync(tsconfig)) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(tsconfig) });
  await import(sources.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  console.error('catalogue-api: dist/cli.js is missing; build the package (npm run build -w packages/store-postgres).');
  process.exitCode = 3;
}
