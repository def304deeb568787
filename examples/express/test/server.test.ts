/**
 * The catalogue API embedded in a Express backend under `/catalogue`, over a real socket: the whole
 * HTTP contract at the mount, and the backend's own routes beside it.
 */
import { expect, it } from 'vitest';
import { defineMountedExampleTests } from '../../../test/support/example-servers.js';

defineMountedExampleTests('express', 'Express', (server) => {
  it('passes paths under the mount that the app does not own on to Express (next())', async () => {
    const res = await fetch(`${server().url}/catalogue/admin`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
