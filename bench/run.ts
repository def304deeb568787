/**
 * `npm run bench`: every benchmark behind the performance bars in one run, one piece at a time (they compete for the
 * same cores), then `docs/benchmarks.md` written from what the pieces printed. Each piece is a child
 * process whose last stdout line is JSON (`--json`); its progress goes to stderr untouched.
 *
 * 1. HTTP (`bench/http-adapters.mjs`, wrk): each runtime's adapter and example app against that
 *    runtime's raw server sending the same bytes.
 * 1b. Examples (`bench/examples.mjs`, wrk): the example servers as the README starts them
 *    (`npm start`, `start:bun`, `start:deno`; access log and request ids on, `RATE_LIMIT=off`), with
 *    and without the response cache, against each runtime's raw server sending the same bytes. The
 *    HTTP bars on the example are read here; section 1's own app variants stay as context.
 * 2. Search (`bench/search.ts`, `bench/search-postgres.ts`): recall per kind against its target,
 *    empty answers over the one-edit battery, latency and the slowest queries, for anime and manga
 *    over the full-scale set on the memory and PostgreSQL stores, how alike the two rank, and recall
 *    on the demo set.
 * 3. Start-up (`bench/startup.ts`): load time and memory of the memory store at full scale (run
 *    before the search pieces, which leave PostgreSQL busy after an import).
 * 4. Gateway (`bench/gateway.ts`): per-request cost, memory and Redis back ends.
 * 5. Operations (`bench/operations.mjs`, wrk): the access log and metrics on the cache-hit path,
 *    the example server with both on against the same server with both off (request ids on, their
 *    default) and with nothing observed at all, and with a fixed busy-wait per answer as the
 *    machine's yardstick.
 * 6. Every route on PostgreSQL (`bench/postgres-routes.ts`): the built Node example over the
 *    full-scale set imported with the CLI, per-route p50/p99, first answers after a fresh start,
 *    peak RSS, a second instance's answers, and an upsert of 100 records seen by both at once.
 * 7. Abuse (`bench/abuse.ts`): the Node example as `npm start` runs it, rate limits on, against one
 *    connection pipelining 100,000 requests it never reads (RSS growth, a `/healthz` probe's latency),
 *    55 connections that never read at `MAX_CONNECTIONS=50` (a fresh client's time to its 200), and
 *    30 concurrent searches on PostgreSQL (`/v1/anime/20` p50/p99 beside them).
 * 8. Fresh data (`bench/fresh-data.ts`): the refresher against a fake Jikan v4 upstream holding the
 *    demo catalogue: requests a minute used against the budget, staleness per tier over 30 virtual
 *    days, the schedule's demand at full scale against the public Jikan's daily budget, a new id's
 *    time to its first 200 on two instances (PostgreSQL + Redis), and API p99 while a refresh runs.
 *
 * Usage:
 *
 *     REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
 *     npm run bench -- --quick              # short durations, written to bench/.results/, not docs/
 *     npm run bench -- --only search,startup --no-build
 *     npm run bench -- --only abuse --no-build  # its servers' settings: SERVER_ENV in bench/abuse.ts
 *     npm run bench -- --only fresh-data --no-build
 *     npm run bench -- --render bench/.results/<run>.json   # rewrite the page from a saved run
 *
 * Without `wrk` on the PATH the HTTP section is skipped, without `DATABASE_URL` the PostgreSQL
 * search, without `REDIS_URL` the Redis gateway variants; the page says which and why. The HTTP
 * section needs built packages, so it runs `npm run build` first (`--no-build` to skip); the rest
 * run from sources with tsx. `bench/.data` is built by `npm run build:bench-data` when missing.
 * Every run's raw JSON is kept in `bench/.results/` (git-ignored).
 * @module
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AbuseResult } from './abuse.ts';
import { KIND_CUTOFF, KIND_TARGET, QUERY_KINDS, WITHIN_ONE_EDIT, type QueryKind } from './lib/battery.ts';
import type { FreshDataResult } from './fresh-data.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

// ---------------------------------------------------------------------------------------------
// Options

const SECTIONS = ['http', 'examples', 'search', 'startup', 'gateway', 'operations', 'routes', 'abuse', 'fresh-data'] as const;
type Section = (typeof SECTIONS)[number];

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
if (flag('--help') || flag('-h')) {
  console.log('usage: npm run bench -- [--quick] [--no-build] [--only http,examples,search,startup,gateway,operations,routes,abuse,fresh-data] [--out FILE] [--render RESULTS.json]');
  process.exit(0);
}
const quick = flag('--quick');
const only = value('--only')?.split(',') as Section[] | undefined;
for (const s of only ?? []) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section "${s}" (${SECTIONS.join(', ')})`);
const wanted = (s: Section) => !only || only.includes(s);
const resultsDir = `${root}bench/.results/`;
// A quick or partial run is for trying things out: it never overwrites the published page.
const pageFor = (run: Run) => value('--out') ?? (run.quick || run.only ? `${resultsDir}benchmarks.md` : `${root}docs/benchmarks.md`);

/**
 * Durations and repetitions of a run: the method the page states. The operations piece takes more
 * rounds than the HTTP one, each in 1 s slices side by side: its ratio is of servers a few per cent
 * apart, and on a shared machine a round can land in a slow spell of one server only. Its rounds
 * come in fours, so that each of its four servers is started first in as many rounds as the others.
 */
const plan = quick
  ? { httpDuration: '2s', httpWarmup: '1s', httpRounds: 1, operationsRounds: 3, operationsSlices: 3, searchRuns: 1, searchPasses: 1, pgPasses: 1, startupRuns: 1, gatewayRequests: 5_000, gatewayRounds: 2 }
  : { httpDuration: '5s', httpWarmup: '2s', httpRounds: 3, operationsRounds: 8, operationsSlices: 6, searchRuns: 3, searchPasses: 2, pgPasses: 1, startupRuns: 3, gatewayRequests: 20_000, gatewayRounds: 5 };
/** A piece that runs longer than this is stopped (its process group) and reported as timed out. */
const TIMEOUT_MS = { examples: 30 * 60_000, http: 40 * 60_000, search: 5 * 60_000, postgres: 20 * 60_000, startup: 5 * 60_000, gateway: 10 * 60_000, operations: 20 * 60_000, routes: 40 * 60_000, abuse: 15 * 60_000, freshData: 10 * 60_000 };

// ---------------------------------------------------------------------------------------------
// What a run records

interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface Recall {
  n: number;
  hit1: number;
  hit5: number;
  hit10: number;
  /** Queries answered with no result at all. */
  empty: number;
}
type RecallByKind = Partial<Record<QueryKind | 'all', Recall>>;
/** The slowest queries of a battery, slowest first. */
type Slowest = { ms: number; kind: string; q: string }[];
/** What `bench/search.ts --json` prints for one kind of record. */
interface SearchKindResult {
  entries: number;
  battery: Stats;
  batteryCpu: Stats;
  recall: RecallByKind;
  slowest: Slowest;
}
/** What `bench/search.ts --json` prints. */
interface SearchResult {
  buildMs: number;
  anime: SearchKindResult;
  manga: SearchKindResult;
  short: Stats;
  long200: Stats;
}
/** What `bench/search-postgres.ts --json` prints for one kind of record. */
interface PostgresKindResult {
  entries: number;
  battery: Stats;
  recall: { postgres: RecallByKind; memory: RecallByKind };
  top10OverlapWithMemory: number;
  sameTopHit: number;
  slowest: Slowest;
}
/** What `bench/search-postgres.ts --json` prints. */
interface PostgresResult {
  schema: string;
  import?: { records: number; seconds: number; perSecond: number };
  anime: PostgresKindResult;
  manga: PostgresKindResult;
  filters: Stats;
  short: Stats;
  long200: Stats;
}
interface StartupResult {
  counts: Record<string, number>;
  parseMs: number;
  buildMs: number;
  startMs: number;
  startCpuMs?: number;
  parseCpuMs?: number;
  buildCpuMs?: number;
  firstSearchMs: number;
  heapDataMiB: number;
  heapIndexesMiB: number;
  heapTotalMiB: number;
  rssMiB: number;
  peakRssMiB?: number;
}
interface GatewayResult {
  requests: number;
  rounds: number;
  result: { variant: string; usPerRequest: number; ratio: number }[];
}
/** A row of `bench/http-adapters.mjs --json`; `request` is absent in its older output. */
interface HttpRow {
  runtime: string;
  variant: string;
  request?: string;
  bytes?: number;
  rps: number;
  p50: number;
  p99: number;
  ratio?: number | null;
  non2xx?: number;
  [key: string]: unknown;
}
/** A row of `bench/examples.mjs --json`. */
interface ExampleRow {
  runtime: string;
  mode: 'cache' | 'nocache';
  request: string;
  target: string;
  bytes: number;
  rawRps: number;
  rps: number;
  ratio: number;
  p99: number;
  rawP99: number;
  cpu: number;
  rawCpu: number;
  cpuRatio: number;
}
/** Outcome of one piece: its JSON, or why there is none. */
type Piece<T> = { ok: true; data: T; seconds: number } | { ok: false; skipped?: true; reason: string; seconds?: number };
/** One line of the run log: how long a piece took and how busy the machine was meanwhile. */
interface LogEntry {
  label: string;
  seconds: number;
  /** 1-minute load average when the piece ended (it includes the piece itself). */
  load: number;
  ok: boolean;
}

interface Run {
  startedAt: string;
  finishedAt?: string;
  quick: boolean;
  /** The sections of a partial run (`--only`). */
  only?: Section[];
  plan: typeof plan;
  machine: Record<string, string>;
  commit: string;
  skipped: string[];
  /** Whether this run built the packages the HTTP servers import (false: `--no-build`, the dist/ already there). */
  built?: boolean;
  log?: LogEntry[];
  http?: Piece<HttpRow[]>;
  examples?: Piece<ExampleRow[]>;
  search?: { full: Piece<SearchResult>[]; demo: Piece<SearchResult> };
  postgres?: Piece<PostgresResult>;
  startup?: Piece<StartupResult>[];
  gateway?: Piece<GatewayResult>;
  operations?: Piece<OperationsResult>;
  routes?: Piece<RoutesResult>;
  abuse?: Piece<AbuseResult>;
  freshData?: Piece<FreshDataResult>;
}

/** What `bench/postgres-routes.ts --json` prints. */
interface RoutesResult {
  imported?: { seconds: number; records: number };
  /** Requests per route. */
  requests: number;
  startMs: number;
  rssMb: number;
  routes: Array<{ route: string; first: number; p50: number; p99: number; statuses: string }>;
  secondInstance: { compared: number; differing: number };
  upsert: { records: number; visibleOnBoth: number };
}

/** What `bench/operations.mjs --json` prints. */
interface OperationsResult {
  /** Servers on CPU 1 and wrk (one thread) on CPU 0, or `wrk -t2` unpinned (absent in results before both were added). */
  pinned?: boolean;
  rows: Array<{
    request: string;
    bytes: number;
    offRps: number;
    onRps: number;
    ratio: number;
    /** on / off of each round. */
    ratios?: number[];
    offCpu: number;
    onCpu: number;
    cpuRatio: number;
    bareRps: number;
    bareRatio: number;
    onBareRatio: number;
    bareCpu: number;
    /** The busy server's wait per answer, in µs; absent in results from before it was measured. */
    busyUs?: number;
    busyRatio?: number;
    busyCpu?: number;
    logLines: number;
  }>;
}

// ---------------------------------------------------------------------------------------------
// Running pieces

const log = (line: string) => process.stderr.write(`\n[bench] ${line}\n`);
const runLog: LogEntry[] = [];

/** Runs one piece; its stderr passes through, its last stdout line is parsed as JSON. */
function runPiece<T>(label: string, command: string, argv: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Piece<T>> {
  log(`${label}: ${[command.replace(root, ''), ...argv.map((a) => a.replace(root, ''))].join(' ')}`);
  const started = performance.now();
  return new Promise((resolve) => {
    // Its own process group, so that a timeout also stops the servers it started.
    const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    let out = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.once('error', (error) => (clearTimeout(timer), resolve({ ok: false, reason: `${label}: ${error.message}` })));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      runLog.push({ label, seconds, load: loadavg()[0]!, ok: !timedOut && code === 0 });
      if (timedOut) return resolve({ ok: false, reason: `timed out after ${options.timeoutMs / 60_000} min`, seconds });
      const last = out.trimEnd().split('\n').at(-1) ?? '';
      try {
        const data = JSON.parse(last) as T;
        if (code !== 0) return resolve({ ok: false, reason: `exited with ${code ?? signal}`, seconds });
        log(`${label}: done in ${seconds.toFixed(0)} s`);
        resolve({ ok: true, data, seconds });
      } catch {
        resolve({ ok: false, reason: `exited with ${code ?? signal} and no JSON line (last: ${JSON.stringify(last.slice(0, 200))})`, seconds });
      }
    });
  });
}

function version(command: string, argv: string[], pick: (out: string) => string | undefined = (o) => o.trim().split('\n')[0]): string {
  const result = spawnSync(command, argv, { encoding: 'utf8' });
  return result.status === 0 || result.stdout || result.stderr ? (pick(`${result.stdout}${result.stderr}`) ?? 'unknown') : 'not found';
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

async function measure(): Promise<Run> {
  const run: Run = {
    startedAt: new Date().toISOString(),
    quick,
    only,
    plan,
    machine: {
      cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'}`,
      memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      os: `${osType()} ${release()}`,
      node: process.version,
      bun: existsSync(bin('bun')) ? version(bin('bun'), ['--version']) : 'not found',
      deno: existsSync(bin('deno')) ? version(bin('deno'), ['--version']) : 'not found',
      'load average at start (1/5/15 min)': loadavg().map((n) => n.toFixed(1)).join(' / '),
      wrk: onPath('wrk') ? version('wrk', ['-v'], (o) => /wrk (\S+)/.exec(o)?.[1]) : 'not found',
    },
    commit:
      version('git', ['-C', root, 'rev-parse', '--short', 'HEAD']) +
      (spawnSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout.trim() ? ' with uncommitted changes in the tree' : ''),
    skipped: [],
  };
  const skip = (what: string) => (run.skipped.push(what), log(`skipped: ${what}`));

  const needData = wanted('search') || wanted('startup') || ((wanted('routes') || wanted('abuse')) && process.env.DATABASE_URL !== undefined);
  if (needData && !existsSync(`${root}bench/.data/anime.json`)) {
    log('bench/.data is missing: npm run build:bench-data');
    execFileSync('npm', ['run', 'build:bench-data'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  }

  // 1. HTTP
  if (wanted('http')) {
    const runtimes = ['node', ...(['bun', 'deno'] as const).filter((r) => run.machine[r] !== 'not found')];
    for (const r of ['bun', 'deno']) if (!runtimes.includes(r)) skip(`HTTP on ${r}: node_modules/.bin/${r} not found (run \`npm install\`)`);
    if (!onPath('wrk')) {
      skip('HTTP section: `wrk` is not on the PATH (Debian/Ubuntu: `sudo apt-get install wrk`; macOS: `brew install wrk`)');
    } else {
      if (!flag('--no-build')) {
        log('npm run build (the HTTP servers import the built packages)');
        execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
        run.built = true;
      } else run.built = false;
      run.http = await runPiece<HttpRow[]>('http', process.execPath, [`${root}bench/http-adapters.mjs`, '--json'], {
        // The adapter alone as well as the example: it tells the adapter's cost from the app's.
        env: { DURATION: plan.httpDuration, WARMUP: plan.httpWarmup, ROUNDS: String(plan.httpRounds), RUNTIMES: runtimes.join(','), VARIANTS: process.env.VARIANTS ?? 'raw,adapter,app,app-cache' },
        timeoutMs: TIMEOUT_MS.http,
      });
      if (run.http.ok && !Array.isArray(run.http.data)) run.http = { ok: false, reason: 'its JSON line is not an array of rows' };
    }
  }

  // 1b. The example servers as the README starts them.
  if (wanted('examples')) {
    const runtimes = ['node', ...(['bun', 'deno'] as const).filter((r) => run.machine[r] !== 'not found')];
    if (!onPath('wrk')) {
      skip('Examples section: `wrk` is not on the PATH (Debian/Ubuntu: `sudo apt-get install wrk`; macOS: `brew install wrk`)');
    } else {
      if (!run.built && !flag('--no-build')) {
        log('npm run build (`start:bun` and `start:deno` serve the built packages)');
        execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
        run.built = true;
      }
      run.examples = await runPiece<ExampleRow[]>('examples', process.execPath, [`${root}bench/examples.mjs`, '--json'], {
        env: { DURATION: plan.httpDuration, WARMUP: plan.httpWarmup, ROUNDS: String(plan.httpRounds), RUNTIMES: runtimes.join(',') },
        timeoutMs: TIMEOUT_MS.examples,
      });
      if (run.examples.ok && !Array.isArray(run.examples.data)) run.examples = { ok: false, reason: 'its JSON line is not an array of rows' };
    }
  }

  // 3. Start-up, before the search pieces: a PostgreSQL import leaves the server busy (autovacuum)
  // for a while, and start-up is the one piece bound by a single core and the memory bus.
  if (wanted('startup')) {
    run.startup = [];
    for (let i = 0; i < plan.startupRuns; i++) {
      run.startup.push(await runPiece<StartupResult>(`start-up (${i + 1}/${plan.startupRuns})`, process.execPath, ['--expose-gc', '--import', 'tsx', `${root}bench/startup.ts`, '--json'], { timeoutMs: TIMEOUT_MS.startup }));
    }
  }

  // 2. Search
  if (wanted('search')) {
    const tsx = bin('tsx');
    const full: Piece<SearchResult>[] = [];
    // One process per run: a fresh heap and JIT each time, as a server starts.
    for (let i = 0; i < plan.searchRuns; i++) {
      full.push(await runPiece<SearchResult>(`search, memory, full (${i + 1}/${plan.searchRuns})`, tsx, [`${root}bench/search.ts`, '--json', '--passes', String(plan.searchPasses)], { timeoutMs: TIMEOUT_MS.search }));
    }
    const demo = await runPiece<SearchResult>('search, memory, demo', tsx, [`${root}bench/search.ts`, '--demo', '--json', '--passes', String(plan.searchPasses)], { timeoutMs: TIMEOUT_MS.search });
    run.search = { full, demo };
    if (!process.env.DATABASE_URL) {
      skip('PostgreSQL search: DATABASE_URL is not set (e.g. `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test`)');
    } else {
      run.postgres = await runPiece<PostgresResult>(
        'search, PostgreSQL, full',
        tsx,
        ['--tsconfig', `${root}packages/store-postgres/test/tsconfig.json`, `${root}bench/search-postgres.ts`, '--json', '--passes', String(plan.pgPasses)],
        { timeoutMs: TIMEOUT_MS.postgres },
      );
    }
  }

  // 4. Gateway
  if (wanted('gateway')) {
    if (!process.env.REDIS_URL) skip('Redis gateway variants: REDIS_URL is not set (e.g. `REDIS_URL=redis://127.0.0.1:6379`)');
    run.gateway = await runPiece<GatewayResult>(
      'gateway',
      bin('tsx'),
      ['--tsconfig', `${root}examples/node/tsconfig.json`, `${root}bench/gateway.ts`, '--json', '--requests', String(plan.gatewayRequests), '--rounds', String(plan.gatewayRounds)],
      { timeoutMs: TIMEOUT_MS.gateway },
    );
  }
  // 5. Operations
  if (wanted('operations')) {
    if (!onPath('wrk')) {
      skip('Operations section: `wrk` is not on the PATH (Debian/Ubuntu: `sudo apt-get install wrk`; macOS: `brew install wrk`)');
    } else {
      if (run.built === undefined && !flag('--no-build')) {
        log('npm run build (the operations piece runs the built Node example)');
        execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
        run.built = true;
      }
      run.operations = await runPiece<OperationsResult>('operations', process.execPath, [`${root}bench/operations.mjs`, '--json'], {
        env: { SLICE: '1s', SLICES: String(plan.operationsSlices), WARMUP: plan.httpWarmup, ROUNDS: String(plan.operationsRounds) },
        timeoutMs: TIMEOUT_MS.operations,
      });
    }
  }
  // 6. Every route on PostgreSQL
  if (wanted('routes')) {
    if (!process.env.DATABASE_URL) skip('Routes on PostgreSQL: DATABASE_URL is not set');
    else {
      if (run.built === undefined && !flag('--no-build')) {
        execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
        run.built = true;
      }
      run.routes = await runPiece<RoutesResult>(
        'routes',
        bin('tsx'),
        ['--tsconfig', `${root}packages/store-postgres/test/tsconfig.json`, `${root}bench/postgres-routes.ts`, '--json', '--requests', quick ? '10' : '200'],
        { timeoutMs: TIMEOUT_MS.routes },
      );
    }
  }
  // 7. Abuse: from the sources, as `npm start` runs the example (no build needed).
  if (wanted('abuse')) {
    if (!process.env.DATABASE_URL) skip('Abuse, searches on PostgreSQL: DATABASE_URL is not set');
    run.abuse = await runPiece<AbuseResult>('abuse', bin('tsx'), ['--tsconfig', `${root}packages/store-postgres/test/tsconfig.json`, `${root}bench/abuse.ts`, '--json'], {
      env: quick ? { ABUSE_IDLE_SECONDS: process.env.ABUSE_IDLE_SECONDS ?? '5', ABUSE_SEARCH_SECONDS: process.env.ABUSE_SEARCH_SECONDS ?? '10' } : {},
      timeoutMs: TIMEOUT_MS.abuse,
    });
  }
  // 8. Fresh data: from the sources, against a fake upstream in the piece's own process.
  if (wanted('fresh-data')) {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL) skip('Fresh data, a new id on two instances: DATABASE_URL or REDIS_URL is not set');
    run.freshData = await runPiece<FreshDataResult>('fresh-data', bin('tsx'), ['--tsconfig', `${root}packages/store-postgres/test/tsconfig.json`, `${root}bench/fresh-data.ts`, '--json'], {
      timeoutMs: TIMEOUT_MS.freshData,
    });
  }
  run.finishedAt = new Date().toISOString();
  run.log = runLog;
  return run;
}

// ---------------------------------------------------------------------------------------------
// The page

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? 'n/a' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const verdict = (met: boolean | undefined) => (met === undefined ? 'n/a' : met ? '**met**' : '**not met**');
const oks = <T,>(pieces: Piece<T>[] | undefined) => (pieces ?? []).filter((p): p is { ok: true; data: T; seconds: number } => p.ok).map((p) => p.data);
const failure = (what: string, piece: Piece<unknown> | undefined) => (piece && !piece.ok ? `_${what}: not measured, ${piece.reason}._\n` : '');

/** Per-runtime adapter bars, as a share of that runtime's raw server. */
const HTTP_BARS: Record<string, number> = { node: 0.85, bun: 0.9, deno: 0.85 };
const KIND_NAMES: Record<QueryKind, string> = {
  exact: 'exact title',
  case: 'title in another case',
  english: 'English title',
  japanese: 'Japanese title',
  synonym: 'synonym',
  typo: 'one typo',
  prefix: 'prefix (1–2 words, the last cut short)',
  partial: 'partial (a distinctive word or two from past the start)',
  romaji: 'romaji spelling (ou→o, uu→u)',
  fragment: 'fragment with a typo (two inner words)',
};
/** The kinds of records the search battery runs over. */
const RECORD_KINDS = ['anime', 'manga'] as const;

/** Medians over runs of the same piece, field by field (recall and the slowest queries are taken from the first). */
function medianSearch(runs: SearchResult[]): SearchResult | undefined {
  if (runs.length === 0) return undefined;
  const stats = (pick: (r: SearchResult) => Stats): Stats => {
    const all = runs.map(pick);
    return { n: all[0]!.n, p50: median(all.map((s) => s.p50)), p90: median(all.map((s) => s.p90)), p99: median(all.map((s) => s.p99)), max: median(all.map((s) => s.max)) };
  };
  const kind = (k: (typeof RECORD_KINDS)[number]): SearchKindResult => ({
    ...runs[0]![k],
    battery: stats((r) => r[k].battery),
    batteryCpu: stats((r) => r[k].batteryCpu),
  });
  return {
    buildMs: median(runs.map((r) => r.buildMs)),
    anime: kind('anime'),
    manga: kind('manga'),
    short: stats((r) => r.short),
    long200: stats((r) => r.long200),
  };
}

/** The performance bars as measured in this run, collected while the sections render, shown first. */
const bars: { bar: string; measured: string; met: boolean | undefined; context: string }[] = [];
function check(barText: string, measured: string, met: boolean | undefined, context = ''): string {
  bars.push({ bar: barText, measured, met, context });
  return verdict(met);
}

const VARIANT_ORDER = ['raw', 'adapter', 'app', 'app-cache', 'app-gateway'];
const REQUEST_ORDER = ['search', 'detail', 'error', 'page'];
const order = (list: string[], item: string) => (list.includes(item) ? list.indexOf(item) : list.length);

function httpSection(run: Run): string {
  let md = "## 1. HTTP: the example server against each runtime's raw server\n\n";
  if (!run.http) return md + `_Not run: ${run.skipped.find((s) => s.startsWith('HTTP section')) ?? 'not selected (--only)'}._\n`;
  if (!run.http.ok) return md + failure('HTTP', run.http);
  const rows = [...run.http.data].sort(
    (a, b) =>
      order(['node', 'bun', 'deno'], a.runtime) - order(['node', 'bun', 'deno'], b.runtime) ||
      order(REQUEST_ORDER, a.request ?? 'page') - order(REQUEST_ORDER, b.request ?? 'page') ||
      order(VARIANT_ORDER, a.variant) - order(VARIANT_ORDER, b.variant),
  );
  const withCpu = rows.some((r) => typeof r.cpu === 'number');
  md +=
    `\`bench/http-adapters.mjs\`: for each runtime, servers are started, warmed up (\`wrk\` for ${run.plan.httpWarmup}), loaded with ` +
    `\`wrk -t2 -c64 -d${run.plan.httpDuration} --latency\` on 127.0.0.1 (${run.plan.httpRounds} round(s), rotated order, medians), and ` +
    `stopped by their PID; wrk and the server share the machine's cores. Requests: **search** \`/v1/anime?q=naruto\` (the ~30 KB ` +
    `page), **detail** \`/v1/anime/1/full\`, **error** \`/v1/anime?limit=99\` (a 400 envelope, so its non-2xx count is expected). ` +
    `Variants: **raw** = the runtime's own server (\`node:http\` writeHead + end, \`Bun.serve\`, \`Deno.serve\`) sending the ` +
    `example's answers as prepared bytes; **adapter** = those prepared answers through our \`serve()\`; **app** = the example ` +
    `server with \`RATE_LIMIT=off CACHE=off\` (every request routed, validated, searched, serialized); **app-cache** = the ` +
    `example with \`RATE_LIMIT=off\` (the gateway's response cache answers repeats). **× raw** = req/s over raw's, same ` +
    `runtime, request and round, then the median over rounds (so it need not equal the quotient of the median req/s shown). The bars (Node ≥ 0.85, Bun ≥ 0.90, Deno ≥ 0.85 of raw on the same 30 KB body) are checked ` +
    `here on the adapter alone; on the example, in section 1b, against the example servers as the README starts them (app and app-cache here are the bench's own apps, without the access log or request ids).\n\n`;
  md += `| runtime | request | variant | body B | req/s | p50 ms | p99 ms |${withCpu ? ' server CPU µs/req |' : ''} × raw | non-2xx | bar |\n`;
  md += `|---|---|---|---:|---:|---:|---:|${withCpu ? '---:|' : ''}---:|---:|---|\n`;
  for (const row of rows) {
    const request = row.request ?? 'page';
    const raw = rows.find((r) => r.runtime === row.runtime && (r.request ?? 'page') === request && r.variant === 'raw');
    const ratio = typeof row.ratio === 'number' ? row.ratio : raw ? row.rps / raw.rps : undefined;
    const barValue = HTTP_BARS[row.runtime];
    // The example's own bars are read from the example servers as the README starts them (section 1b).
    const barred = (request === 'search' || request === 'page') && row.variant === 'adapter';
    const target =
      barred && barValue !== undefined && ratio !== undefined
        ? `≥ ${barValue.toFixed(2)}: ${check(`HTTP ${row.runtime}, ${row.variant} ≥ ${barValue.toFixed(2)} × raw (${request}, ${row.bytes ?? '?'} B)`, `${ratio.toFixed(3)} × raw`, ratio >= barValue && !row.non2xx)}`
        : '';
    const cpu = withCpu ? ` ${typeof row.cpu === 'number' ? row.cpu.toFixed(1) : 'n/a'} |` : '';
    md += `| ${row.runtime} | ${request} | ${row.variant} | ${row.bytes ?? 'n/a'} | ${int(row.rps)} | ${ms(row.p50)} | ${ms(row.p99)} |${cpu} ${ratio === undefined ? 'n/a' : ratio.toFixed(2)} | ${row.non2xx ?? 'n/a'} | ${target} |\n`;
  }
  const bad = rows.filter((r) => r.non2xx && r.request !== 'error');
  if (bad.length) md += `\n${bad.length} row(s) had non-2xx responses where a 200 was expected; their req/s do not count.\n`;
  if (!rows.some((r) => r.request)) md += '\n_All rows load one request (a 25-item anime page); the script did not report per-request rows in this run._\n';
  return md;
}

/** The example bars (`EXAMPLE_BARS[mode][request]`), by runtime for the cache hit. */
const EXAMPLE_HIT_BARS: Record<string, number> = { node: 0.85, bun: 0.9, deno: 0.85 };
const EXAMPLE_MISS_BARS: Record<string, number> = { detail: 0.5, scored: 0.5, search: 0.25 };
const START: Record<string, string> = { node: '`npm start`', bun: '`npm run start:bun`', deno: '`npm run start:deno`' };

function examplesSection(run: Run): string {
  let md = '## 1b. The example servers as the README starts them, against raw\n\n';
  if (!run.examples) return md + `_Not run: ${run.skipped.find((s) => s.startsWith('Examples section')) ?? 'not selected (--only)'}._\n`;
  if (!run.examples.ok) return md + failure('examples', run.examples);
  md +=
    `\`bench/examples.mjs\`: each example started as the README starts it (${Object.values(START).join(', ')}; the scripts \`exec\` the runtime, so the ` +
    `bench runs that command itself) with its defaults (access log on, into a pipe the bench drains; request ids on) and \`RATE_LIMIT=off\`; ` +
    `**cache**: the response cache on (every measured request a hit), **nocache**: \`CACHE=off\` (every request routed, searched and serialized). ` +
    `**raw** is the runtime's own server sending the answers recorded from that example at start, same status, headers and bytes. ` +
    `Each round loads raw and the example in turn (\`wrk -t2 -c64 -d${run.plan.httpDuration}\` after ${run.plan.httpWarmup} warm-up, order alternating); ` +
    `**× raw** is the median over ${run.plan.httpRounds} round(s) of the round's req/s ratio. The server's CPU per request (from /proc) is context: ` +
    `raw's over the example's is the ratio an otherwise idle core would give.\n\n`;
  md += '| runtime | mode | request | body B | raw req/s | example req/s | × raw | p99 ms | CPU µs/req raw / example | CPU ratio | bar |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n';
  for (const r of run.examples.data) {
    const bar = r.mode === 'cache' ? EXAMPLE_HIT_BARS[r.runtime] : EXAMPLE_MISS_BARS[r.request];
    const target =
      bar === undefined
        ? ''
        : `≥ ${bar.toFixed(2)}: ${check(
            `example ${r.runtime} (${START[r.runtime] ?? r.runtime})${r.mode === 'cache' ? ', cache hit' : ', CACHE=off'} ≥ ${bar.toFixed(2)} × raw (\`${r.target}\`, ${r.bytes} B)`,
            `${r.ratio.toFixed(3)} × raw`,
            r.ratio >= bar,
            `server CPU per request: raw ${r.rawCpu.toFixed(1)} µs, example ${r.cpu.toFixed(1)} µs (${r.cpuRatio.toFixed(2)})`,
          )}`;
    md += `| ${r.runtime} | ${r.mode} | \`${r.target}\` | ${r.bytes} | ${int(r.rawRps)} | ${int(r.rps)} | ${r.ratio.toFixed(2)} | ${ms(r.p99)} | ${r.rawCpu.toFixed(1)} / ${r.cpu.toFixed(1)} | ${r.cpuRatio.toFixed(2)} | ${target} |\n`;
  }
  return md;
}

/** Search bars that are not latency: recall per kind at its cut-off, empty answers, and the two stores agreeing. */
const SEARCH_BARS = { emptyAnswers: 0, sameFirst: 0.98, top10Overlap: 0.85, memoryP99: 2.5, postgresP99: 20 };

/** Hits of a kind at its cut-off (1, 5 or 10). */
const hitsAt = (kind: QueryKind, r: Recall) => (KIND_CUTOFF[kind] === 1 ? r.hit1 : KIND_CUTOFF[kind] === 5 ? r.hit5 : r.hit10);
/** Empty answers and queries over the one-edit battery (every query a real title or one edit from one). */
const oneEdit = (recall: RecallByKind) =>
  WITHIN_ONE_EDIT.reduce((acc, k) => ({ n: acc.n + (recall[k]?.n ?? 0), empty: acc.empty + (recall[k]?.empty ?? 0) }), { n: 0, empty: 0 });
/** Kinds with a target that fall short of it. */
const shortOfTarget = (recall: RecallByKind) =>
  QUERY_KINDS.filter((k) => KIND_TARGET[k] !== undefined && recall[k]?.n && hitsAt(k, recall[k]) / recall[k].n < KIND_TARGET[k]!);

function recallCell(kind: QueryKind, recall: RecallByKind | undefined): string {
  if (!recall) return 'n/a';
  const r = recall[kind];
  if (!r?.n) return 'none in the data';
  const share = hitsAt(kind, r) / r.n;
  const target = KIND_TARGET[kind];
  return `${share.toFixed(3)} (${hitsAt(kind, r)}/${r.n})${target === undefined ? '' : share >= target ? ' met' : ' **not met**'}`;
}

/** One table per kind of record: each query kind's recall at its cut-off on each store, against its target. */
function recallTables(full: SearchResult | undefined, pg: PostgresResult | undefined, demo: SearchResult | undefined): string {
  let md = '';
  for (const record of RECORD_KINDS) {
    md += `\n#### ${record}\n\n| kind | cut-off | target | memory, full | PostgreSQL, full | memory, demo |\n|---|---:|---:|---:|---:|---:|\n`;
    for (const kind of QUERY_KINDS) {
      const target = KIND_TARGET[kind];
      md += `| ${KIND_NAMES[kind]} | @${KIND_CUTOFF[kind]} | ${target === undefined ? 'context' : `≥ ${target.toFixed(2)}`} | ${recallCell(kind, full?.[record].recall)} | ${recallCell(kind, pg?.[record].recall.postgres)} | ${recallCell(kind, demo?.[record].recall)} |\n`;
    }
    const all = (r: Recall | undefined) => (r ? `${r.hit1}/${r.n} · ${r.hit10}/${r.n}` : 'n/a');
    md += `| all kinds (hit@1 · hit@10) | | | ${all(full?.[record].recall.all)} | ${all(pg?.[record].recall.postgres.all)} | ${all(demo?.[record].recall.all)} |\n`;
  }
  return md;
}

/** The bars of one store over one kind of record: recall targets and empty answers. */
function qualityRows(store: string, record: string, recall: RecallByKind): string {
  const missed = shortOfTarget(recall);
  const measured = QUERY_KINDS.filter((k) => KIND_TARGET[k] !== undefined && recall[k]?.n);
  const recallBar = check(
    `search recall targets, ${store}, ${record}`,
    `${measured.length - missed.length} of ${measured.length} kinds`,
    measured.length > 0 ? missed.length === 0 : undefined,
    missed.length ? `short: ${missed.map((k) => `${k} ${(hitsAt(k, recall[k]!) / recall[k]!.n).toFixed(3)}`).join(', ')}` : 'per kind in section 2',
  );
  const edit = oneEdit(recall);
  const emptyBar = check(`search empty answers = 0 over the one-edit battery, ${store}, ${record}`, `${edit.empty} of ${int(edit.n)}`, edit.n ? edit.empty === SEARCH_BARS.emptyAnswers : undefined, `one typo: ${recall.typo?.empty ?? 0} of ${recall.typo?.n ?? 0}`);
  return `| ${store} | ${record} | ${recallBar} | ${edit.empty} of ${int(edit.n)}: ${emptyBar} |\n`;
}

/** Latency per store and kind of record; the bars are on 30k anime. */
function latencyTable(full: SearchResult | undefined, pg: PostgresResult | undefined, demo: SearchResult | undefined): string {
  let md = '\n| store | records | entries | queries | p50 ms | p90 ms | p99 ms | max ms | bar |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n';
  const row = (store: string, record: string, entries: number, s: Stats, bar = '') =>
    `| ${store} | ${record} | ${int(entries)} | ${int(s.n)} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} | ${bar} |\n`;
  if (full) {
    const a = full.anime;
    md += row('memory', 'anime', a.entries, a.battery, `p99 ≤ ${SEARCH_BARS.memoryP99} ms: ${check(`memory store search p99 ≤ ${SEARCH_BARS.memoryP99} ms (30k anime, wall clock)`, `${ms(a.battery.p99)} ms`, a.battery.p99 <= SEARCH_BARS.memoryP99, `CPU time of the same queries: p99 ${ms(a.batteryCpu.p99)} ms`)}`);
    md += row('memory (CPU time)', 'anime', a.entries, a.batteryCpu, 'context: time this process held a core');
    md += row('memory', 'manga', full.manga.entries, full.manga.battery, 'context');
  }
  if (pg) {
    md += row('PostgreSQL', 'anime', pg.anime.entries, pg.anime.battery, `p99 ≤ ${SEARCH_BARS.postgresP99} ms: ${check(`PostgreSQL store search p99 ≤ ${SEARCH_BARS.postgresP99} ms (30k anime)`, `${ms(pg.anime.battery.p99)} ms`, pg.anime.battery.p99 <= SEARCH_BARS.postgresP99)}`);
    md += row('PostgreSQL', 'manga', pg.manga.entries, pg.manga.battery, 'context');
  }
  if (demo) for (const record of RECORD_KINDS) md += row('memory, demo', record, demo[record].entries, demo[record].battery, 'context');
  return md;
}

/** Memory and PostgreSQL over the same queries: the same first result, and the top 10 shared. */
function agreementTable(pg: PostgresResult): string {
  let md = '\n| records | same first result | bar | memory top 10 in PostgreSQL top 10 | bar |\n|---|---:|---|---:|---|\n';
  for (const record of RECORD_KINDS) {
    const r = pg[record];
    const first = `${(100 * r.sameTopHit).toFixed(1)} %`;
    const overlap = `${(100 * r.top10OverlapWithMemory).toFixed(1)} %`;
    md += `| ${record} | ${first} | ≥ ${100 * SEARCH_BARS.sameFirst} %: ${check(`search agreement, ${record}: same first result on both stores ≥ ${100 * SEARCH_BARS.sameFirst} %`, first, r.sameTopHit >= SEARCH_BARS.sameFirst)} | ${overlap} | ≥ ${100 * SEARCH_BARS.top10Overlap} %: ${check(`search agreement, ${record}: top-10 overlap ≥ ${100 * SEARCH_BARS.top10Overlap} %`, overlap, r.top10OverlapWithMemory >= SEARCH_BARS.top10Overlap)} |\n`;
  }
  return md;
}

function slowestTable(full: SearchResult | undefined, pg: PostgresResult | undefined): string {
  let md = '\n| store | records | the five slowest battery queries (ms, kind, query) |\n|---|---|---|\n';
  const list = (s: Slowest) => s.slice(0, 5).map((x) => `${ms(x.ms)} ${x.kind} \`${x.q.replace(/[`|]/g, ' ')}\``).join('; ');
  for (const record of RECORD_KINDS) {
    if (full) md += `| memory | ${record} | ${list(full[record].slowest)} |\n`;
    if (pg) md += `| PostgreSQL | ${record} | ${list(pg[record].slowest)} |\n`;
  }
  return md;
}

function searchMethod(run: Run, full: SearchResult | undefined): string {
  const counts = full ? RECORD_KINDS.map((r) => `${int(full[r].recall.all?.n ?? 0)} ${r}`).join(' and ') : 'the';
  return (
    `The battery (\`bench/lib/battery.ts\`) is built at run time from the dataset with a seeded PRNG: ${counts} labelled queries in ten kinds, ` +
    `the same for both stores. A query is a hit at its kind's cut-off when the entry it was made from (or one bearing the very same title) is ` +
    `among the first 1, 5 or 10 results. The **one-edit battery** is every exact, case, English, Japanese, synonym and one-typo query: each is a ` +
    `real title or one edit (insertion, deletion, substitution, transposition) from one, so none may come back empty. Latency is ` +
    `\`searchEntries(store, ANIME | MANGA, { q, limit: 25 })\` (what \`GET /v1/anime?q=…\` and \`/v1/manga?q=…\` run) in-process, wall clock per ` +
    `query, after a warm-up pass (which is also the recall pass). Memory store: ${run.plan.searchRuns} process(es) × ` +
    `${run.plan.searchPasses} pass(es) over the battery, median of the processes' percentiles. PostgreSQL store ` +
    `(\`bench/search-postgres.ts\`): one process, ${run.plan.pgPasses} pass(es), through \`createPostgresStore\` on a local server, the same ` +
    `queries also run on a memory store over the same data to compare the two. The manga set is generated (\`scripts/bench-data\`) and carries ` +
    `no Japanese titles or synonyms.\n\n`
  );
}

function searchSection(run: Run): string {
  let md = '## 2. Search: quality and latency over the full-scale set\n\n';
  if (!run.search) return md + '_Not run (--only)._\n';
  const full = medianSearch(oks(run.search.full));
  const demo = run.search.demo.ok ? run.search.demo.data : undefined;
  const pg = run.postgres?.ok ? run.postgres.data : undefined;
  md += searchMethod(run, full);
  md += failure('memory store, full set', run.search.full.find((p) => !p.ok));
  md += failure('PostgreSQL store', run.postgres);
  if (!run.postgres && run.skipped.some((s) => s.startsWith('PostgreSQL'))) md += '_PostgreSQL store: skipped, DATABASE_URL was not set._\n';
  md += '\n### Recall per kind, at each kind\'s cut-off\n';
  md += recallTables(full, pg, demo);
  md += '\n### Recall targets and empty answers\n\n| store | records | recall targets met | empty answers over the one-edit battery (bar: 0) |\n|---|---|---|---|\n';
  for (const record of RECORD_KINDS) {
    if (full) md += qualityRows('memory store', record, full[record].recall);
    if (pg) md += qualityRows('PostgreSQL store', record, pg[record].recall.postgres);
  }
  if (pg) md += `\n### Memory and PostgreSQL ranking alike\n${agreementTable(pg)}`;
  md += `\n### Latency of the battery\n${latencyTable(full, pg, demo)}`;
  md += `\n### The slowest queries\n${slowestTable(full, pg)}`;
  md += '\n### Other query shapes, anime (p50 / p99 ms)\n\n| store | 1–2 letters | 200 characters | filters and orders, no `q` | index build / import |\n|---|---:|---:|---:|---|\n';
  if (full) md += `| memory, full | ${ms(full.short.p50)} / ${ms(full.short.p99)} | ${ms(full.long200.p50)} / ${ms(full.long200.p99)} | | index built in ${ms(full.buildMs)} ms (anime and manga) |\n`;
  if (pg) md += `| PostgreSQL, full | ${ms(pg.short.p50)} / ${ms(pg.short.p99)} | ${ms(pg.long200.p50)} / ${ms(pg.long200.p99)} | ${ms(pg.filters.p50)} / ${ms(pg.filters.p99)} | ${pg.import ? `imported in ${pg.import.seconds.toFixed(0)} s (${int(pg.import.perSecond)} records/s)` : `already imported (schema \`${pg.schema}\` kept between runs)`} |\n`;
  return md;
}

function startupSection(run: Run): string {
  let md = '## 3. Start-up and memory at full scale\n\n';
  if (!run.startup) return md + '_Not run (--only)._\n';
  const runs = oks(run.startup);
  md += failure('start-up', run.startup.find((p) => !p.ok));
  if (runs.length === 0) return md;
  const m = (pick: (r: StartupResult) => number | undefined) => median(runs.map(pick).filter((n): n is number => n !== undefined));
  const counts = runs[0]!.counts;
  md +=
    `\`bench/startup.ts\` (\`node --expose-gc\`), ${runs.length} fresh process(es), medians: read and \`JSON.parse\` the four ` +
    `benchmark files (${Object.entries(counts).map(([k, n]) => `${int(n)} ${k}`).join(', ')}), then \`createMemoryStore\` with all of ` +
    `them (every index is built at load). Start-up = parse + build. Heap = \`heapUsed\` after a GC minus before; RSS after a GC, ` +
    `and the peak RSS of the process.\n\n`;
  const start = m((r) => r.startMs);
  const peak = m((r) => r.peakRssMiB ?? r.rssMiB);
  md += '| measure | value | bar |\n|---|---:|---|\n';
  md += `| start-up, wall clock | ${int(start)} ms (parse ${int(m((r) => r.parseMs))} + store ${int(m((r) => r.buildMs))}) | ≤ 5 s: ${check('full-scale memory store starts in ≤ 5 s', `${int(start)} ms`, start <= 5000, runs[0]!.startCpuMs === undefined ? '' : `CPU time of the same steps: ${int(m((r) => r.startCpuMs))} ms`)} |\n`;
  if (runs[0]!.startCpuMs !== undefined) {
    const split = runs[0]!.parseCpuMs === undefined ? '' : ` (parse ${int(m((r) => r.parseCpuMs))} + store ${int(m((r) => r.buildCpuMs))})`;
    md += `| start-up, CPU time of the same steps | ${int(m((r) => r.startCpuMs))} ms${split} | context: the wall clock minus time other processes held the core |\n`;
  }
  md += `| first search after start | ${ms(m((r) => r.firstSearchMs))} ms | |\n`;
  md += `| heap: records | ${int(m((r) => r.heapDataMiB))} MiB | |\n`;
  md += `| heap: indexes and orderings | ${int(m((r) => r.heapIndexesMiB))} MiB | |\n`;
  md += `| heap: total | ${int(m((r) => r.heapTotalMiB))} MiB | |\n`;
  md += `| RSS after load | ${int(m((r) => r.rssMiB))} MiB | |\n`;
  md += `| peak RSS | ${int(peak)} MiB | ≤ 1.5 GiB (1,536 MiB): ${check('full-scale memory store holds the set in ≤ 1.5 GiB (peak RSS)', `${int(peak)} MiB`, peak <= 1536)} |\n`;
  return md;
}

function gatewaySection(run: Run): string {
  let md = '## 4. Gateway: per-request cost\n\n';
  if (!run.gateway) return md + '_Not run (--only)._\n';
  if (!run.gateway.ok) return md + failure('gateway', run.gateway);
  const g = run.gateway.data;
  md +=
    `\`bench/gateway.ts\`: in-process through the plain door (\`app.handle\`, what the Node adapter calls), demo data, requests ` +
    `rotating over 55 targets (50 detail pages, 5 searches) and 10,000 client addresses on an injected clock so no limit trips. ` +
    `${int(g.requests)} requests per variant and round (Redis: a fifth of that), ${g.rounds} interleaved rounds, median. ` +
    `**× none** is µs/request over the same pipeline without the gateway at the same concurrency. No bar is set here.\n\n`;
  if (g.result.some((row) => row.variant.endsWith('observed'))) {
    md += '_observed_: the same cache hits through `createObservedApp` with an observer that does nothing, so its difference to the hits is what each request\'s timing, record, client hash and `X-Request-Id` cost before any log line or metric.\n\n';
  }
  if (run.skipped.some((s) => s.startsWith('Redis'))) md += '_Redis variants skipped: REDIS_URL was not set._\n\n';
  md += '| variant | µs / request | × none |\n|---|---:|---:|\n';
  for (const row of g.result) md += `| ${row.variant} | ${ms(row.usPerRequest)} | ${row.ratio.toFixed(2)} |\n`;
  return md;
}

function operationsSection(run: Run): string {
  let md = '## 5. Operations: access log and metrics on the cache-hit path\n\n';
  if (!run.operations) return md + '_Not run (--only, or wrk missing)._\n';
  if (!run.operations.ok) return md + failure('operations', run.operations);
  const rows = run.operations.data.rows;
  const busyUs = rows[0]?.busyUs;
  const busy = busyUs !== undefined;
  md +=
    `\`bench/operations.mjs\`: the built Node example (\`RATE_LIMIT=off\`, memory store) ${busy ? 'four' : 'three'} times, **off** (\`ACCESS_LOG=off\`, no ` +
    '`METRICS_PORT`: the log and metrics off, `X-Request-Id` on as `REQUEST_ID` is by default), **on** (`ACCESS_LOG=json` into a pipe the bench drains, and `METRICS_PORT`) and **bare** (off with `REQUEST_ID=off` too: nothing observed), all answering ' +
    `gateway cache hits under ${run.operations.data.pinned ? '`wrk -t1 -c64` on CPU 0 with the servers on CPU 1' : '`wrk -t2 -c64`, unpinned'}, started afresh each round (one after another, in an order rotated from round to round), ` +
    (run.plan.operationsSlices
      ? `warmed up, then measured in turn in ${run.plan.operationsSlices} slices of 1 s (rotated order); a round's ratio to off is the median of its slices', and the page shows medians over rounds. `
      : `each warmed up and measured for ${run.plan.httpDuration} in a rotated order, ratios to off taken within a round, medians. `) +
    "**CPU off / on** is the server process's CPU per request, the throughput ratio on an otherwise idle core. **off / bare** is what the " +
    'request ids cost by themselves (an id per request and its `X-Request-Id` header), **on / bare** all three together.';
  if (busy) {
    md +=
      ` **busy / off** is the same for a fourth server, **busy**: off, whose every answer first busy-waits ${busyUs} µs ` +
      '(`bench/lib/busy-response.mjs`). It is a yardstick of the machine: what adding that much CPU to each answer costs over ' +
      'loopback here, which can be several times as much in the CPU column, to set beside what the access log and metrics add.';
  }
  md +=
    `\n\n| cache hit | bytes | off req/s | on req/s | on / off | off µs CPU/req | on µs CPU/req | CPU off / on | off / bare | on / bare | bare µs CPU/req |${busy ? ' busy / off | busy µs CPU/req |' : ''}\n` +
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${busy ? '---:|---:|' : ''}\n`;
  for (const r of rows) {
    md += `| ${r.request} | ${int(r.bytes)} | ${int(r.offRps)} | ${int(r.onRps)} | ${r.ratio.toFixed(3)} | ${r.offCpu.toFixed(1)} | ${r.onCpu.toFixed(1)} | ${r.cpuRatio.toFixed(2)} | ${r.bareRatio.toFixed(2)} | ${r.onBareRatio.toFixed(2)} | ${r.bareCpu.toFixed(1)} |`;
    md += busy ? ` ${r.busyRatio!.toFixed(2)} | ${r.busyCpu!.toFixed(1)} |\n` : '\n';
  }
  const detail = rows.find((r) => r.request === 'detail');
  if (detail) {
    const yardstick = detail.busyRatio !== undefined ? `; ${detail.busyUs} µs of busy-waiting alone: ${detail.busyRatio.toFixed(2)} × off` : '';
    bars.push({ bar: 'access log and metrics on: ≥ 0.90 × off on a cache hit (req/s)', measured: detail.ratio.toFixed(3), met: detail.ratio >= 0.9, context: `${detail.ratios ? `rounds ${Math.min(...detail.ratios).toFixed(3)}–${Math.max(...detail.ratios).toFixed(3)}; ` : ''}CPU per request off / on: ${detail.cpuRatio.toFixed(2)}; off keeps request ids (REQUEST_ID=on, the default); against a server with request ids off too, on is ${detail.onBareRatio.toFixed(2)} × bare${yardstick}` });
  }
  return md;
}

function routesSection(run: Run): string {
  let md = '## 6. Every route on PostgreSQL at full scale\n\n';
  if (!run.routes) return md + '_Not run (--only, or DATABASE_URL missing)._\n';
  if (!run.routes.ok) return md + failure('routes', run.routes);
  const r = run.routes.data;
  md +=
    '`bench/postgres-routes.ts`: the built Node example on PostgreSQL (schema `catalogue_routes`: 30k anime, 70k manga, 100k ' +
    'characters, 30k people, imported with the CLI), response cache, rate limits and access log off, so every request reaches ' +
    `the store. **first** is each route's first answer after a fresh start; p50/p99 are over ${r.requests} sequential requests per ` +
    'route spread over ids and queries (nearest rank: the p99 of 200 is the third slowest, of 40 the slowest).\n\n';
  if (r.imported) md += `Import: ${int(r.imported.records)} records in ${r.imported.seconds.toFixed(0)} s.\n\n`;
  md += `Start-up ${int(r.startMs)} ms; peak RSS ${int(r.rssMb)} MB; a second instance answered ${r.secondInstance.compared - r.secondInstance.differing} of ${r.secondInstance.compared} probes byte for byte the same; after an upsert of ${r.upsert.records} anime, ${r.upsert.visibleOnBoth} were served new by both instances on the next request.\n\n`;
  md += '| route | first (ms) | p50 (ms) | p99 (ms) | statuses |\n|---|---:|---:|---:|---|\n';
  for (const row of r.routes) md += `| ${row.route} | ${int(row.first)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.statuses} |\n`;
  const slow = r.routes.filter((row) => row.p99 > 20);
  const late = r.routes.filter((row) => row.first > 1000);
  bars.push({ bar: 'PostgreSQL, every route: p99 ≤ 20 ms', measured: `${r.routes.length - slow.length} of ${r.routes.length}`, met: slow.length === 0, context: slow.length ? `over: ${slow.map((row) => row.route).join(', ')}` : '' });
  bars.push({ bar: 'PostgreSQL, every route: first answer ≤ 1 s', measured: `${r.routes.length - late.length} of ${r.routes.length}`, met: late.length === 0, context: late.map((row) => row.route).join(', ') });
  bars.push({ bar: 'PostgreSQL instance peak RSS ≤ 300 MB', measured: `${int(r.rssMb)} MB`, met: r.rssMb <= 300, context: 'full-scale set' });
  bars.push({ bar: 'a second instance answers the same', measured: `${r.secondInstance.differing} differ`, met: r.secondInstance.differing === 0, context: `${r.secondInstance.compared} probes` });
  bars.push({ bar: 'an upsert of 100 is served by both at once', measured: `${r.upsert.visibleOnBoth} of ${r.upsert.records}`, met: r.upsert.visibleOnBoth === r.upsert.records, context: 'no reload' });
  return md;
}

/** A probe's figures: p50 and its slowest (or p99), and what it was answered. */
function probeText(p: { n: number; p50: number; p99: number; max: number; statuses: Record<string, number> }, tail: 'p99' | 'max'): string {
  const answers = Object.entries(p.statuses).map(([status, n]) => `${int(n)} × ${status === 'none' ? 'no answer' : status}`).join(', ');
  return `${ms(p.p50)} / ${ms(tail === 'p99' ? p.p99 : p.max)} ms (${answers})`;
}

function abuseSection(run: Run): string {
  let md = '## 7. Abuse: one client against the example server\n\n';
  if (!run.abuse) return md + '_Not run (--only)._\n';
  if (!run.abuse.ok) return md + failure('abuse', run.abuse);
  const { knobs: k, serverEnv, flood, slots, search } = run.abuse.data;
  const vars = (scenario: string) =>
    Object.entries(serverEnv[scenario] ?? {})
      .map(([name, value]) => (value === null ? `${name} unset` : `\`${name}=${value}\``))
      .join(', ');
  const extra = Object.entries(serverEnv.extra ?? {}).map(([name, value]) => `\`${name}=${value}\``);
  md +=
    '`bench/abuse.ts`: the Node example as `npm start` runs it (from the sources with tsx), with nothing configured: memory ' +
    'store, no Redis, the access log on (its stdout to /dev/null), request ids on, the public rate limits on (4 requests/s, ' +
    '120/min per client). A fresh server per scenario. Every client binds a 127.0.0.x source address of its own ' +
    '(`localAddress`), so the limits count each as a client of its own, with no `TRUST_PROXY`. The servers ran with ' +
    `${vars('all')}${extra.length ? `, and ${extra.join(', ')} (\`ABUSE_SERVER_ENV\`)` : ''}; the rest of the environment passed through. ` +
    '**slots**: each connection writes its requests a few a second, so that the limit refuses none of them, and asks for more ' +
    "answers than the kernel's socket buffers hold (over loopback on Linux they took about 3.2 MB of a connection that never " +
    'read): what the kernel holds, the server has finished sending.\n\n';
  md += '| scenario | measure | value | target |\n|---|---|---|---|\n';
  const notRun = (name: string, outcome: { ok: false; skipped?: true; reason: string }) => `| ${name} | ${outcome.skipped ? 'skipped' : 'failed'} | ${outcome.reason} | |\n`;
  if (flood) {
    const what = `flood: one connection writes ${int(k.floodRequests)} pipelined \`GET /v1/anime/1\` and never reads (${k.floodSeconds} s)`;
    if (!flood.ok) md += notRun(what, flood);
    else {
      const f = flood.data;
      md += `| ${what} | server RSS: idle → peak (growth) | ${int(f.idleRssMb)} → ${int(f.peakRssMb)} MB (+${int(f.growthMb)} MB)${f.alive ? '' : '; the server died'} | growth ≤ 100 MB: ${check(`abuse, flood: one connection pipelining ${int(k.floodRequests)} requests, server RSS growth ≤ 100 MB`, `+${int(f.growthMb)} MB`, f.alive && f.growthMb <= 100, `${int(f.idleRssMb)} → ${int(f.peakRssMb)} MB`)} |\n`;
      if (f.cpuSeconds !== undefined) md += `| | server CPU time in the window | ${f.cpuSeconds.toFixed(1)} s of ${k.floodSeconds} s | context: the share of a core the flood took |\n`;
      md += `| | \`/healthz\` every 100 ms from another address, kept alive: p50 / slowest | ${probeText(f.probe, 'max')} | slowest ≤ 100 ms: ${check('abuse, flood: /healthz meanwhile ≤ 100 ms (the slowest of a probe every 100 ms)', `${ms(f.probe.max)} ms`, f.probe.max <= 100 && !f.probe.statuses.none, `p50 ${ms(f.probe.p50)} ms, ${int(f.probe.n)} answered in ${k.floodSeconds} s`)} |\n`;
    }
  }
  if (slots) {
    const what = `slots: ${k.slotSockets} connections at \`MAX_CONNECTIONS=${k.maxConnections}\`, each writing ${k.slotRequests} pipelined \`GET /v1/openapi.json\` (${k.slotBurst} a second, within the limit) and never reading`;
    if (!slots.ok) md += notRun(what, slots);
    else {
      const f = slots.data;
      const times = f.fresh.map((c) => (c.ms === undefined ? `none in ${f.windowSeconds} s (${int(c.attempts)} tries: ${c.last})` : `${ms(c.ms)} ms`));
      const met = f.fresh.every((c) => c.ms !== undefined && c.ms <= 1000);
      md += `| ${what} | a fresh client's time to its 200 (\`/v1/anime/1\`, a new connection, retried when reset) at ${f.fresh.map((c) => `${c.at} s`).join(' / ')} | ${times.join(' / ')} | ≤ 1 s each: ${check(`abuse, slots: ${k.slotSockets} non-reading connections at MAX_CONNECTIONS=${k.maxConnections}, a fresh client served within 1 s (at ${f.fresh.map((c) => c.at).join(', ')} s)`, f.fresh.map((c) => (c.ms === undefined ? 'none' : `${ms(c.ms)} ms`)).join(' / '), met, `${f.connected} of ${f.sockets} connected`)} |\n`;
    }
  }
  if (search) {
    const what = `search: ${k.searchers} closed-loop clients on PostgreSQL (schema \`${k.schema}\`, full-scale set) searching with typos, from ${k.searchAddresses} addresses each under 4/s, for ${k.searchSeconds} s`;
    if (!search.ok) md += notRun(what, search);
    else {
      const f = search.data;
      md += `| ${what} | \`/v1/anime/20\` every ${f.probeEveryMs} ms, kept alive, server idle: p50 / p99 | ${probeText(f.idle, 'p99')} | context |\n`;
      md += `| | the same during the searches: p50 / p99 | ${probeText(f.loaded, 'p99')} | p99 ≤ 50 ms: ${check(`abuse, search: /v1/anime/20 p99 ≤ 50 ms during ${k.searchers} concurrent searches on PostgreSQL`, `${ms(f.loaded.p99)} ms`, f.loaded.p99 <= 50 && !f.loaded.statuses.none, `idle p99 ${ms(f.idle.p99)} ms; during: p50 ${ms(f.loaded.p50)} ms over ${int(f.loaded.n)} probes`)} |\n`;
      md += `| | the searches: p50 / p99 | ${probeText(f.searches, 'p99')}${f.inFlight === undefined ? '' : `; ${f.inFlight.toFixed(1)} in flight on average`} | context${f.imported ? `; set imported in ${f.imported.seconds.toFixed(0)} s` : ''} |\n`;
      if (f.searches.statuses['429']) {
        md += '\nA 429 among the searches is a request that reached the limiter in the same clock second as four others from its address: they were sent 260 ms apart, and held up on the way.\n';
      }
    }
  }
  return md;
}

const duration = (ms: number) => (ms >= 86_400_000 ? `${+(ms / 86_400_000).toFixed(2)} d` : ms >= 3_600_000 ? `${+(ms / 3_600_000).toFixed(2)} h` : `${+(ms / 60_000).toFixed(2)} min`);
const share = (r: number) => `${(100 * r).toFixed(1)} %`;

function freshDataSection(run: Run): string {
  let md = '## 8. Fresh data: the refresher against a fake upstream\n\n';
  if (!run.freshData) return md + '_Not run (--only)._\n';
  if (!run.freshData.ok) return md + failure('fresh data', run.freshData);
  const { budget: b, api, staleness: st, demand: d, newid } = run.freshData.data;
  md +=
    '`bench/fresh-data.ts`: `createFakeUpstream` (the testkit) holding the demo catalogue, for **budget** and **API** in a process of its own ' +
    '(`bench/lib/fake-upstream-process.ts`), as a real upstream is, so that answering the refresher takes no time from the process timing the API. ' +
    '**Budget** and **API**: the Node example from its sources ' +
    '(memory store, demo catalogue, `CACHE=off`, `RATE_LIMIT=off`) with `UPSTREAM_URL` at the fake, `UPSTREAM_TIME_SCALE=3600` so that work always waits; ' +
    'requests counted from the fake\'s log over 60 s after a 15 s warm-up, and every sliding 1 s and 60 s window of the whole log checked. ' +
    `API p99, after that window: an open-loop client at 200 requests/s over four routes in turn against that server and, side by side, the same server without \`UPSTREAM_URL\`, ${api ? `${api.rounds} rounds of ${api.seconds} s each` : 'rounds'}, alternating; the p99 of all of a server's answers in its rounds. ` +
    '**Staleness**: a refresher on a virtual clock (the map source and memory state of the core tests, at the public 3/s and 60/min) over the demo catalogue ' +
    'for 30 virtual days with the default schedule; a completed task\'s staleness is the time since its previous completion, or for its first the interval plus how overdue it ran. ' +
    '**Demand**: `scheduleDemand(FULL_SCALE)` (28k anime, 70k manga) against 86,400 requests a day (3/s, 60/min). ' +
    '**New id**: two instances on one PostgreSQL schema and Redis, as the end-to-end test starts them (20/s, 1,200/min, time scale 3600).\n\n';
  md += '| measure | measured | bar |\n|---|---|---|\n';
  if (b) {
    md += `| requests a minute used, budget ${b.limits.perSecond}/s and ${b.limits.perMinute}/min, work waiting | ${int(b.requestsInWindow)} in ${b.windowSeconds} s (${share(b.share)}) | ≥ 95 %: ${check(`fresh data: requests a minute ≥ 95 % of the budget when work waits`, share(b.share), b.share >= 0.95, `${int(b.requestsInWindow)} of ${int(b.limits.perMinute)} in ${b.windowSeconds} s`)} |\n`;
    md += `| the most in any sliding 1 s / 60 s (whole log, ${int(b.logged)} requests) | ${b.maxPerSecond} / ${b.maxPerMinute} with ${b.slackMs} ms arrival slack; ${b.strict.maxPerSecond} / ${b.strict.maxPerMinute} with 25 ms; ${b.violations} refused by the fake; up to the end of the quiet window: ${b.quiet.maxPerSecond} / ${b.quiet.maxPerMinute} | ≤ limits: ${check('fresh data: no sliding 1 s or 60 s window over the budget', `${b.maxPerSecond}/s, ${b.maxPerMinute}/min`, b.ok, `${b.slackMs} ms arrival slack, as the end-to-end test`)} |\n`;
  }
  if (st) {
    for (const t of st.tiers) {
      const ratio = t.p99 / t.targetMs;
      md += `| staleness, ${t.tier} tier: p50 / p99 (${int(t.n)} completions) | ${duration(t.p50)} / ${duration(t.p99)} | target ${duration(t.targetMs)}${t.tier === 'new' ? ' (discovery page 1)' : ''}: p99 ≤ 1.1 × target: ${check(`fresh data: staleness p99 of the ${t.tier} tier ≤ 1.1 × its interval (30 virtual days)`, `${ratio.toFixed(2)} × target`, ratio <= 1.1, `p50 ${duration(t.p50)}`)} |\n`;
    }
    md += `| (30 virtual days: ${int(st.entries.anime)} anime + ${int(st.entries.manga)} manga, ${int(st.requests)} requests, ${st.wallSeconds.toFixed(0)} s of wall clock) | | |\n`;
  }
  if (d) {
    for (const t of d.tiers) md += `| full-scale demand, ${t.tier} tier | ${int(t.perDay)} a day (${share(t.share)} of 86,400) | context |\n`;
    md += `| full-scale demand, total | ${int(d.total)} a day (${share(d.share)} of 86,400) | < 100 %: ${check('fresh data: full-scale demand < 100 % of the public Jikan\'s daily budget', share(d.share), d.share < 1, d.share < 1 ? `room to spare: ${int(d.daily - d.total)} a day` : 'over')} |\n`;
  }
  if (newid) {
    if (newid.skipped) md += `| a new id upstream → first 200 on each of two instances | skipped: ${newid.skipped} | |\n`;
    else md += `| a new id upstream → first 200 on each of two instances | ${newid.seconds!.map((s) => `${s.toFixed(1)} s`).join(' / ')} (${newid.upstreamRequests} upstream requests meanwhile) | ≤ 60 s: ${check('fresh data: a new id served by both instances ≤ 60 s', `${Math.max(...newid.seconds!).toFixed(1)} s`, newid.seconds!.every((s) => s <= 60), 'time scale 3600')} |\n`;
  }
  if (api) {
    // A refresher that sent nothing during the rounds was not refreshing beside them: the bar is not measured then.
    const ran = api.busyFetched > 0;
    md += `| API p99 while a refresh runs / idle (\`${api.paths.join('`, `')}\`) | ${ms(api.busy)} / ${ms(api.idle)} ms (${api.ratio.toFixed(2)} ×)${ran ? '' : '; the refresher sent no request upstream during the busy rounds'} | within 20 %: ${check('fresh data: API p99 while a refresh runs within 20 % of idle', ran ? `${api.ratio.toFixed(2)} ×` : 'not measured', ran ? api.ratio <= 1.2 : undefined, `${ran ? `${int(api.busyFetched)} upstream requests during the busy rounds; ` : `${api.ratio.toFixed(2)} × with the refresher sending nothing during the rounds; `}rounds busy ${api.busyP99.map(ms).join(', ')} ms; idle ${api.idleP99.map(ms).join(', ')} ms`)} |\n`;
    md += `| req/s in those rounds, busy / idle (median) | ${int(median(api.busyRps))} / ${int(median(api.idleRps))} (${int(api.busyFetched)} upstream requests during the rounds) | context |\n`;
  }
  if (b && !b.ok) {
    md +=
      '\nA window over the limits is counted where the fake receives requests, not where the budget hands out slots: when the server\'s event loop is held ' +
      '(a busy machine, the server loaded), requests whose slots were taken seconds apart leave together and arrive within a fraction of a second, ' +
      'past the arrival slack allowed.\n';
  }
  if (api && api.busyFetched === 0) {
    md +=
      '\nDuring the rounds the refresher sent nothing upstream although its budget had slots again: the API bar is not measured by these rounds. ' +
      '(An earlier form of this piece loaded the server with `wrk -c4`, saturating both cores: the refresher then sent nothing for as long as `wrk` ran.)\n';
  }
  return md;
}

function render(run: Run): string {
  const minutes = run.finishedAt ? (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 60_000 : NaN;
  let md = `# Benchmarks\n\n`;
  md +=
    `_Generated by \`npm run bench\` (\`bench/run.ts\`) on ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC` +
    `${Number.isNaN(minutes) ? '' : ` in ${minutes.toFixed(0)} min`}, at commit ${run.commit}${run.quick ? ', **quick run: short durations, not for comparison**' : ''}. ` +
    `Do not edit by hand; rerun it._\n\n`;
  md +=
    'Every number below comes from that one run. The machine is shared and noisy, so compare **ratios measured in the same run** ' +
    '(each table says what it is a ratio of), not absolute figures across runs. A bar is **met** or **not met** as measured here.\n\n';
  md += '## Machine and method\n\n| item | value |\n|---|---|\n';
  for (const [k, v] of Object.entries(run.machine)) md += `| ${k} | ${v} |\n`;
  md += `| run | ${run.quick ? 'quick' : 'full'}: HTTP wrk -t2 -c64, ${run.plan.httpWarmup} warm-up + ${run.plan.httpDuration} per server, ${run.plan.httpRounds} round(s) (operations: ${run.plan.operationsRounds ?? 3}${run.plan.operationsSlices ? ` × ${run.plan.operationsSlices} slices of 1 s` : ''}); search ${run.plan.searchRuns} process(es) × ${run.plan.searchPasses} pass(es); start-up ${run.plan.startupRuns} process(es); gateway ${run.plan.gatewayRounds} rounds |\n`;
  if (run.built !== undefined) md += `| packages | ${run.built ? 'built by this run (`npm run build`)' : 'not rebuilt (`--no-build`): the HTTP servers ran the dist/ already in the tree'} |\n`;
  md += `\nReproduce: \`REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench\` (see \`bench/run.ts\`).\n`;
  if (run.skipped.length) md += `\nSkipped in this run:\n\n${run.skipped.map((s) => `- ${s}`).join('\n')}\n`;
  bars.length = 0;
  const sections = `${httpSection(run)}\n${examplesSection(run)}\n${searchSection(run)}\n${startupSection(run)}\n${gatewaySection(run)}\n${operationsSection(run)}\n${routesSection(run)}\n${abuseSection(run)}\n${freshDataSection(run)}`;
  md += '\n## The performance bars, as measured\n\n';
  md += 'Latency bars are checked on wall-clock time as measured; where a piece also reports the CPU time its own process used, that is shown as context (on a busy machine the difference is time other processes held the core).\n\n';
  // A bar whose piece was skipped or failed is listed too, as not measured.
  const expected = [
    ...Object.entries(HTTP_BARS).map(([runtime, v]) => [`HTTP ${runtime}, `, `HTTP ${runtime}: adapter ≥ ${v.toFixed(2)} × raw on the 30 KB search page`]),
    ...Object.entries(EXAMPLE_HIT_BARS).map(([runtime, v]) => [`example ${runtime} (`, `example ${runtime} (${START[runtime]}), cache hit ≥ ${v.toFixed(2)} × raw on the search page, and CACHE=off bars`]),
    ['memory store search p99', `memory store search p99 ≤ ${SEARCH_BARS.memoryP99} ms (30k anime)`],
    ['PostgreSQL store search p99', `PostgreSQL store search p99 ≤ ${SEARCH_BARS.postgresP99} ms (30k anime)`],
    ...['memory store', 'PostgreSQL store'].flatMap((store) =>
      RECORD_KINDS.flatMap((record) => [
        [`search recall targets, ${store}, ${record}`, `search recall targets, ${store}, ${record}`],
        [`search empty answers = 0 over the one-edit battery, ${store}, ${record}`, `search empty answers = 0 over the one-edit battery, ${store}, ${record}`],
      ]),
    ),
    ...RECORD_KINDS.flatMap((record) => [
      [`search agreement, ${record}: same first`, `search agreement, ${record}: same first result on both stores ≥ ${100 * SEARCH_BARS.sameFirst} %`],
      [`search agreement, ${record}: top-10`, `search agreement, ${record}: top-10 overlap ≥ ${100 * SEARCH_BARS.top10Overlap} %`],
    ]),
    ['full-scale memory store starts', 'full-scale memory store starts in ≤ 5 s'],
    ['full-scale memory store holds', 'full-scale memory store holds the set in ≤ 1.5 GiB'],
    ['abuse, flood: one', 'abuse, flood: one connection pipelining 100,000 requests, server RSS growth ≤ 100 MB'],
    ['abuse, flood: /healthz', 'abuse, flood: /healthz meanwhile ≤ 100 ms'],
    ['abuse, slots:', 'abuse, slots: 55 non-reading connections at MAX_CONNECTIONS=50, a fresh client served within 1 s'],
    ['abuse, search:', 'abuse, search: /v1/anime/20 p99 ≤ 50 ms during 30 concurrent searches on PostgreSQL'],
  ];
  for (const [prefix, text] of expected) if (!bars.some((b) => b.bar.startsWith(prefix!))) bars.push({ bar: text!, measured: 'not measured', met: undefined, context: 'see its section' });
  md += '| bar | measured | | context |\n|---|---:|---|---|\n';
  for (const b of bars) md += `| ${b.bar} | ${b.measured} | ${verdict(b.met)} | ${b.context} |\n`;
  if (bars.length === 0) md += '| (nothing measured) | | | |\n';
  md += `\n${sections}`;
  if (run.log?.length) {
    md += '\n## Run log\n\nEach piece in the order it ran, with the 1-minute load average when it ended (2 cores: above 2, other work was queued for the CPU while it ran).\n\n| piece | seconds | load average | |\n|---|---:|---:|---|\n';
    for (const entry of run.log) md += `| ${entry.label} | ${entry.seconds.toFixed(0)} | ${entry.load.toFixed(1)} | ${entry.ok ? 'ok' : 'failed'} |\n`;
  }
  return md;
}

// ---------------------------------------------------------------------------------------------

const renderFrom = value('--render');
let run: Run;
if (renderFrom) {
  run = JSON.parse(readFileSync(renderFrom, 'utf8')) as Run;
} else {
  run = await measure();
  mkdirSync(resultsDir, { recursive: true });
  const saved = `${resultsDir}${run.startedAt.replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`;
  writeFileSync(saved, `${JSON.stringify(run, null, 2)}\n`);
  log(`raw results: ${saved.replace(root, '')}`);
}
const outFile = pageFor(run);
writeFileSync(outFile, render(run));
log(`wrote ${outFile.replace(root, '')}`);
