/**
 * One client against the example server (item 7 of `npm run bench`): the Node example as `npm start`
 * runs it, with nothing configured (memory store, no Redis, the access log on, request ids on, the
 * public rate limits on), its stdout (the access log) written to /dev/null. Three scenarios, each
 * on a fresh server:
 *
 * 1. **flood**: one TCP connection writes 100,000 pipelined `GET /v1/anime/1` in one go and never
 *    reads. Measured: the server's RSS growth (the peak of `VmRSS` sampled every 100 ms, or `VmHWM`
 *    when it rose, minus the idle `VmRSS` before) and the latency of a kept-alive client asking
 *    `/healthz` every 100 ms from another address over the flood's window.
 * 2. **slots**: 55 connections at `MAX_CONNECTIONS=50`, each from an address of its own, writing 32
 *    pipelined `GET /v1/openapi.json` (~200 KB answers) and never reading; then a fresh client (a new
 *    connection from another address, retrying when its connection is refused or reset) asks
 *    `/v1/anime/1`: the time to its 200, at once, 5 s and 30 s later. Each connection writes its
 *    requests 4 at a time, a second apart, within the public 4/s, so that every answer is a 200:
 *    written in one go, all but 4 are refused by the rate limit in a few hundred bytes. And 32 of
 *    them, 6.4 MB, because the kernel takes the first few MB off the server: over loopback on Linux
 *    a connection that never read held 3.1 MB in its send queue and 128 KB in the reader's, so with
 *    16 answers (3.2 MB) the server had nothing left to send, and such a connection is one it may
 *    close when it needs the slot. `ABUSE_SLOT_REQUESTS=16` measures that case.
 * 3. **search**: the example on PostgreSQL (`DATABASE_URL`, schema `catalogue_abuse` holding the
 *    full-scale bench set, imported with the CLI as `bench/postgres-routes.ts` does, see
 *    `bench/lib/bench-schema.ts`); 30 closed-loop clients search with typos (a fresh query each time,
 *    from 30 source addresses, one each, each paced under the public 4 requests/s and 120/min), while
 *    `/v1/anime/20` is asked every 260 ms from another address: its p50/p99 during the searches
 *    against the same probe with the server idle. Skipped without `DATABASE_URL`.
 *
 * Every client binds a source address of its own in 127.0.0.0/24 (`localAddress`), so the server's
 * limits count each as a different client with no `TRUST_PROXY`; the server listens on 127.0.0.1.
 * The server is `node --import tsx examples/node/server.ts` with `TSX_TSCONFIG_PATH` set, which is
 * what `npm start` runs once npm and tsx's launcher are out of the way, so that the measured process
 * is the server itself. It is stopped at the end of each scenario, and killed when this process
 * exits on any path.
 *
 * What the servers are started with is in {@link SERVER_ENV}, the one place for it: a variable
 * listed there is set (or unset) by this piece; any other comes from the environment the bench runs
 * in. `ABUSE_SERVER_ENV="NAME=value NAME2=value"` adds variables to this piece's servers alone,
 * after those, e.g. a send timeout or a per-connection request depth. The scenarios' sizes are in
 * {@link KNOBS} (`ABUSE_*` variables).
 *
 * Usage: `npx tsx --tsconfig packages/store-postgres/test/tsconfig.json bench/abuse.ts [--json]
 * [--only flood,slots,search] [--reimport]`, with `DATABASE_URL` for the third. Output: progress on
 * stderr, the figures on stdout as indented JSON, or with `--json` as one line (see {@link AbuseResult}).
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { normalizeTitle } from '../packages/core/src/seam/search.ts';
import { createPostgresStore } from '../packages/store-postgres/src/catalogue-store.ts';
import { mulberry32 } from '../scripts/lib/mulberry32.mjs';
import { oneTypo, percentile } from './lib/battery.ts';
import { ensureBenchSchema, missingBenchData } from './lib/bench-schema.ts';
import { freePort, memoryOf, spawnNodeExample, stopChild } from './lib/example.mjs';
import { cpuSeconds } from './lib/wrk.mjs';

const SCENARIOS = ['flood', 'slots', 'search'] as const;
type Scenario = (typeof SCENARIOS)[number];
const { values: options } = parseArgs({ options: { json: { type: 'boolean' }, only: { type: 'string' }, reimport: { type: 'boolean' } } });
const only = options.only?.split(',') ?? [...SCENARIOS];
for (const s of only) if (!SCENARIOS.includes(s as Scenario)) throw new Error(`--only: unknown scenario "${s}" (${SCENARIOS.join(', ')})`);

function positive(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`${name} must be a positive number, not "${text}"`);
  return n;
}

/** The scenarios' sizes and durations: the defaults are those the page's targets are set for. */
const KNOBS = {
  /** Pipelined requests the flood's one connection writes. */
  floodRequests: positive('ABUSE_FLOOD_REQUESTS', 100_000),
  /** How long the flood's connection stays open (never read), the probe and the RSS sampling with it. */
  floodSeconds: positive('ABUSE_FLOOD_SECONDS', 10),
  /** Connections that never read, in the slots scenario, and the cap they run against. */
  slotSockets: positive('ABUSE_SLOT_SOCKETS', 55),
  slotRequests: positive('ABUSE_SLOT_REQUESTS', 32),
  /** The source addresses they come from, in turn (127.0.0.100, 127.0.0.101, …; at most 150). */
  slotAddresses: Math.min(150, positive('ABUSE_SLOT_ADDRESSES', 55)),
  /** Requests each connection writes at a time, a little over a second apart (the public tier allows 4/s). */
  slotBurst: positive('ABUSE_SLOT_BURST', 4),
  maxConnections: positive('ABUSE_MAX_CONNECTIONS', 50),
  /** When the fresh clients start, in seconds after the last slot connection wrote its requests, and how long each waits for its 200. */
  freshAt: [0, 5, 30],
  freshWindowSeconds: positive('ABUSE_FRESH_WINDOW_SECONDS', 10),
  /** Concurrent searching clients (and, below the addresses, how long they search). */
  searchers: positive('ABUSE_SEARCHERS', 30),
  /** The source addresses the searchers share in turn (127.0.0.10, 127.0.0.11, …; at most 80): one each by default, so
   * that 30 searches are really in flight at once, each client within the public 4 a second. */
  searchAddresses: Math.min(80, positive('ABUSE_SEARCH_ADDRESSES', 30)),
  searchSeconds: positive('ABUSE_SEARCH_SECONDS', 25),
  /** The probe's idle window before the searches, and its period (per address: under 4/s and 120/min over both windows). */
  idleSeconds: positive('ABUSE_IDLE_SECONDS', 10),
  probeEveryMs: positive('ABUSE_PROBE_EVERY_MS', 260),
  /** The PostgreSQL schema of the search scenario, kept between runs. */
  schema: process.env.ABUSE_SCHEMA || 'catalogue_abuse',
};
// Per address, one request every 260 ms: at most 4 in any second (the public tier's 4/s), and under
// its 120 a minute over the windows above (25 s: 97).
const PACE_MS = 260;

const databaseUrl = process.env.DATABASE_URL || undefined;

/**
 * What this piece sets on the example server: `undefined` unsets a variable the environment may
 * hold, so the example's default applies. A variable not listed here passes through from the
 * environment; `ABUSE_SERVER_ENV` comes last.
 */
const SERVER_ENV = {
  /** Every scenario: the README's `npm start` with nothing configured. */
  all: {
    HOST: '127.0.0.1',
    REDIS_URL: undefined,
    DATABASE_URL: undefined,
    DATABASE_SCHEMA: undefined,
    STORE_TIMEOUT_MS: undefined,
    MAX_CONNECTIONS: undefined,
    RATE_LIMIT: undefined,
    CACHE: undefined,
    ACCESS_LOG: undefined,
    ACCESS_LOG_SAMPLE: undefined,
    REQUEST_ID: undefined,
    TRUST_PROXY: undefined,
    SERVER_KEYS: undefined,
    RESTRICTED_ROUTES: undefined,
    METRICS_PORT: undefined,
    STATUS_PORT: undefined,
  },
  flood: {},
  slots: { MAX_CONNECTIONS: String(KNOBS.maxConnections) },
  search: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: KNOBS.schema },
} satisfies Record<'all' | Scenario, Record<string, string | undefined>>;

/** `ABUSE_SERVER_ENV`: `NAME=value` pairs separated by white space. */
const extraEnv: Record<string, string> = {};
for (const pair of (process.env.ABUSE_SERVER_ENV ?? '').split(/\s+/).filter(Boolean)) {
  const at = pair.indexOf('=');
  if (at <= 0) throw new Error(`ABUSE_SERVER_ENV: "${pair}" is not NAME=value`);
  extraEnv[pair.slice(0, at)] = pair.slice(at + 1);
}

const log = (line: string) => console.error(`[abuse] ${line}`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const now = () => performance.now();

// ---------------------------------------------------------------------------------------------
// The server

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

interface Server {
  child: ChildProcess;
  pid: number;
  port: number;
  /** The last 4 KB the server wrote to stderr. */
  stderr(): string;
}

async function startServer(scenario: Scenario): Promise<Server> {
  const port = await freePort();
  const devNull = openSync('/dev/null', 'w');
  let spawned: ReturnType<typeof spawnNodeExample>;
  try {
    spawned = spawnNodeExample({ ...SERVER_ENV.all, ...SERVER_ENV[scenario], ...extraEnv, PORT: String(port) }, devNull);
  } finally {
    closeSync(devNull);
  }
  const { child, stderr } = spawned;
  const server: Server = { child, pid: child.pid!, port, stderr };
  // Ready when `/healthz` answers (outside the rate limits): the URL line went to /dev/null with the log.
  const deadline = now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${scenario}: the server exited (${child.exitCode ?? child.signalCode}): ${why(stderr())}`);
    if (now() > deadline) {
      await stopServer(server);
      throw new Error(`${scenario}: /healthz did not answer within 60 s: ${why(stderr())}`);
    }
    const answer = await send({ port, path: '/healthz', from: '127.0.0.1', timeoutMs: 1_000 });
    if (answer.status === 200) break;
    await sleep(100);
  }
  log(`${scenario}: server ${server.pid} ready on 127.0.0.1:${port}`);
  return server;
}

/** What a server said on stderr when it failed: its error's line (`RangeError: …`), else its last line. */
function why(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1) ?? '(nothing on stderr)';
}

/** SIGTERM, then SIGKILL after 3 s; resolves when it has exited. */
const stopServer = (server: Server) => stopChild(server.child, 3_000);

// ---------------------------------------------------------------------------------------------
// Clients

interface Answer {
  /** The HTTP status, or undefined when none came (then `error` says why). */
  status?: number;
  error?: string;
  /** From sending to the last byte of the body, or to the failure. */
  ms: number;
}

/**
 * One GET to 127.0.0.1 from `from`, its body read and dropped; never rejects. Without an agent it
 * is a connection of its own, closed after the answer.
 */
function send(o: { port: number; path: string; from: string; timeoutMs: number; agent?: Agent }): Promise<Answer> {
  const started = now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: now() - started });
    };
    const req = request({ host: '127.0.0.1', port: o.port, path: o.path, localAddress: o.from, agent: o.agent ?? false, headers: o.agent ? {} : { connection: 'close' } }, (res) => {
      res.on('data', () => undefined);
      res.once('end', () => done({ status: res.statusCode }));
      res.once('error', (error) => done({ error: error.message }));
    });
    const timer = setTimeout(() => {
      done({ error: `no answer within ${o.timeoutMs} ms` });
      req.destroy();
    }, o.timeoutMs);
    req.once('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end();
  });
}

/** Latencies of a probe (or of the searches) in ms, nearest rank, and what it was answered. */
export interface ProbeStats {
  /** Probes answered (any status). */
  n: number;
  p50: number;
  p99: number;
  max: number;
  /** Count per status, and `none` for requests with no answer (timed out, reset). */
  statuses: Record<string, number>;
}

function statsOf(answers: readonly Answer[]): ProbeStats {
  const times = answers.map((a) => a.ms).sort((x, y) => x - y);
  const statuses: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === undefined ? 'none' : String(a.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return { n: answers.filter((a) => a.status !== undefined).length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? NaN, statuses };
}

/** A kept-alive client from `from`, its connection open: one request to `path` made and answered (not counted). */
async function keptAlive(port: number, path: string, from: string): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answer = await send({ port, path, from, agent, timeoutMs: 10_000 });
  if (answer.status === undefined) {
    agent.destroy();
    throw new Error(`${path} from ${from}: ${answer.error}`);
  }
  return agent;
}

/**
 * A kept-alive client (see {@link keptAlive}) asking `path` every `everyMs` until `until`, one
 * request at a time (a late answer delays the next probe; none is sent to catch up). A probe still
 * unanswered at `until` waits 5 s more, then counts with the time it waited. Closes the client.
 */
async function probe(o: { port: number; path: string; from: string; agent: Agent; everyMs: number; until: number }): Promise<Answer[]> {
  const { agent } = o;
  const answers: Answer[] = [];
  const most = Math.ceil((o.until - now()) / o.everyMs) + 1;
  try {
    // The first one period after the connection's opening request, which counts against the same limit.
    for (let next = now() + o.everyMs; next < o.until && answers.length < most; ) {
      await sleep(next - now());
      answers.push(await send({ port: o.port, path: o.path, from: o.from, agent, timeoutMs: Math.max(1_000, o.until - now() + 5_000) }));
      next = Math.max(next + o.everyMs, now());
    }
  } finally {
    agent.destroy();
  }
  return answers;
}

/** A connection from `from`, once connected; it never reads (`pause`), and its errors are kept, not thrown. */
function openSilent(port: number, from: string, timeoutMs = 2_000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    socket.pause();
    socket.on('error', () => undefined);
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no connection within ${timeoutMs} ms`))), timeoutMs);
    socket.once('connect', () => (clearTimeout(timer), resolve(socket)));
    socket.once('close', () => (clearTimeout(timer), reject(new Error('closed before connecting'))));
  });
}

// ---------------------------------------------------------------------------------------------
// 1. One connection, 100,000 pipelined requests, never read

/** Scenario 1's figures: RSS in MB of 2^20 bytes. */
export interface FloodResult {
  requests: number;
  seconds: number;
  idleRssMb: number;
  peakRssMb: number;
  growthMb: number;
  /** CPU seconds the server used over the window: near the window's length, it had no time for anyone else. */
  cpuSeconds: number;
  /** `/healthz` every 100 ms from another address, over the flood's window. */
  probe: ProbeStats;
  /** Whether the server was still running at the end of the window. */
  alive: boolean;
}

async function flood(): Promise<FloodResult> {
  const server = await startServer('flood');
  let socket: Socket | undefined;
  try {
    // Idle: the median of 10 samples over a second, once start-up's allocations have settled.
    await sleep(1_000);
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) {
      idle.push(memoryOf(server.pid).rssMb);
      await sleep(100);
    }
    const idleRssMb = percentile(idle, 50);
    const hwmBefore = memoryOf(server.pid).hwmMb;

    const agent = await keptAlive(server.port, '/healthz', '127.0.0.2');
    socket = await openSilent(server.port, '127.0.0.1');
    const until = now() + KNOBS.floodSeconds * 1_000;
    const cpuBefore = cpuSeconds(server.pid);
    const probing = probe({ port: server.port, path: '/healthz', from: '127.0.0.2', agent, everyMs: 100, until });
    socket.write(Buffer.from('GET /v1/anime/1 HTTP/1.1\r\nHost: bench\r\n\r\n'.repeat(KNOBS.floodRequests), 'latin1'));
    log(`flood: ${KNOBS.floodRequests} requests written on one connection that never reads`);
    let sampled = 0;
    for (let i = 0; now() < until && i < KNOBS.floodSeconds * 20; i++) {
      sampled = Math.max(sampled, memoryOf(server.pid).rssMb);
      await sleep(100);
    }
    const hwmAfter = memoryOf(server.pid).hwmMb;
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const alive = server.child.exitCode === null && server.child.signalCode === null;
    // VmHWM catches a peak between two samples; before the flood it may hold start-up's peak, so only a rise counts.
    const peakRssMb = Math.max(sampled, hwmAfter > hwmBefore ? hwmAfter : 0);
    socket.destroy();
    const answers = await probing;
    const result = { requests: KNOBS.floodRequests, seconds: KNOBS.floodSeconds, idleRssMb, peakRssMb, growthMb: peakRssMb - idleRssMb, cpuSeconds: cpu, probe: statsOf(answers), alive };
    log(
      `flood: RSS ${idleRssMb.toFixed(0)} → ${peakRssMb.toFixed(0)} MB, server CPU ${cpu.toFixed(1)} s in ${KNOBS.floodSeconds} s; ` +
        `/healthz p50 ${result.probe.p50.toFixed(1)} ms, max ${result.probe.max.toFixed(0)} ms over ${answers.length} probes`,
    );
    return result;
  } finally {
    socket?.destroy();
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. 55 connections that never read at MAX_CONNECTIONS=50; a fresh client after 0, 5 and 30 s

/** One fresh client of scenario 2. */
export interface FreshClient {
  /** Seconds after the slot connections wrote their requests. */
  at: number;
  /** From its first attempt to its 200; undefined when none came within the window. */
  ms?: number;
  attempts: number;
  /** The last failure when no 200 came: a status, a reset, a timeout. */
  last?: string;
}

/** Scenario 2's figures. */
export interface SlotsResult {
  sockets: number;
  /** Of those, connected (the server may close some at once, or later). */
  connected: number;
  requestsEach: number;
  /** Requests written at a time, a second apart. */
  burst: number;
  maxConnections: number;
  windowSeconds: number;
  fresh: FreshClient[];
}

/** New connections from `from` until one answers 200 or the window closes; a refused or reset one is retried 100 ms later. */
async function freshClient(port: number, from: string, at: number): Promise<FreshClient> {
  const started = now();
  const deadline = started + KNOBS.freshWindowSeconds * 1_000;
  let attempts = 0;
  let last: string | undefined;
  while (now() < deadline && attempts < 500) {
    attempts++;
    const answer = await send({ port, path: '/v1/anime/1', from, timeoutMs: Math.max(1, deadline - now()) });
    if (answer.status === 200) return { at, ms: now() - started, attempts };
    last = answer.status === undefined ? answer.error : `status ${answer.status}`;
    await sleep(answer.status === undefined ? 100 : 300);
  }
  return { at, attempts, last };
}

async function slots(): Promise<SlotsResult> {
  const server = await startServer('slots');
  const sockets: Socket[] = [];
  try {
    const burst = (n: number) => Buffer.from('GET /v1/openapi.json HTTP/1.1\r\nHost: bench\r\n\r\n'.repeat(n), 'latin1');
    // Each connection writes its first burst as it opens, so that it has an answer in progress when
    // the next ones arrive; past the cap, the server may close it only when it has not.
    const first = Math.min(KNOBS.slotBurst, KNOBS.slotRequests);
    for (let i = 0; i < KNOBS.slotSockets; i++) {
      const socket = await openSilent(server.port, `127.0.0.${100 + (i % KNOBS.slotAddresses)}`).catch(() => undefined);
      if (!socket) continue;
      socket.write(burst(first));
      sockets.push(socket);
    }
    for (let written = first; written < KNOBS.slotRequests; written += KNOBS.slotBurst) {
      await sleep(1_050);
      for (const socket of sockets) if (!socket.destroyed) socket.write(burst(Math.min(KNOBS.slotBurst, KNOBS.slotRequests - written)));
    }
    log(`slots: ${sockets.length} of ${KNOBS.slotSockets} connections wrote ${KNOBS.slotRequests} requests each and read nothing`);
    const t0 = now();
    // Each on time, whatever the one before it waited, and from an address of its own, so that no limit of another counts.
    const fresh = await Promise.all(
      KNOBS.freshAt.map(async (at, i) => {
        await sleep(t0 + at * 1_000 - now());
        const client = await freshClient(server.port, `127.0.0.${3 + i}`, at);
        log(`slots: fresh client at ${at} s: ${client.ms === undefined ? `no 200 within ${KNOBS.freshWindowSeconds} s (${client.attempts} attempts, last: ${client.last})` : `200 after ${client.ms.toFixed(0)} ms (${client.attempts} attempts)`}`);
        return client;
      }),
    );
    return { sockets: KNOBS.slotSockets, connected: sockets.length, requestsEach: KNOBS.slotRequests, burst: KNOBS.slotBurst, maxConnections: KNOBS.maxConnections, windowSeconds: KNOBS.freshWindowSeconds, fresh };
  } finally {
    for (const socket of sockets) socket.destroy();
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. /v1/anime/20 during 30 concurrent searches on PostgreSQL

/** Scenario 3's figures. */
export interface SearchResult {
  schema: string;
  imported?: { seconds: number; records: number };
  searchers: number;
  addresses: number;
  seconds: number;
  /** The searches themselves. */
  searches: ProbeStats;
  /** Searches in flight on average over the window (their summed latency over its length): the limits cap the rate, so fast answers mean few at once. */
  inFlight: number;
  /** `/v1/anime/20` every `probeEveryMs`: with the server idle, then during the searches. */
  probeEveryMs: number;
  idle: ProbeStats;
  loaded: ProbeStats;
}

/** Fuzzy queries: a title of the set with one typo, or a fragment of it; never the same twice in a run (a cache hit is not a search). */
function queryMaker(titles: readonly string[]): () => string {
  const rand = mulberry32(44);
  const usable = titles.map((t) => normalizeTitle(t)).filter((t) => /^[a-z0-9 ]{8,}$/.test(t));
  const used = new Set<string>();
  return () => {
    for (let i = 0; i < 100; i++) {
      const title = usable[Math.floor(rand() * usable.length)]!;
      const words = title.split(' ');
      const text = words.length >= 3 && rand() < 0.4 ? words.slice(0, 2 + Math.floor(rand() * (words.length - 1))).join(' ') : title;
      const q = oneTypo(text, rand).slice(0, 100);
      if (used.has(q)) continue;
      used.add(q);
      return q;
    }
    return `${usable[0]!} ${used.size}`;
  };
}

async function search(): Promise<SearchResult> {
  const url = databaseUrl!;
  const schema = KNOBS.schema;
  const store = createPostgresStore({ url, schema, max: 2 });
  let titles: string[];
  let imported: SearchResult['imported'];
  try {
    imported = await ensureBenchSchema(store, { url, schema, reimport: options.reimport, log });
    // Vacuumed and analyzed after an import, as later runs find it, rather than with autovacuum at work.
    if (imported) await store.analyze();
    titles = (await store.pluck('anime', 'title', { offset: 0, limit: 2 ** 31 })) as string[];
  } finally {
    await store.close();
  }
  const nextQuery = queryMaker(titles);
  const server = await startServer('search');
  try {
    const { port } = server;
    // Warm-up from an address of its own: the pool's connections, the statements, the JIT.
    for (let i = 0; i < 4; i++) {
      await send({ port, path: '/v1/anime/20', from: '127.0.0.4', timeoutMs: 10_000 });
      await send({ port, path: `/v1/anime?q=${encodeURIComponent(nextQuery())}`, from: '127.0.0.5', timeoutMs: 10_000 });
      await sleep(PACE_MS * 2);
    }
    log(`search: /v1/anime/20 idle for ${KNOBS.idleSeconds} s`);
    const idleAgent = await keptAlive(port, '/v1/anime/20', '127.0.0.2');
    const idle = await probe({ port, path: '/v1/anime/20', from: '127.0.0.2', agent: idleAgent, everyMs: KNOBS.probeEveryMs, until: now() + KNOBS.idleSeconds * 1_000 });

    log(`search: ${KNOBS.searchers} clients searching from ${KNOBS.searchAddresses} addresses for ${KNOBS.searchSeconds} s`);
    const until = now() + KNOBS.searchSeconds * 1_000;
    const addresses = Array.from({ length: KNOBS.searchAddresses }, (_, i) => `127.0.0.${10 + i}`);
    const nextSlot = new Map(addresses.map((a) => [a, now()]));
    const searches: Answer[] = [];
    const most = Math.ceil((KNOBS.searchSeconds * 1_000) / PACE_MS) + 1;
    const searcher = async (i: number) => {
      const from = addresses[i % addresses.length]!;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let n = 0; n < most; n++) {
          // Closed loop, paced per address: the next request waits for this one and for the address's next slot.
          const at = Math.max(now(), nextSlot.get(from)!);
          if (at >= until) break;
          nextSlot.set(from, at + PACE_MS);
          await sleep(at - now());
          searches.push(await send({ port, path: `/v1/anime?q=${encodeURIComponent(nextQuery())}`, from, agent, timeoutMs: Math.max(1_000, until - now() + 10_000) }));
        }
      } finally {
        agent.destroy();
      }
    };
    const searching = Promise.all(Array.from({ length: KNOBS.searchers }, (_, i) => searcher(i)));
    // The probe starts once every searcher has its first request out.
    await sleep(1_000);
    const loadedAgent = await keptAlive(port, '/v1/anime/20', '127.0.0.3');
    const loaded = await probe({ port, path: '/v1/anime/20', from: '127.0.0.3', agent: loadedAgent, everyMs: KNOBS.probeEveryMs, until });
    await searching;
    const result: SearchResult = {
      schema,
      imported,
      searchers: KNOBS.searchers,
      addresses: KNOBS.searchAddresses,
      seconds: KNOBS.searchSeconds,
      searches: statsOf(searches),
      inFlight: searches.reduce((sum, a) => sum + a.ms, 0) / (KNOBS.searchSeconds * 1_000),
      probeEveryMs: KNOBS.probeEveryMs,
      idle: statsOf(idle),
      loaded: statsOf(loaded),
    };
    log(
      `search: /v1/anime/20 idle p50 ${result.idle.p50.toFixed(1)} / p99 ${result.idle.p99.toFixed(1)} ms, during searches p50 ${result.loaded.p50.toFixed(1)} / p99 ${result.loaded.p99.toFixed(1)} ms; ` +
        `${searches.length} searches (${result.inFlight.toFixed(1)} in flight on average), ${JSON.stringify(result.searches.statuses)}`,
    );
    return result;
  } finally {
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------

/** A scenario's outcome: its figures, or why there are none. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; skipped?: true; reason: string };

/** What `--json` prints as its last line. */
export interface AbuseResult {
  knobs: typeof KNOBS;
  /** The variables set on the servers, by scenario (`null`: unset), and `ABUSE_SERVER_ENV`'s. */
  serverEnv: Record<string, Record<string, string | null>>;
  flood?: Outcome<FloodResult>;
  slots?: Outcome<SlotsResult>;
  search?: Outcome<SearchResult>;
}

async function attempt<T>(name: Scenario, run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    log(`${name}: failed: ${(error as Error).message}`);
    return { ok: false, reason: (error as Error).message.split('\n')[0]!.slice(0, 300) };
  }
}

const shown = (vars: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v === undefined ? null : k === 'DATABASE_URL' ? 'set' : v]));
const result: AbuseResult = {
  knobs: KNOBS,
  serverEnv: { all: shown(SERVER_ENV.all), flood: shown(SERVER_ENV.flood), slots: shown(SERVER_ENV.slots), search: shown(SERVER_ENV.search), extra: extraEnv },
};
if (only.includes('flood')) result.flood = await attempt('flood', flood);
if (only.includes('slots')) result.slots = await attempt('slots', slots);
if (only.includes('search')) {
  const missing = databaseUrl ? missingBenchData() : 'DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)';
  result.search = missing ? { ok: false, skipped: true, reason: missing } : await attempt('search', search);
}

// Exits once it is written: sockets of a timed-out probe may linger, and nothing else is left to wait for.
process.stdout.write(`${options.json ? JSON.stringify(result) : JSON.stringify(result, null, 2)}\n`, () => process.exit(0));
