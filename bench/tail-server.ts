/**
 * The Node saturation tail (measured on an early prototype: at -c64, ~1 % of Node answers after 1.2 s while Bun and
 * Deno stayed under 100 ms; not GC). A Node server with the catalogue app (no gateway, so every
 * search searches) on the full-scale anime set (`bench/.data`, `npm run build:bench-data`) or the
 * demo set, served by
 * - `VARIANT=adapter`: `serve()` of `@catalogue-api/adapter-node` (what `examples/node` uses);
 * - `VARIANT=raw`: a bare `node:http` server calling the same `app.handle` and writing its answer
 *   with `writeHead` + `end` (same work per request, no adapter);
 * - `VARIANT=static`: bare `node:http` writing prepared bytes (no work per request).
 * `DATA=full|demo` (default full), `PORT` (default 0), `COUNT=1` for the counters below. Prints
 * `listening on URL`. Run with `node --import tsx bench/tail-server.ts`, load with rotating searches:
 *
 *   PATHS_FILE=paths.txt wrk -t2 -c64 -d8s --latency -s bench/lib/rotate.lua http://127.0.0.1:PORT
 *   ss -ltn 'sport = :PORT'      # Recv-Q of the listening socket: connections not yet accepted
 *
 * Finding (2026-11-21, Node 20.20, libuv 1.46): the tail is connections waiting to be accepted.
 * Node accepts one pending connection per event-loop turn (strace shows one `accept4` per
 * `epoll_pwait`), and a turn runs every request that arrived on the connections already accepted.
 * At saturation with ~1 ms searches a turn takes ~40–60 ms, so the 64 connections wrk opens at
 * once took ~4 s to be accepted (the listen queue went 62 → 0 in steps of ~10 per 0.5 s), their
 * first requests waiting in the kernel all that time; wrk's 2 s timeout then closes a connection
 * and opens another, which waits again. A bare server with a 1 ms busy loop per request does the
 * same, so it is Node's, not the app's; our share is that `serve()` can schedule around it.
 * The fix (adapter-node `serve()`): a turn does at most 10 ms of request work; later requests
 * wait in arrival order, one per following turn, so turns stay short and each accepts a connection.
 * Demo searches, -c64, 8 s, two rounds with a 5 ms budget: `raw` p99 0.83 / 1.26 s, max ~2 s,
 * 29 wrk timeouts, 780 / 1,270 req/s; `adapter` p99 0.20 / 0.13 s, max 0.44 / 0.21 s, no
 * timeouts, 1,407 / 1,357 req/s. With 10 ms (so that 64 cache hits of ~75 µs fit one turn on a
 * loaded box), on a busier machine: `raw` p99 1.02 s, 33 timeouts, 379 req/s; `adapter` p99
 * 0.41 s, max 0.44 s, no timeouts, 350 req/s. In steady state (all connections accepted) Node was
 * already fair.
 * @module
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '../packages/adapter-node/src/index.ts';
import { createCatalogueApp } from '../packages/core/src/app.ts';
import { createMemoryStore } from '../packages/core/src/seam/memory-store.ts';
import type { Anime } from '../packages/core/src/schemas/anime.ts';

const variant = process.env.VARIANT ?? 'adapter';
const full = (process.env.DATA ?? 'full') === 'full';
const port = Number(process.env.PORT ?? 0);
const anime: Anime[] = full
  ? JSON.parse(readFileSync(new URL('./.data/anime.json', import.meta.url), 'utf8'))
  : JSON.parse(readFileSync(new URL('../packages/demo-data/data/anime.json', import.meta.url), 'utf8'));
const app = createCatalogueApp({ store: createMemoryStore({ anime }), gateway: false });

let url: string;
/**
 * With `COUNT=1`, `kill -USR2` prints (and resets) what the server saw since the last signal:
 * connections accepted (a load test should open exactly -c of them), requests per socket (is
 * service fair?), time from the 'request' event to the answer's 'finish' (time in our code and
 * in Node's writer), and the event loop's delay (how long ready sockets could wait for a read).
 */
function countConnections(server: import('node:http').Server): void {
  let accepted = 0;
  const perSocket = new Map<object, number>();
  const service: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  server.on('connection', (socket) => {
    accepted++;
    perSocket.set(socket, 0);
    socket.once('close', () => perSocket.delete(socket));
  });
  // Sockets whose reading Node has paused, sampled every 50 ms.
  let pausedSamples = 0;
  let pausedMax = 0;
  setInterval(() => {
    let paused = 0;
    for (const socket of perSocket.keys()) if ((socket as { _paused?: boolean })._paused || (socket as import('node:net').Socket).isPaused()) paused++;
    pausedSamples += paused;
    pausedMax = Math.max(pausedMax, paused);
  }, 50).unref();
  server.on('request', (req, res) => {
    const start = performance.now();
    perSocket.set(req.socket, (perSocket.get(req.socket) ?? 0) + 1);
    res.once('finish', () => service.push(performance.now() - start));
  });
  process.on('SIGUSR2', () => {
    const q = (values: number[], p: number) => values[Math.floor(p * (values.length - 1))]?.toFixed(1);
    service.sort((a, b) => a - b);
    const counts = [...perSocket.values()].sort((a, b) => a - b);
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    console.log(`connections accepted: ${accepted}; requests per socket min ${counts[0]} median ${counts[counts.length >> 1]} max ${counts.at(-1)}`);
    console.log(`'request' to 'finish': p50 ${q(service, 0.5)} p99 ${q(service, 0.99)} max ${q(service, 1)} ms (${service.length} requests)`);
    console.log(`paused sockets: max ${pausedMax} at once, ${pausedSamples} socket-samples`);
    pausedSamples = 0;
    pausedMax = 0;
    console.log(`event loop delay: p50 ${ms(loop.percentile(50))} p99 ${ms(loop.percentile(99))} max ${ms(loop.max)} ms`);
    accepted = 0;
    service.length = 0;
    for (const key of perSocket.keys()) perSocket.set(key, 0);
    loop.reset();
  });
}
if (variant === 'adapter') {
  const served = await serve(app, { port, hostname: '127.0.0.1' });
  if (process.env.COUNT) countConnections(served.node);
  url = served.url;
} else {
  const page = await app.handle({ method: 'GET', path: '/v1/anime', query: 'q=naruto&limit=25', header: () => undefined, clientAddress: '127.0.0.1' });
  const bytes = Buffer.from(page.body ?? '');
  const server = createServer((req, res) => {
    if (variant === 'static') return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length }).end(bytes);
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    app
      .handle({
        method: req.method ?? 'GET',
        path: q < 0 ? target : target.slice(0, q),
        query: q < 0 ? '' : target.slice(q + 1),
        header: (name) => req.headers[name] as string | undefined,
        clientAddress: req.socket.remoteAddress,
      })
      .then((r) => res.writeHead(r.status, r.headers).end(r.body ?? undefined));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  if (process.env.COUNT) countConnections(server);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
console.log(`${variant} ${full ? 'full' : 'demo'} ${anime.length} anime listening on ${url}`);
