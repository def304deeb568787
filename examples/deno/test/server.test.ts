/**
 * The HTTP contract over a real socket against the Deno example server (`deno run … server.ts`),
 * whose `npm:` imports resolve through `node_modules` to the built `dist/` (see ../README.md).
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { defineExampleServerTests, repoRoot as root } from '../../../test/support/example-servers.js';

defineExampleServerTests('deno');

it('loads @catalogue-api/* from the built packages, not from their sources', () => {
  const args = ['info', '--json', '--config', 'examples/deno/deno.json', 'examples/deno/server.ts'];
  const graph = JSON.parse(execFileSync(`${root}node_modules/.bin/deno`, args, { cwd: root, encoding: 'utf8' }));
  const local = (graph.modules as Array<{ specifier: string }>).map((m) => m.specifier).filter((s) => s.includes('/packages/'));
  for (const p of ['core', 'adapter-deno', 'demo-data']) expect(local).toContain(`file://${root}packages/${p}/dist/index.js`);
  expect(local.filter((s) => s.includes('/src/'))).toEqual([]);
});
