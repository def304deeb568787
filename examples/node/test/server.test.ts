/**
 * The HTTP contract over a real socket against the Node example server, spawned from its build
 * (`examples/node/dist/server.js`, which imports the packages' `dist/`).
 */
import { defineExampleServerTests } from '../../../test/support/example-servers.js';

defineExampleServerTests('node');
