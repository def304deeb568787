/**
 * The versions the docs pin are the packages' versions: every `@catalogue-api/NAME@RANGE` (an npm or
 * `npm:` specifier) and every `catalogue-api-NAME-VERSION.tgz` tarball name in the READMEs, docs/ and
 * examples/deno/deno.json must match `packages/NAME/package.json`. After `npx changeset version`
 * this fails until the pages follow the new version.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const version = (name: string) => (JSON.parse(readFileSync(`${root}packages/${name}/package.json`, 'utf8')) as { version: string }).version;
const pages = [
  'README.md',
  'examples/deno/deno.json',
  ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...['packages', 'examples'].flatMap((dir) => readdirSync(`${root}${dir}`).map((p) => `${dir}/${p}/README.md`)),
].filter((page) => existsSync(`${root}${page}`));

it('every version of a package that the docs pin is the package’s version', () => {
  const wrong: string[] = [];
  let seen = 0;
  for (const page of pages) {
    const text = readFileSync(`${root}${page}`, 'utf8');
    for (const [, name, range] of text.matchAll(/@catalogue-api\/([a-z-]+)@([\^~<>=]*\d+\.\d+\.\d+[^\s"'`)/]*)/g)) {
      seen++;
      if (!semver.satisfies(version(name!), range!)) wrong.push(`${page}: @catalogue-api/${name}@${range}, but the package is ${version(name!)}`);
    }
    for (const [, name, pinned] of text.matchAll(/catalogue-api-([a-z-]+?)-(\d+\.\d+\.\d+)\.tgz/g)) {
      seen++;
      if (pinned !== version(name!)) wrong.push(`${page}: catalogue-api-${name}-${pinned}.tgz, but the package is ${version(name!)}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(seen).toBeGreaterThan(0);
});
