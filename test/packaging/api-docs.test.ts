/**
 * `npm run docs` must fail on an export without a doc comment: typedoc.json turns on
 * `validation.notDocumented` and `treatValidationWarningsAsErrors`. This runs the same check
 * (`typedoc --emit none`: convert and validate, write nothing) so that `npm test` fails too.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('API reference (typedoc)', () => {
  it('typedoc.json makes a missing doc comment on any export of any package an error', () => {
    const config = JSON.parse(readFileSync(`${root}typedoc.json`, 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ validation: { notDocumented: true }, treatValidationWarningsAsErrors: true });
    // Without packagesRequiringDocumentation, typedoc 0.28 in "packages" mode only requires comments on
    // symbols of the root package (catalogue-api-monorepo), i.e. on none of the packages' exports.
    const names = readdirSync(`${root}packages`).map(
      (dir) => (JSON.parse(readFileSync(`${root}packages/${dir}/package.json`, 'utf8')) as { name: string }).name,
    );
    expect([...(config.packagesRequiringDocumentation as string[])].sort()).toEqual(names.sort());
    expect([...(config.entryPoints as string[])].sort()).toEqual(readdirSync(`${root}packages`).map((dir) => `packages/${dir}`).sort());
  });

  it('every export of every package is documented (typedoc --emit none exits 0)', () => {
    const typedoc = `${root}node_modules/typedoc/bin/typedoc`;
    const run = spawnSync(process.execPath, [typedoc, '--emit', 'none'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const problems = `${run.stdout}${run.stderr}`.split('\n').filter((line) => /\[(error|warning)\]/.test(line) && !/git remote/.test(line));
    expect(problems).toEqual([]);
    expect(run.status).toBe(0);
  }, 900_000);
});
