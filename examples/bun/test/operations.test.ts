/**
 * Access log, request ids, health and readiness, metrics on METRICS_PORT, deprecation headers and
 * the self-check, against the Bun example server over real sockets.
 */
import { fileURLToPath } from 'node:url';
import { spawnServer } from '@catalogue-api/testkit';
import { defineRuntimeOperationsTests } from '../../../test/operations/runtime-operations.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

defineRuntimeOperationsTests('bun (examples/bun)', (env) =>
  spawnServer({ command: `${root}node_modules/.bin/bun`, args: ['examples/bun/server.ts'], cwd: root, env: { HOST: '127.0.0.1', ...env } }),
);
