/**
 * `npm test` (scripts/test.mjs) ends with its summary line, and the reasons for every skipped test
 * printed right above it, where a reader of the last screen sees them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('prints why tests were skipped beside the final line, not only before vitest’s output', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.REDIS_URL;
  const run = spawnSync(process.execPath, ['scripts/test.mjs', '--config', 'test/packaging/fixtures/skip-reasons/vitest.config.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  const tail = run.stdout.trimEnd().split('\n').slice(-4);
  expect(tail[tail.length - 1]).toMatch(/^tests: 1 passed, 0 failed, 3 skipped \(REDIS_URL/);
  expect(tail.join('\n')).toContain('REDIS_URL is not set');
  expect(tail.join('\n')).toMatch(/3 {2}test\/packaging\/fixtures\/skip-reasons\/skips\.fixture\.ts › a Redis suite/);
}, 120_000);
