/**
 * Access log, request ids, health and readiness, metrics on METRICS_PORT, deprecation headers and
 * the self-check, against the Bun example server over real sockets.
 */
import { defineRuntimeOperationsTests } from '../../../test/operations/runtime-operations.js';
import { startExample } from '../../../test/support/example-servers.js';

defineRuntimeOperationsTests('bun (examples/bun)', (env) => startExample('bun', env));
