/**
 * The HTTP contract over a real socket against the Bun example server (`bun examples/bun/server.ts`),
 * which resolves `@catalogue-api/*` through the workspace links to the built `dist/`.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { defineExampleServerTests, repoRoot as root } from '../../../test/support/example-servers.js';

defineExampleServerTests('bun');

it('resolves @catalogue-api/* to the built packages, not to their sources', () => {
  const script = "for (const p of ['core', 'adapter-bun', 'demo-data']) console.log(import.meta.resolve('@catalogue-api/' + p))";
  const resolved = execFileSync(`${root}node_modules/.bin/bun`, ['-e', script], { cwd: `${root}examples/bun`, encoding: 'utf8' }).trim().split('\n');
  expect(resolved).toEqual(['core', 'adapter-bun', 'demo-data'].map((p) => `file://${root}packages/${p}/dist/index.js`));
});
