/**
 * Run by `serve.test.ts` under Bun: serves an echo app (path and client address) with a `/slow`
 * route through the adapter, prints its URL, and closes gracefully through the abort signal on SIGTERM.
 * With `DOOR=plain` the app is a plain door (`handle`) behind core's Web door (`fromWebRequest`,
 * `toWebResponse`), as core's apps are, with a `/large?n=` route answering a large non-Latin-1
 * JSON string.
 */
import { fromWebRequest, toWebResponse, type PlainRequest, type PlainResponse } from '@catalogue-api/core';
import { echoWebApp, slowRequest, startFixture } from '../../../test/support/adapter-fixture.ts';
import { serve } from '../src/index.ts';

const plainApp = {
  fetch: async (request: Request, context?: { clientAddress?: string | undefined }) => toWebResponse(await plainApp.handle(fromWebRequest(request, context))),
  async handle(request: PlainRequest): Promise<PlainResponse> {
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    if (request.path === '/large') return { status: 200, headers, body: JSON.stringify(`${request.query}:${'ナルト'.repeat(4000)}`) };
    if (request.path === '/slow') await slowRequest(Number(new URLSearchParams(request.query).get('ms')));
    if (request.path === '/unsendable') return { status: 200, headers: { ...headers, link: '<https://example.org/\u65e5>' }, body: 'x' };
    return { status: 200, headers, body: JSON.stringify({ path: request.path, clientAddress: request.clientAddress ?? null }) };
  },
};
const stop = await startFixture(serve, process.env.DOOR === 'plain' ? plainApp : echoWebApp);
process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
