/**
 * The catalogue API embedded in a Fastify backend under `/catalogue`, over a real socket: the whole
 * HTTP contract at the mount, and the backend's own routes beside it.
 */
import { defineMountedExampleTests } from '../../../test/support/example-servers.js';

defineMountedExampleTests('fastify', 'Fastify');
