/**
 * The example Bun server on the embedded demo dataset: the catalogue API at `/v1` (its reference
 * page at `/v1/docs`) and the status API at `/api/status` (its page at `/status`), served by
 * `Bun.serve` through `@catalogue-api/adapter-bun`.
 *
 * Run from the repository root with `npm run start:bun` (it builds the packages first): Bun
 * resolves `@catalogue-api/*` through the npm workspace links in `node_modules` to each
 * package's built `dist/`, exactly as an installed package would.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits,
 * for load tests and contract runs), `CACHE=off` (no response cache; ETags and 304s remain), `STATUS_INTERVAL_SECONDS` (default 60), `SERVER_KEYS` and
 * `RESTRICTED_ROUTES` (comma-separated, as in the Node example: `/v1/top/*,/v1/anime/:id/full`),
 * `FINGERPRINT_SECRET` (the keyed fingerprints of Server Keys and clients, as in the Node example),
 * `TRUST_PROXY` (which proxies may set `X-Forwarded-For`: a number of hops, `true`, or addresses
 * and CIDR ranges, comma-separated; unset: none), and the operations settings of the Node example
 * (`examples/node/observability.ts`):
 * - `ACCESS_LOG`: `json` (default) writes one JSON line per request to stdout (pino's format, through
 *   pino's asynchronous destination); `off`
 *   writes none. `ACCESS_LOG_SAMPLE`: the share of requests logged, from 0 to 1 (default 1).
 *   `ACCESS_LOG_CLIENT`: how the client is named: `hash` (default, a keyed hash stable for the
 *   process), `address` (the IP address) or `none`.
 * - `REQUEST_ID`: `on` (default) sends an `X-Request-Id` on every answer, whatever the log and
 *   metrics settings; `off` sends none. `TRUST_PROXY` also says whose `X-Request-Id` is kept;
 *   other requests get a new one.
 * - `METRICS_PORT`: serve `GET /metrics` (Prometheus text format) on this port, on `METRICS_HOST`
 *   (default 127.0.0.1, whatever `HOST` is), never on the public port. Unset: no metrics are kept;
 *   set, readiness is also checked every 5 s for `catalogue_dependency_up`.
 * - `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601) and `API_SUCCESSOR_URL`: send `Deprecation`,
 *   `Sunset` and `Link: <…>; rel="successor-version"` on every `/v1` answer.
 *
 * `UPSTREAM_URL` and the other refresher variables (see docs/fresh-data.md) keep the memory store
 * current from a Jikan v4-compatible API, its state saved to `UPSTREAM_STATE_FILE`;
 * the upstream is a service of the status API.
 *
 * Every variable is read and checked by core's `readServerEnv` before anything listens: a value it
 * cannot use, or a start-up that fails (a port taken), stops the server with one line on stderr and
 * exit code 2 (configuration) or 1 (anything else). SIGTERM and SIGINT drain: no new connections,
 * requests in flight are answered, the access log is flushed; within `SHUTDOWN_TIMEOUT_MS` (default
 * 8000), else it exits anyway (code 1). A second signal exits at once. Every line it writes is
 * pino's JSON: start-up and shutdown on stdout with the access log, warnings and errors on stderr.
 * With `METRICS_PORT`, prom-client's process and runtime metrics are served beside the catalogue's.
 * `/healthz` and `/readyz` answer on `PORT`, outside the rate limits, never cached.
 * @module
 */
import { hostname as hostName } from 'node:os';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { serve } from '@catalogue-api/adapter-bun';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import corePackage from '@catalogue-api/core/package.json' with { type: 'json' };
import { createAccessLineFormatter, createLineLogger, drainOnSignals, startDemoServer, toStartupFailure, type RequestObserver } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';

// Access log lines go out asynchronously through pino's destination (sonic-boom), encoded as they
// come into a 64 KiB piece that is handed over once full or once a line has waited 20 ms, and are
// flushed at shutdown; the server's own info lines go the same way, so that the two never
// interleave. Line by line, as text, sonic-boom measured the UTF-8 length of all that waited and
// wrote each line with its own call: with pino's serializer, a third of a cache hit's CPU
// (`bun --cpu-prof`). (Opened once the variables are read, when the access log is on.)
const PIECE = 65_536;
const stdout: { file?: ReturnType<typeof pino.destination>; piece: Buffer; used: number; timer?: ReturnType<typeof setTimeout> | undefined } = {
  piece: Buffer.allocUnsafeSlow(PIECE),
  used: 0,
};
const flushLines = () => {
  clearTimeout(stdout.timer);
  stdout.timer = undefined;
  if (stdout.used === 0) return;
  // sonic-boom keeps what it is given until written: the next piece is a new buffer. (Its types know only text.)
  stdout.file!.write(stdout.piece.subarray(0, stdout.used) as unknown as string);
  stdout.piece = Buffer.allocUnsafeSlow(PIECE);
  stdout.used = 0;
};
const writeLine = (line: string) => {
  const file = stdout.file;
  if (!file) return void process.stdout.write(line);
  // A UTF-16 code unit takes at most 3 bytes in UTF-8.
  if (stdout.used + line.length * 3 > PIECE) {
    flushLines();
    if (line.length * 3 > PIECE) return void file.write(Buffer.from(line) as unknown as string);
  }
  stdout.used += stdout.piece.write(line, stdout.used);
  stdout.timer ??= setTimeout(flushLines, 20);
};
const base = { pid: process.pid, hostname: hostName() };
const log = createLineLogger(base, writeLine, (line) => process.stderr.write(line));

// Until it listens, whatever stops the start (a bad variable, a port taken) is one line on stderr, not a stack trace.
const refuseToStart = (error: unknown) => {
  const { line, exitCode } = toStartupFailure(error);
  log.fatal(line);
  process.exit(exitCode);
};
process.once('uncaughtException', refuseToStart);

/** A state file: read whole; written beside it and renamed over it, so that a crash leaves the previous state. */
const bunSnapshots = (path: string) => ({
  read: () => readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error))),
  async write(text: string) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.${process.pid}.tmp`, text);
    await rename(`${path}.${process.pid}.tmp`, path);
  },
});

const demo = await startDemoServer({
  runtime: { name: 'Bun', version: process.versions.bun ?? '' },
  version: corePackage.version,
  variables: process.env,
  data: demoData,
  log,
  apps: [createApiReferenceApp()],
  serve,
  // The process and runtime: prom-client's default metrics, as far as Bun gives them (no GC series).
  runtimeMetrics() {
    const runtime = new Registry();
    collectDefaultMetrics({ register: runtime });
    return runtime;
  },
  accessLog() {
    // Bytes in, as the lines are gathered (see writeLine): sonic-boom's buffer mode.
    const file = (stdout.file = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }));
    // A forced stop still writes the access log lines that are waiting.
    process.once('exit', () => (flushLines(), file.flushSync()));
    const toLine = createAccessLineFormatter(base);
    const observe: RequestObserver = (record) => writeLine(toLine(record));
    return { observe, end: async () => (flushLines(), file.flushSync()) };
  },
  // The refresher's state in memory, saved to UPSTREAM_STATE_FILE (written beside it and renamed, never half a file).
  snapshots: bunSnapshots,
});

// Serving: an error from now on is a bug, with its stack.
process.off('uncaughtException', refuseToStart);
drainOnSignals(process, { log, timeoutMs: demo.shutdownTimeoutMs, stop: demo.stop });
