/**
 * Per-request cost of the gateway, as a ratio to the same pipeline without it, in one run:
 * memory and Redis back ends, with the response cache (hits) and without it (every request counted
 * and routed). In-process through the plain door (`app.handle`, what the Node adapter uses), so the
 * figures are the gateway's own cost, not HTTP's. Clients rotate over 10 000 addresses on an
 * injected clock so that no limit trips; every request still goes through the full rate-limit check.
 * One more variant wraps the cache hits in `createObservedApp` with an observer that does nothing:
 * what timing each request, its record and its `X-Request-Id` cost before any log line or metric.
 *
 * Usage: `npx tsx --tsconfig examples/node/tsconfig.json bench/gateway.ts [--requests N] [--rounds N] [--json]`; Redis variants run when
 * `REDIS_URL` is set (e.g. `REDIS_URL=redis://127.0.0.1:6379`). With `--json` the last stdout line is
 * the result as JSON.
 * @module
 */
import { createCatalogueApp, createMemoryStore, createObservedApp, type App, type GatewayOptions, type PlainRequest } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { createRedisGateway, type RedisGateway } from '@catalogue-api/redis';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const requests = option('--requests', 20_000);
const rounds = option('--rounds', 5);
const json = args.includes('--json');
const redisUrl = process.env.REDIS_URL;

const store = createMemoryStore(demoData);
const ids = demoData.anime!.slice(0, 50).map((anime) => anime.mal_id);
const targets = [
  ...ids.map((id) => ({ path: `/v1/anime/${id}`, query: '' })),
  ...['naruto', 'one piece', 'bebop', 'titan', 'eva'].map((q) => ({ path: '/v1/anime', query: `q=${encodeURIComponent(q)}&limit=10` })),
];
const noHeaders = () => undefined;
const makeRequests = (): PlainRequest[] =>
  Array.from({ length: 10_000 }, (_, i) => ({
    method: 'GET',
    ...targets[i % targets.length]!,
    header: noHeaders,
    clientAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    trace: undefined,
  }));
const plain = makeRequests();

interface Variant {
  name: string;
  app: Pick<App, 'handle'>;
  /** Its own requests (an observed app notes on each); default: the shared ones. */
  requests?: PlainRequest[];
  /** Requests in flight at once (1: each waits for the previous). */
  concurrency: number;
  count: number;
}

let tick = Date.UTC(2026, 0, 1);
// Each request moves the clock 1 ms: one address sees a request every 10 s, far under 4/s.
const now = () => tick++;

function make(gateway: GatewayOptions | false): App {
  return createCatalogueApp({ store, now, gateway, logger: { error: (message, detail) => console.error(message, detail) } });
}

async function run(variant: Variant): Promise<number> {
  let next = 0;
  let failures = 0;
  const requests = variant.requests ?? plain;
  const worker = async () => {
    while (next < variant.count) {
      const request = requests[next++ % requests.length]!;
      const response = await variant.app.handle(request);
      // An observed app leaves its record on the request; a request of the wire dies with its
      // answer, so the record must not outlive it here either (10,000 kept records were promoted
      // to the old generation and their collection counted as the wrapper's cost).
      request.trace = undefined;
      if (response.status !== 200) failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: variant.concurrency }, worker));
  const elapsed = performance.now() - started;
  if (failures > 0) throw new Error(`${variant.name}: ${failures} responses were not 200`);
  return (elapsed * 1000) / variant.count; // µs per request
}

const backends: RedisGateway[] = [];
function redis(): GatewayOptions['backend'] {
  const backend = createRedisGateway({ url: redisUrl, prefix: `catalogue-api-bench:${process.pid}:`, timeoutMs: 1_000 });
  backends.push(backend);
  return backend;
}

const redisCount = Math.max(1_000, Math.floor(requests / 5));
const variants: Variant[] = [
  { name: 'no gateway', app: make(false), concurrency: 1, count: requests },
  { name: 'memory, cache on (hits)', app: make({}), concurrency: 1, count: requests },
  { name: 'memory, cache on (hits), observed', app: createObservedApp(make({}), { observers: [() => undefined] }), requests: makeRequests(), concurrency: 1, count: requests },
  { name: 'memory, cache off', app: make({ cache: false }), concurrency: 1, count: requests },
];
if (redisUrl) {
  variants.push(
    { name: 'no gateway, 32 in flight', app: make(false), concurrency: 32, count: redisCount },
    { name: 'redis, cache on, 1 in flight', app: make({ backend: redis() }), concurrency: 1, count: redisCount },
    { name: 'redis, cache off, 1 in flight', app: make({ backend: redis(), cache: false }), concurrency: 1, count: redisCount },
    { name: 'redis, cache on, 32 in flight', app: make({ backend: redis() }), concurrency: 32, count: redisCount },
    { name: 'redis, cache off, 32 in flight', app: make({ backend: redis(), cache: false }), concurrency: 32, count: redisCount },
  );
  await Promise.all(backends.map((backend) => backend.ready));
}

// Warm up every variant (JIT, caches filled), then interleave rounds so drift hits all alike.
for (const variant of variants) await run({ ...variant, count: Math.min(variant.count, 2_000) });
const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
for (let round = 0; round < rounds; round++) for (const variant of variants) samples.get(variant.name)!.push(await run(variant));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const result = variants.map((variant) => {
  const base = median(samples.get(variant.concurrency === 1 ? 'no gateway' : 'no gateway, 32 in flight')!);
  const us = median(samples.get(variant.name)!);
  return { variant: variant.name, usPerRequest: Number(us.toFixed(2)), ratio: Number((us / base).toFixed(2)) };
});

console.log(`gateway cost per request (median of ${rounds} rounds; ratio to the pipeline without the gateway at the same concurrency)`);
for (const row of result) console.log(`${row.variant.padEnd(34)} ${row.usPerRequest.toFixed(2).padStart(8)} µs   ×${row.ratio.toFixed(2)}`);
if (!redisUrl) console.log('(Redis variants skipped: REDIS_URL is not set)');

// Remove the bench's keys, then close.
if (redisUrl) {
  const { createClient } = await import('redis');
  const client = createClient({ url: redisUrl });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `catalogue-api-bench:${process.pid}:*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  client.destroy();
}
await Promise.all(backends.map((backend) => backend.close()));
if (json) console.log(JSON.stringify({ requests, rounds, result }));
