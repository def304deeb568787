/**
 * Access log, request ids, health and readiness, metrics on METRICS_PORT, deprecation headers and
 * the self-check, against the Deno example server over real sockets.
 */
import { fileURLToPath } from 'node:url';
import { spawnServer } from '@catalogue-api/testkit';
import { defineRuntimeOperationsTests } from '../../../test/operations/runtime-operations.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

defineRuntimeOperationsTests('deno (examples/deno)', (env) =>
  spawnServer({
    command: `${root}node_modules/.bin/deno`,
    args: ['run', '--allow-net', '--allow-env', '--allow-read', '--config', 'examples/deno/deno.json', 'examples/deno/server.ts'],
    cwd: root,
    env: { HOST: '127.0.0.1', NO_COLOR: '1', ...env },
  }),
);
