/**
 * Run by `serve.test.ts` under Bun: serves an echo app (path and client address) with a `/slow`
 * route through the adapter, prints its URL, and closes gracefully through the abort signal on SIGTERM.
 * With `DOOR=plain` the app also has a plain door (`handle`), which the adapter then uses, and a
 * `/large?n=` route answering a large non-Latin-1 JSON string.
 */
import { fromWebRequest, toWebResponse, type PlainRequest, type PlainResponse } from '@catalogue-api/core';
import { serve } from '../src/index.ts';

const webApp = {
  async fetch(request: Request, context?: { clientAddress?: string | undefined }): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/slow') {
      console.log('slow request started');
      await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('ms'))));
    }
    return Response.json({ path: url.pathname, clientAddress: context?.clientAddress ?? null });
  },
};
const plainApp = {
  fetch: async (request: Request, context?: { clientAddress?: string | undefined }) => toWebResponse(await plainApp.handle(fromWebRequest(request, context))),
  async handle(request: PlainRequest): Promise<PlainResponse> {
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    if (request.path === '/large') return { status: 200, headers, body: JSON.stringify(`${request.query}:${'ナルト'.repeat(4000)}`) };
    if (request.path === '/slow') {
      console.log('slow request started');
      await new Promise((resolve) => setTimeout(resolve, Number(new URLSearchParams(request.query).get('ms'))));
    }
    return { status: 200, headers, body: JSON.stringify({ path: request.path, clientAddress: request.clientAddress ?? null }) };
  },
};
const app = process.env.DOOR === 'plain' ? plainApp : webApp;
const controller = new AbortController();
const server = await serve(app, { port: 0, hostname: '127.0.0.1', signal: controller.signal });
console.log(`listening on ${server.url}`);
process.once('SIGTERM', async () => {
  controller.abort();
  console.log('closing');
  await server.close();
  console.log('closed');
  process.exit(0);
});
