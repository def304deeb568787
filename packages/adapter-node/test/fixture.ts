/**
 * Run by `adapter.test.ts` under Node (with tsx): serves an echo app (path and client address)
 * with a `/slow` route and an answer Node cannot send through the adapter's plain door, prints
 * its URL, and closes gracefully through the abort signal on SIGTERM.
 */
import type { PlainRequest, PlainResponse } from '@catalogue-api/core';
import { slowRequest, startFixture } from '../../../test/support/adapter-fixture.ts';
import { serve } from '../src/index.ts';

const app = {
  async handle(request: PlainRequest): Promise<PlainResponse> {
    if (request.path === '/slow') await slowRequest(Number(new URLSearchParams(request.query).get('ms')));
    // A header value Node refuses to write, as a misconfigured app might send.
    if (request.path === '/unsendable') return { status: 200, headers: { link: '<https://example.org/\u65e5>' }, body: 'x' };
    const body = JSON.stringify({ path: request.path, clientAddress: request.clientAddress ?? null });
    return { status: 200, headers: { 'content-type': 'application/json' }, body };
  },
};
const stop = await startFixture(serve, app);
process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
