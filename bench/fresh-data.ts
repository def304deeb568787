/**
 * Fresh data (the `fresh-data` section of `npm run bench`): the refresher against a fake Jikan v4
 * upstream (`createFakeUpstream` from the testkit, holding the demo catalogue). Five measurements:
 *
 * 1. **budget**: the Node example (memory store, demo catalogue, `CACHE=off`, `RATE_LIMIT=off`) with
 *    `UPSTREAM_URL` at the fake, `UPSTREAM_MAX_PER_SECOND=5`, `UPSTREAM_MAX_PER_MINUTE=120` and
 *    `UPSTREAM_TIME_SCALE=3600` (every interval an hour shorter per second, so work always waits).
 *    After a warm-up, the requests the fake received over a 60 s window (nothing else asking the
 *    server), against the 120 a minute allowed; and every sliding 1 s and 60 s window of the whole log against the limits
 *    (`checkRequestLog`, no arrival slack: as the upstream counts arrivals; the fake refuses what exceeds them).
 *    Real clock.
 * 2. **staleness**: a refresher on an injected virtual clock (the fakes of
 *    `packages/core/test/upstream-fakes.ts`: a map source taking its slots from the memory state's
 *    ledger at the public Jikan's 3/s and 60/min) over the demo catalogue for 30 virtual days with
 *    the default schedule. Each request answered is a task completed; its staleness is the time since
 *    the same task's previous completion, or for its first, the tier's interval plus how overdue it
 *    ran (its `dueAt` when taken). p50/p99 per tier against the tier's interval (the `new` tier's
 *    recurring tasks are page 1 of the discovery listings, every `discovery` interval). Deterministic.
 * 3. **demand**: `scheduleDemand(FULL_SCALE)` (28k anime, 70k manga) per tier and in all, as a share
 *    of the public Jikan's daily budget (3/s, 60/min: 86,400 requests a day). Arithmetic.
 * 4. **new id**: two Node examples on one PostgreSQL schema and one Redis (as the end-to-end test
 *    `examples/node/test/fresh-data.test.ts` starts them: limits 20/s and 1,200/min, time scale 3600);
 *    a new id set upstream, then each instance asked for it every 100 ms: the seconds to its first
 *    200 on each. Skipped without `DATABASE_URL` and `REDIS_URL`.
 * 5. **api**: the API's p99 under the same steady load (an open-loop client in this process, 200
 *    requests a second, four routes in turn; a saturating `wrk` starves the refresher) against the
 *    server of (1) while its refresher runs, and against the same server without `UPSTREAM_URL`
 *    (idle), both running side by side, in rounds idle, busy, busy, idle… after (1)'s window; the
 *    p99 of all of each one's answers over its rounds; the bar is busy within 20 % of idle. For (1) and (5) the fake
 *    upstream runs in a process of its own (`lib/fake-upstream-process.ts`), as a real upstream does:
 *    in this process, its answers to the refresher held up the timing of the API's answers.
 *
 * The servers run from the sources (`node --import tsx examples/node/server.ts`), as `bench/abuse.ts`
 * starts them. Usage: `npx tsx --tsconfig packages/store-postgres/test/tsconfig.json bench/fresh-data.ts
 * [--json] [--only budget,staleness,demand,newid]` (`budget` includes the API rounds). Progress on
 * stderr; the result on stdout as JSON (one line with `--json`), see {@link FreshDataResult}.
 * @module
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import postgres from 'postgres';
import { JIKAN_LIMITS } from '../packages/core/src/upstream/budget.ts';
import { createMemoryRefreshState } from '../packages/core/src/upstream/memory-state.ts';
import { createRefresher } from '../packages/core/src/upstream/refresher.ts';
import { createRecordWriter } from '../packages/core/src/upstream/writer.ts';
import { DAY, DEFAULT_INTERVALS, FULL_SCALE, scheduleDemand, TIERS } from '../packages/core/src/upstream/schedule.ts';
import type { RefreshState, Task, TierName } from '../packages/core/src/upstream/types.ts';
import { createMapSource, createVirtualClock } from '../packages/core/test/upstream-fakes.ts';
import { checkRequestLog, createFakeUpstream, newAnimeLike, type FakeRecord, type FakeRequestRecord, type FakeUpstream } from '../packages/testkit/src/fake-upstream.ts';
import { freePort, killOnExit, spawnNodeExample, stopChild } from './lib/example.mjs';

const PARTS = ['budget', 'staleness', 'demand', 'newid'] as const;
const { values: options } = parseArgs({ options: { json: { type: 'boolean' }, only: { type: 'string' } } });
const only = options.only?.split(',') ?? [...PARTS];
for (const p of only) if (!PARTS.includes(p as (typeof PARTS)[number])) throw new Error(`--only: unknown part "${p}" (${PARTS.join(', ')})`);
const log = (line: string) => process.stderr.write(`[fresh-data] ${line}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The budget of part 1: small enough that the demo catalogue's work waits at time scale 3600. */
const BUDGET = { perSecond: 5, perMinute: 120 };
const WARMUP_MS = 15_000;
const WINDOW_MS = 60_000;
/** The public Jikan's daily budget at 3/s and 60/min: 60 × 60 × 24. */
const JIKAN_DAILY = 86_400;
const API_ROUNDS = 8;
const API_SECONDS = 5;
/** Requests a second of the API rounds: a steady load, well under what one core serves. */
const API_RATE = 200;
/**
 * Arrival jitter forgiven when checking the log: none. The budget keeps a margin for requests that
 * leave or arrive late (`BudgetOptions.marginMs`), so the fake counts every sliding window exactly
 * as an upstream counting arrivals does, and refuses (429) what exceeds it.
 */
const SLACK_MS = 0;
const API_PATHS = ['/v1/anime/1', '/v1/anime?q=cowboy&limit=10', '/v1/manga/1', '/v1/top/anime?limit=25'];

/** What this piece prints. */
export interface FreshDataResult {
  budget?: {
    limits: { perSecond: number; perMinute: number };
    windowSeconds: number;
    requestsInWindow: number;
    share: number;
    slackMs: number;
    maxPerSecond: number;
    maxPerMinute: number;
    ok: boolean;
    strict: { ok: boolean; maxPerSecond: number; maxPerMinute: number };
    /** Up to the end of the window, before the API rounds. */
    quiet: { ok: boolean; maxPerSecond: number; maxPerMinute: number };
    violations: number;
    logged: number;
  };
  api?: { paths: string[]; rounds: number; seconds: number; idleP99: number[]; busyP99: number[]; idleRps: number[]; busyRps: number[]; idle: number; busy: number; ratio: number; busyFetched: number };
  staleness?: {
    days: number;
    limits: { perSecond: number; perMinute: number };
    entries: { anime: number; manga: number };
    tiers: Array<{ tier: TierName; targetMs: number; n: number; p50: number; p99: number }>;
    requests: number;
    wallSeconds: number;
  };
  demand?: { daily: number; tiers: Array<{ tier: TierName; perDay: number; share: number }>; total: number; share: number };
  newid?: { skipped?: string; seconds?: number[]; upstreamRequests?: number };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);

// ---------------------------------------------------------------------------------------------
// Servers

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(1));

interface Server {
  child: ChildProcess;
  url: string;
  stderr(): string;
}

/** The Node example from its sources, as `npm start` runs it, with `env` over this process's (undefined: unset). */
async function startServer(label: string, vars: Record<string, string | undefined>): Promise<Server> {
  const port = await freePort();
  const { child, stderr } = spawnNodeExample({ HOST: '127.0.0.1', RATE_LIMIT: 'off', ...vars, PORT: String(port) }, 'ignore');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${label}: the server exited: ${stderr().slice(-500)}`);
    if (Date.now() > deadline) throw new Error(`${label}: /healthz did not answer within 90 s: ${stderr().slice(-500)}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(100);
  }
  log(`${label}: server ${child.pid} ready at ${url}`);
  return { child, url, stderr };
}

/** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
const stopServer = (server: Server) => stopChild(server.child, 5_000);

/** The fake upstream's log as its process holds it. */
interface UpstreamLog {
  log: FakeRequestRecord[];
  violations: number;
}

/**
 * `demoUpstream` in a process of its own (`bench/lib/fake-upstream-process.ts`), for the API
 * rounds: answering the refresher there takes no time from this process, which times the API.
 */
async function demoUpstreamProcess(limits: { perSecond: number; perMinute: number }): Promise<{ url: string; read(): Promise<UpstreamLog>; close(): Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./lib/fake-upstream-process.ts', import.meta.url)), [JSON.stringify({ ...limits, slackMs: SLACK_MS })], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  killOnExit(child);
  const next = <T>() => new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`the fake upstream's process exited (${code})`)));
  });
  const { url } = await next<{ url: string }>();
  return {
    url,
    read() {
      const answer = next<UpstreamLog>();
      child.send('log');
      return answer;
    },
    async close() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send('close');
      await exited;
    },
  };
}

async function demoUpstream(limits: { perSecond: number; perMinute: number }): Promise<FakeUpstream> {
  return createFakeUpstream({
    anime: demoData.anime as unknown as FakeRecord[],
    manga: demoData.manga as unknown as FakeRecord[],
    backing: createCatalogueApp({ store: createMemoryStore(demoData) }),
    limits,
    slackMs: SLACK_MS,
  });
}

// ---------------------------------------------------------------------------------------------
// The API client

/**
 * An open-loop client: one request every `1000 / rate` ms (the paths in turn), whether or not the
 * last has answered, so that the server is loaded but not saturated and its refresher can run.
 */
async function pacedRound(url: string, seconds: number, rate = API_RATE): Promise<{ p99: number; rps: number; non2xx: number; latencies: number[] }> {
  const latencies: number[] = [];
  let non2xx = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; performance.now() - started < seconds * 1000; i++) {
    const at = started + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    inFlight.push(
      fetch(`${url}${API_PATHS[i % API_PATHS.length]}`).then(
        async (r) => {
          await r.arrayBuffer();
          if (r.status >= 300) non2xx++;
          latencies.push(performance.now() - sent);
        },
        () => void non2xx++,
      ),
    );
  }
  await Promise.all(inFlight);
  const sorted = latencies.sort((a, b) => a - b);
  return { p99: percentile(sorted, 99), rps: latencies.length / seconds, non2xx, latencies: sorted };
}

// ---------------------------------------------------------------------------------------------
// 1 and 5: the budget used, and the API beside a running refresh

async function budgetAndApi(result: FreshDataResult): Promise<void> {
  const upstream = await demoUpstreamProcess(BUDGET);
  const common = { DEMO_DATA: 'on', CACHE: 'off', DATABASE_URL: undefined, REDIS_URL: undefined, METRICS_PORT: undefined };
  const rounds = { idle: [] as { p99: number; rps: number; latencies: number[] }[], busy: [] as { p99: number; rps: number; latencies: number[] }[] };
  // Both servers run side by side, so that each round of one has the other beside it.
  const idle = await startServer('idle', { ...common, UPSTREAM_URL: undefined });
  const busy = await startServer('busy', {
    ...common,
    UPSTREAM_URL: upstream.url,
    UPSTREAM_MAX_PER_SECOND: String(BUDGET.perSecond),
    UPSTREAM_MAX_PER_MINUTE: String(BUDGET.perMinute),
    UPSTREAM_TIME_SCALE: '3600',
  });
  try {
    log(`budget: warm-up ${WARMUP_MS / 1000} s`);
    const warm = Date.now();
    await pacedRound(idle.url, 2);
    await pacedRound(busy.url, 2);
    await sleep(Math.max(0, warm + WARMUP_MS - Date.now()));
    const from = Date.now();
    const windowEnd = from + WINDOW_MS;
    // The window with nothing else asking the server; the API rounds come after it, the refresher still busy.
    await sleep(Math.max(0, windowEnd - Date.now()));
    const atWindowEnd = (await upstream.read()).log;
    const before = atWindowEnd.filter((r) => r.time < from).length;
    const inWindow = atWindowEnd.filter((r) => r.time >= from && r.time < windowEnd).length;
    const quiet = checkRequestLog(atWindowEnd.filter((r) => r.time < windowEnd), BUDGET, { slackMs: SLACK_MS });
    {
      // Rounds in the order idle, busy, busy, idle, …: neither is always first.
      for (let i = 0; i < API_ROUNDS * 2; i++) {
        const which = [0, 3].includes(i % 4) ? 'idle' : 'busy';
        const r = await pacedRound(which === 'idle' ? idle.url : busy.url, API_SECONDS);
        if (r.non2xx) throw new Error(`${which}: ${r.non2xx} answers not 2xx`);
        rounds[which].push(r);
        log(`api ${which} round ${rounds[which].length}: p99 ${r.p99.toFixed(2)} ms, ${r.rps.toFixed(0)} req/s`);
      }
    }
    const { log: requests, violations } = await upstream.read();
    const apiFetched = requests.filter((r) => r.time >= windowEnd).length;
    const check = checkRequestLog(requests, BUDGET, { slackMs: SLACK_MS });
    const strict = checkRequestLog(requests, BUDGET);
    result.budget = {
      limits: BUDGET,
      windowSeconds: WINDOW_MS / 1000,
      requestsInWindow: inWindow,
      share: inWindow / BUDGET.perMinute,
      slackMs: SLACK_MS,
      maxPerSecond: check.maxPerSecond,
      maxPerMinute: check.maxPerMinute,
      ok: check.ok,
      strict,
      quiet,
      violations,
      logged: requests.length,
    };
    log(`budget: ${inWindow} requests in ${WINDOW_MS / 1000} s (${before} before it); max ${check.maxPerSecond}/s, ${check.maxPerMinute}/min (no arrival slack); ${violations} refused by the fake`);
    {
      // The p99 of every answer of a server's rounds: one p99 over 8,000 answers, not a median of
      // eight p99s each resting on its ten slowest answers.
      const pooled = (of: { latencies: number[] }[]) => percentile(of.flatMap((r) => r.latencies).sort((x, y) => x - y), 99);
      const i = pooled(rounds.idle);
      const b = pooled(rounds.busy);
      result.api = {
        paths: API_PATHS,
        rounds: API_ROUNDS,
        seconds: API_SECONDS,
        idleP99: rounds.idle.map((r) => r.p99),
        busyP99: rounds.busy.map((r) => r.p99),
        idleRps: rounds.idle.map((r) => r.rps),
        busyRps: rounds.busy.map((r) => r.rps),
        idle: i,
        busy: b,
        ratio: b / i,
        busyFetched: apiFetched,
      };
    }
  } finally {
    await Promise.all([stopServer(idle), stopServer(busy)]);
    await upstream.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2: staleness over 30 virtual days

async function staleness(result: FreshDataResult): Promise<void> {
  const started = performance.now();
  const T0 = Date.UTC(2026, 9, 15);
  const days = 30;
  const vc = createVirtualClock(T0);
  const store = createMemoryStore(demoData);
  const memory = createMemoryRefreshState();
  const dueAt = new Map<string, number>();
  // The state as the refresher sees it, noting each task's `dueAt` when it is handed out.
  const state: RefreshState = Object.create(memory) as RefreshState;
  state.due = async (now: number, limit: number) => {
    const tasks: Task[] = await memory.due(now, limit);
    for (const t of tasks) dueAt.set(t.key, t.dueAt);
    return tasks;
  };
  const fake = createMapSource({ clock: vc.clock, sleep: vc.sleep, ledger: memory, limits: JIKAN_LIMITS });
  for (const a of demoData.anime) fake.set('anime', a);
  for (const m of (demoData.manga ?? [])) fake.set('manga', m);
  const target: Record<TierName, number> = { ...DEFAULT_INTERVALS, new: DEFAULT_INTERVALS.discovery };
  const last = new Map<string, number>();
  const ages: Record<TierName, number[]> = { new: [], hot: [], stats: [], popular: [], full: [] };
  const end = T0 + days * DAY;
  const refresher = createRefresher({
    store,
    source: fake.source,
    state,
    writer: createRecordWriter(store),
    clock: vc.clock,
    sleep: vc.sleep,
    holder: 'bench',
    leaseMs: 30 * 60_000,
    onEvent: (e) => {
      if (e.type !== 'fetched') return;
      const now = vc.clock();
      if (now >= end) return;
      const previous = last.get(e.task);
      const due = dueAt.get(e.task);
      const age = previous !== undefined ? now - previous : target[e.tier] + Math.max(0, now - (due ?? now));
      ages[e.tier].push(age);
      last.set(e.task, now);
    },
  });
  refresher.start();
  let lastDay = -1;
  for (let t = T0; t < end; t += DAY) {
    await vc.runUntil(Math.min(end - 1, t + DAY));
    const day = Math.floor((vc.clock() - T0) / DAY);
    if (day !== lastDay && day % 5 === 0) log(`staleness: virtual day ${day}, ${fake.log.length} requests`);
    lastDay = day;
  }
  await refresher.stop();
  result.staleness = {
    days,
    limits: JIKAN_LIMITS,
    entries: { anime: demoData.anime.length, manga: (demoData.manga ?? []).length },
    tiers: TIERS.map((tier) => {
      const sorted = ages[tier].sort((a, b) => a - b);
      return { tier, targetMs: target[tier], n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    }),
    requests: fake.log.filter((r) => r.at < end).length,
    wallSeconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// 3: demand at full scale

function demand(result: FreshDataResult): void {
  const d = scheduleDemand(FULL_SCALE);
  result.demand = {
    daily: JIKAN_DAILY,
    tiers: TIERS.map((tier) => ({ tier, perDay: d[tier], share: d[tier] / JIKAN_DAILY })),
    total: d.total,
    share: d.total / JIKAN_DAILY,
  };
}

// ---------------------------------------------------------------------------------------------
// 4: a new id through two instances

async function newId(result: FreshDataResult): Promise<void> {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL) {
    result.newid = { skipped: `${!DATABASE_URL ? 'DATABASE_URL' : 'REDIS_URL'} is not set` };
    log(`new id: skipped, ${result.newid.skipped}`);
    return;
  }
  const limits = { perSecond: 20, perMinute: 1_200 };
  const upstream = await demoUpstream(limits);
  const tag = Math.random().toString(36).slice(2, 10);
  const schema = `fresh_bench_${tag}`;
  const servers: Server[] = [];
  try {
    const vars = {
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      DEMO_DATA: 'on',
      REDIS_URL,
      REDIS_PREFIX: `fresh-bench-${tag}:`,
      UPSTREAM_URL: upstream.url,
      UPSTREAM_MAX_PER_SECOND: String(limits.perSecond),
      UPSTREAM_MAX_PER_MINUTE: String(limits.perMinute),
      UPSTREAM_TIME_SCALE: '3600',
      METRICS_PORT: undefined,
    };
    // One after the other: the first seeds the demo catalogue into the new schema.
    servers.push(await startServer('new id, instance 1', vars));
    servers.push(await startServer('new id, instance 2', vars));
    const id = Math.max(...demoData.anime.map((a) => a.mal_id)) + 1_000;
    const airing = demoData.anime.find((a) => a.airing)!;
    for (const s of servers) {
      const status = (await fetch(`${s.url}/v1/anime/${id}`)).status;
      if (status !== 404) throw new Error(`new id: ${s.url} answered ${status} before the id existed`);
    }
    const before = upstream.log.length;
    const setAt = performance.now();
    upstream.set('anime', newAnimeLike(airing, id, 'A new entry upstream'));
    const seconds = await Promise.all(
      servers.map(async (s) => {
        for (;;) {
          const status = await fetch(`${s.url}/v1/anime/${id}`).then(
            (r) => (r.body?.cancel(), r.status),
            () => 0,
          );
          const elapsed = (performance.now() - setAt) / 1000;
          if (status === 200) return elapsed;
          if (elapsed > 120) return NaN;
          await sleep(100);
        }
      }),
    );
    result.newid = { seconds, upstreamRequests: upstream.log.length - before };
    log(`new id: first 200 after ${seconds.map((s) => s.toFixed(1)).join(' s and ')} s`);
  } finally {
    await Promise.all(servers.map(stopServer));
    await upstream.close();
    const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => undefined });
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql.end();
  }
}

// ---------------------------------------------------------------------------------------------

const result: FreshDataResult = {};
if (only.includes('demand')) demand(result);
if (only.includes('staleness')) await staleness(result);
if (only.includes('newid')) await newId(result);
if (only.includes('budget')) await budgetAndApi(result);
process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
