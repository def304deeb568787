/**
 * Access log, request ids, health and readiness, metrics on METRICS_PORT, deprecation headers and
 * the self-check, against the Bun example server over real sockets; then the operations
 * variables as every example reads them (`readOperationsEnv` in core).
 */
import { defineRuntimeOperationsTests, defineRuntimeSettingsTests } from '../../../test/operations/runtime-operations.js';
import { startExample } from '../../../test/support/example-servers.js';

defineRuntimeOperationsTests('bun (examples/bun)', (env) => startExample('bun', env));
defineRuntimeSettingsTests('bun');
