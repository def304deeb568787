/**
 * The Redis back end outside Node (docs/runtimes.md: "Redis and PostgreSQL on Bun and Deno"; "behind a small interface so that Bun and Deno work
 * too"): `runtime-fixture.ts` runs the gateway on Redis under real Bun and Deno binaries (the `bun`
 * and `deno` npm packages) and must see the same limits and keys as under Node.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deletePrefix, REDIS_URL, uniquePrefix } from './helpers.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = fileURLToPath(new URL('runtime-fixture.ts', import.meta.url));
const runtimes: [string, string, string[]][] = [
  ['bun', `${root}node_modules/.bin/bun`, [fixture]],
  // Deno maps @catalogue-api/core through the Deno example's import map (npm: specifiers to the build).
  ['deno', `${root}node_modules/.bin/deno`, ['run', '--allow-net', '--allow-env', '--allow-read', '--config', `${root}examples/deno/deno.json`, fixture]],
];

describe.skipIf(!REDIS_URL)('the Redis gateway under Bun and Deno', () => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await deletePrefix(prefix);
  });

  it.each(runtimes)('limits, counts and verifies keys under %s', async (name, command, args) => {
    const prefix = uniquePrefix(`runtime-${name}`);
    prefixes.push(prefix);
    const { stdout } = await run(command, args, { cwd: root, env: { ...process.env, REDIS_URL, REDIS_PREFIX: prefix, NO_COLOR: '1' }, timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ statuses: [200, 200, 200, 200, 429], keyed: 200, limit: '5' });
  }, 90_000);
});
