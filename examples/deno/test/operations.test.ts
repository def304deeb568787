/**
 * Access log, request ids, health and readiness, metrics on METRICS_PORT, deprecation headers and
 * the self-check, against the Deno example server over real sockets; then the settings Deno reads
 * as the Node example does (`examples/node/observability.ts`): request ids whatever the log and
 * metrics settings, log lines with pino's numeric level, and a start refused on a value it cannot
 * read.
 */
import { execFile } from 'node:child_process';
import type { SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRuntimeOperationsTests } from '../../../test/operations/runtime-operations.js';
import { repoRoot, startExample } from '../../../test/support/example-servers.js';

defineRuntimeOperationsTests('deno (examples/deno)', (env) => startExample('deno', env));

/** Stops the server and returns all it wrote, once its output has been read to the end. */
async function stopAndRead(server: SpawnedServer): Promise<string> {
  await server.close();
  const stdout = server.process.stdout!;
  if (!stdout.closed) await new Promise((resolve) => stdout.once('close', resolve));
  return server.output();
}

describe('operations settings: deno (examples/deno)', () => {
  let quiet: SpawnedServer;
  let anonymous: SpawnedServer;
  beforeAll(async () => {
    [quiet, anonymous] = await Promise.all([startExample('deno', { ACCESS_LOG: 'off' }), startExample('deno', { REQUEST_ID: 'off' })]);
  });
  afterAll(() => Promise.all([quiet?.close(), anonymous?.close()]));

  it('sends X-Request-Id with ACCESS_LOG=off and no METRICS_PORT, and logs nothing', async () => {
    for (const path of ['/v1/anime/1', '/healthz', '/api/status']) {
      expect((await fetch(`${quiet.url}${path}`)).headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await stopAndRead(quiet)).split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });

  it('sends no X-Request-Id with REQUEST_ID=off, and logs lines at pino\'s level 30 without one', async () => {
    const res = await fetch(`${anonymous.url}/v1/anime/1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeNull();
    const lines = (await stopAndRead(anonymous)).split('\n').filter((line) => line.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\{"level":30,/);
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('requestId');
  });

  it.each([
    ['ACCESS_LOG', 'yaml', 'ACCESS_LOG must be "json" or "off", not "yaml"'],
    ['ACCESS_LOG_SAMPLE', '2', 'ACCESS_LOG_SAMPLE must be a number from 0 to 1, not "2"'],
    ['ACCESS_LOG_CLIENT', 'ip', 'ACCESS_LOG_CLIENT must be "hash", "address" or "none", not "ip"'],
    ['REQUEST_ID', 'yes', 'REQUEST_ID must be "on" or "off", not "yes"'],
    ['METRICS_PORT', '70000', 'METRICS_PORT must be a port number, not "70000"'],
  ])('refuses to start with %s=%s', async (name, value, message) => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', [name]: value };
      // As `startExample('deno')` runs it (test/support/example-servers.ts), to read its whole output on exit.
      const args = ['run', '--allow-net', '--allow-env', '--allow-read', '--config', 'examples/deno/deno.json', 'examples/deno/server.ts'];
      execFile(`${repoRoot}node_modules/.bin/deno`, args, { cwd: repoRoot, env: { ...env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
      );
    });
    expect(result.output).toContain(message);
    expect(result.output).not.toContain('listening on');
    expect(result.code).not.toBe(0);
  });
});
