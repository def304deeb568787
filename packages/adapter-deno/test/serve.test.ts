/** `serve` of the Deno adapter, under a real Deno (the `deno` npm package's binary). */
import { fileURLToPath } from 'node:url';
import { defineAdapterSuite } from '../../adapter-bun/test/shared.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

defineAdapterSuite('deno', {
  command: `${root}node_modules/.bin/deno`,
  args: ['run', '--allow-net', '--config', `${root}examples/deno/deno.json`, fileURLToPath(new URL('fixture.ts', import.meta.url))],
  env: { NO_COLOR: '1' },
});
