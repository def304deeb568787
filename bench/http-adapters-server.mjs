/**
 * One server for `http-adapters.mjs`, run under Node, Bun or Deno (bench code may look at the
 * runtime; the packages never do). It answers the three bench requests (`REQUESTS` below);
 * `VARIANT` picks how:
 * - `raw`: the runtime's own server writing the example's answers as prepared bytes (status,
 *   headers and body taken from `app-cache` at start; node:http `writeHead` + `end`, `Bun.serve`,
 *   `Deno.serve`), looked up by request target: the ceiling.
 * - `adapter`: the same prepared answers through our adapter's `serve`: the adapter's own cost.
 * - `app`: what `examples/{node,bun,deno}` serve with `RATE_LIMIT=off CACHE=off`: the status app
 *   and the catalogue on the demo data (`combineApps`), gateway without rate limits or response
 *   cache, so every request routes, validates, searches and serializes.
 * - `app-cache`: the example with `RATE_LIMIT=off` only: the same with the gateway's response cache.
 * `PORT` defaults to 0; on Node, `PROFILE` names a .cpuprofile to write (see the end of the file). Prints `<runtime> <variant> listening on <url> bytes search=…,detail=…,error=…`.
 * @module
 */
import { combineApps, createCatalogueApp, createMemoryStore, createStatusApp } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

/** The bench requests: a ~30 KB search page, a detail and a 400 error (limit above 50). */
export const REQUESTS = { search: '/v1/anime?q=naruto', detail: '/v1/anime/1/full', error: '/v1/anime?limit=99' };

const runtime = typeof globalThis.Bun !== 'undefined' ? 'bun' : typeof globalThis.Deno !== 'undefined' ? 'deno' : 'node';
const env = runtime === 'deno' ? globalThis.Deno.env.toObject() : process.env;
const variant = env.VARIANT ?? 'raw';
const port = Number(env.PORT ?? 0);
const hostname = '127.0.0.1';

const makeApp = (cache) => {
  const catalogue = createCatalogueApp({ store: createMemoryStore(demoData), gateway: { rateLimit: false, cache }, logger: console });
  return combineApps(createStatusApp({ services: [] }), catalogue);
};
const plain = (target) => {
  const q = target.indexOf('?');
  return { method: 'GET', path: q < 0 ? target : target.slice(0, q), query: q < 0 ? '' : target.slice(q + 1), header: () => undefined, clientAddress: hostname };
};

// The answers as the example sends them (second request: a cache hit, as under load).
const reference = makeApp(true);
const answers = new Map();
for (const target of Object.values(REQUESTS)) {
  await reference.handle(plain(target));
  const answer = await reference.handle(plain(target));
  const bytes = new TextEncoder().encode(answer.body);
  answers.set(target, { status: answer.status, headers: { ...answer.headers, 'content-length': String(bytes.byteLength) }, bytes, answer });
}
const missing = { status: 404, headers: { 'content-length': '0' }, bytes: new Uint8Array(0) };
const prepared = {
  owns: () => true,
  handle: async (request) => (answers.get(request.query ? `${request.path}?${request.query}` : request.path) ?? { answer: { ...missing, body: null } }).answer,
  fetch: async (request) => {
    const url = new URL(request.url);
    const { status, headers, bytes } = answers.get(url.pathname + url.search) ?? missing;
    return new Response(bytes, { status, headers });
  },
};

let url;
if (variant === 'raw') {
  const rawAnswer = (target) => answers.get(target) ?? missing;
  if (runtime === 'bun') {
    const fetch = (request) => {
      const url = request.url;
      const { status, headers, bytes } = rawAnswer(url.slice(url.indexOf('/', 8)));
      return new Response(bytes, { status, headers });
    };
    url = globalThis.Bun.serve({ port, hostname, fetch }).url.origin;
  } else if (runtime === 'deno') {
    const server = globalThis.Deno.serve({ port, hostname, onListen() {} }, (request) => {
      const url = request.url;
      const { status, headers, bytes } = rawAnswer(url.slice(url.indexOf('/', 8)));
      return new Response(bytes, { status, headers });
    });
    url = `http://${hostname}:${server.addr.port}`;
  } else {
    const { createServer } = await import('node:http');
    for (const answer of answers.values()) answer.buffer = Buffer.from(answer.bytes);
    const server = createServer((req, res) => {
      const { status, headers, buffer } = rawAnswer(req.url);
      res.writeHead(status, headers).end(buffer);
    });
    await new Promise((resolve) => server.listen(port, hostname, resolve));
    url = `http://${hostname}:${server.address().port}`;
  }
} else {
  const app = variant === 'adapter' ? prepared : variant === 'app' ? makeApp(false) : variant === 'app-cache' ? makeApp(true) : undefined;
  if (!app) throw new Error(`unknown VARIANT ${variant}`);
  const { serve } = await import(`@catalogue-api/adapter-${runtime}`);
  url = (await serve(app, { port, hostname })).url;
}
const sizes = Object.entries(REQUESTS).map(([name, target]) => `${name}=${answers.get(target).bytes.byteLength}`);
console.log(`${runtime} ${variant} listening on ${url} bytes ${sizes.join(',')}`);
if (runtime === 'node' && env.PROFILE) {
  // PROFILE=file.cpuprofile: `kill -USR2` starts V8's profiler (after the warm-up), SIGTERM writes it.
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method) => new Promise((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  process.on('SIGUSR2', () => void post('Profiler.start'));
  process.once('SIGTERM', () => void post('Profiler.stop').then(({ profile }) => (writeFileSync(env.PROFILE, JSON.stringify(profile)), process.exit(0))));
} else if (runtime === 'node') process.once('SIGTERM', () => process.exit(0));
