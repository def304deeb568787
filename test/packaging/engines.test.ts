/**
 * `npm ci` on the oldest Node the repository declares (root `engines.node`) must not print an
 * `EBADENGINE` warning: every package in package-lock.json that npm installs declares an
 * `engines.node` range that includes that Node, and the one running the tests.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as Record<string, unknown>;

interface LockEntry {
  engines?: { node?: string };
  optional?: boolean;
}

describe('engines', () => {
  const declared = (read('package.json').engines as { node: string }).node;
  const oldest = semver.minVersion(declared)!.version;
  const lock = read('package-lock.json').packages as Record<string, LockEntry>;
  // npm skips an optional package whose engines do not fit (a native binary for a newer Node) without a warning.
  const installed = Object.entries(lock).filter(([path, entry]) => path !== '' && !entry.optional && entry.engines?.node);

  it.each([
    ['the oldest declared Node', oldest],
    ['the Node running the tests', process.version],
  ])('every locked package accepts %s (%s): npm ci prints no EBADENGINE', (_what, version) => {
    const misfits = installed
      .filter(([, entry]) => !semver.satisfies(version, entry.engines!.node!))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants node ${entry.engines!.node}`);
    expect(misfits).toEqual([]);
  });

  it('every package declares the root engines range', () => {
    for (const dir of ['core', 'adapter-node', 'adapter-bun', 'adapter-deno', 'demo-data', 'redis', 'store-postgres', 'testkit']) {
      expect((read(`packages/${dir}/package.json`).engines as { node: string }).node, dir).toBe(declared);
    }
  });
});
