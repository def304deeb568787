/**
 * Run by `adapter.test.ts` under Node (with tsx): serves an echo app (path and client address)
 * with a `/slow` route through the adapter's plain door, prints its URL, and closes gracefully
 * through the abort signal on SIGTERM.
 */
import type { PlainRequest, PlainResponse } from '@catalogue-api/core';
import { serve } from '../src/index.ts';

const app = {
  async handle(request: PlainRequest): Promise<PlainResponse> {
    if (request.path === '/slow') {
      console.log('slow request started');
      await new Promise((resolve) => setTimeout(resolve, Number(new URLSearchParams(request.query).get('ms'))));
    }
    const body = JSON.stringify({ path: request.path, clientAddress: request.clientAddress ?? null });
    return { status: 200, headers: { 'content-type': 'application/json' }, body };
  },
};
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
