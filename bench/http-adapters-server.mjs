/**
 * One server for `http-adapters.mjs`, run under Node, Bun or Deno (bench code may look at the
 * runtime; the packages never do). `VARIANT` picks what answers `BENCH_PATH`:
 * - `raw`: the runtime's own server writing pre-serialized bytes (node:http writeHead + end,
 *   `Bun.serve`, `Deno.serve`): the ceiling.
 * - `adapter`: the same bytes and headers through our adapter's `serve`, from an app that returns
 *   a prepared response: the adapter's own cost.
 * - `app`: the real catalogue app on the demo dataset (routing, validation, store, JSON) through
 *   the adapter, without the gateway.
 * - `app-gateway`: the same with the default gateway minus rate limits (response cache on).
 * Prints the URL it listens on; `PORT` defaults to 0.
 * @module
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const runtime = typeof globalThis.Bun !== 'undefined' ? 'bun' : typeof globalThis.Deno !== 'undefined' ? 'deno' : 'node';
const env = runtime === 'deno' ? globalThis.Deno.env.toObject() : process.env;
const variant = env.VARIANT ?? 'raw';
const target = env.BENCH_PATH ?? '/v1/anime?limit=25';
const port = Number(env.PORT ?? 0);
const hostname = '127.0.0.1';

const makeApp = (gateway) => createCatalogueApp({ store: createMemoryStore(demoData), gateway, logger: console });
const [path, query = ''] = target.split('?');
const page = await makeApp(false).handle({ method: 'GET', path, query, header: () => undefined, clientAddress: hostname });
if (page.status !== 200) throw new Error(`${target} answered ${page.status}`);
const bytes = new TextEncoder().encode(page.body);
const headers = { ...page.headers, 'content-length': String(bytes.byteLength) };
// The prepared app: the pipeline's work is done once, so only the adapter runs per request.
const prepared = {
  owns: () => true,
  handle: async () => page,
  fetch: async () => new Response(bytes, { status: 200, headers }),
};
const app = variant === 'adapter' ? prepared : variant === 'app' ? makeApp(false) : makeApp({ rateLimit: false });

let url;
if (variant === 'raw') {
  if (runtime === 'bun') {
    url = globalThis.Bun.serve({ port, hostname, fetch: () => new Response(bytes, { headers }) }).url.origin;
  } else if (runtime === 'deno') {
    const server = globalThis.Deno.serve({ port, hostname, onListen() {} }, () => new Response(bytes, { headers }));
    url = `http://${hostname}:${server.addr.port}`;
  } else {
    const { createServer } = await import('node:http');
    const buffer = Buffer.from(bytes);
    const server = createServer((_req, res) => res.writeHead(200, headers).end(buffer));
    await new Promise((resolve) => server.listen(port, hostname, resolve));
    url = `http://${hostname}:${server.address().port}`;
  }
} else {
  const { serve } = await import(`@catalogue-api/adapter-${runtime}`);
  url = (await serve(app, { port, hostname })).url;
}
console.log(`${runtime} ${variant} ${bytes.byteLength} B listening on ${url}`);
if (runtime === 'node') process.once('SIGTERM', () => process.exit(0)); // lets --cpu-prof write its profile
