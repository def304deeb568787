/**
 * Run by `serve.test.ts` under Deno: serves an echo app (path and client address) with a `/slow`
 * route through the adapter, prints its URL, and closes gracefully through the abort signal on SIGTERM.
 */
import { serve } from '../src/index.ts';

declare const Deno: { addSignalListener(signal: string, listener: () => void): void; exit(code: number): never };

const app = {
  async fetch(request: Request, context?: { clientAddress?: string | undefined }): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/slow') {
      console.log('slow request started');
      await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('ms'))));
    }
    return Response.json({ path: url.pathname, clientAddress: context?.clientAddress ?? null });
  },
};
const controller = new AbortController();
const server = await serve(app, { port: 0, hostname: '127.0.0.1', signal: controller.signal });
console.log(`listening on ${server.url}`);
Deno.addSignalListener('SIGTERM', async () => {
  controller.abort();
  console.log('closing');
  await server.close();
  console.log('closed');
  Deno.exit(0);
});
