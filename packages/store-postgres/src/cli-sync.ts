/**
 * `catalogue-api sync`: keeps a PostgreSQL catalogue current from a Jikan v4-compatible upstream
 * with core's refresher, as a server with `UPSTREAM_URL` does, from a terminal or a cron job:
 * one pass over everything due now, or `--watch` until stopped. Its state (what is due when, the
 * budget spent, the lease) is the servers' own, in the catalogue's schema, so a pass and a server
 * on one database never refresh at once nor spend more than the budget between them.
 *
 * A progress bar on a terminal (cli-progress, already the importer's), plain lines every ten
 * seconds otherwise. Exit codes are in {@link SYNC_USAGE}.
 * @module
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { EnvError, readServerEnv } from '@catalogue-api/core';
import { createRefresherFromEnv, UPSTREAM_ENV, type PassSummary, type RefreshEvent, type TierName } from '@catalogue-api/core/upstream';
import { createPostgresStore } from './catalogue-store.js';
import { createPostgresRefreshState } from './refresh-state.js';

/** The usage of `catalogue-api sync`. */
export const SYNC_USAGE = `usage: catalogue-api sync --upstream URL [--watch] [options]

Refreshes a PostgreSQL catalogue from a Jikan v4-compatible API (the public Jikan, a self-hosted
jikan-rest, or another instance of this library) in the refresher's tiers, within the upstream's
budget. The state is shared with every server on the same database (see docs/fresh-data.md).

  --upstream URL        base URL, e.g. https://api.jikan.moe/v4 (default: $UPSTREAM_URL)
  --database-url U      PostgreSQL URL (default: $DATABASE_URL)
  --schema S            PostgreSQL schema (default: $DATABASE_SCHEMA, else catalogue)
  --watch               keep refreshing until SIGINT or SIGTERM, instead of one pass
  --max-per-second N    the upstream's budget (default: $UPSTREAM_MAX_PER_SECOND, else 3)
  --max-per-minute N    (default: $UPSTREAM_MAX_PER_MINUTE, else 60)
  --time-scale N        divides every refresh interval (default: $UPSTREAM_TIME_SCALE, else 1)

The tiers' intervals come from REFRESH_DISCOVERY_MINUTES, REFRESH_NEW_MINUTES, REFRESH_HOT_HOURS,
REFRESH_STATS_HOURS, REFRESH_POPULAR_DAYS and REFRESH_FULL_DAYS, as for the servers.

Exit codes: 0 the pass worked everything due (with --watch: stopped by a signal); 1 the pass ended,
but some requests failed or some bodies were invalid (nothing invalid was written; they are asked
again later); 2 usage error; 3 the pass stopped early (the upstream's circuit opened, the database
was lost, or a signal): what was done is kept, run it again to go on; 4 another refresher holds the
lease (a server with UPSTREAM_URL, or another sync, on this database): nothing was done.`;

/** Exit codes; see {@link SYNC_USAGE}. */
const EXIT = { ok: 0, failures: 1, usage: 2, stopped: 3, leased: 4 } as const;

/** How long the sync's connections may stay silent while a statement runs (the store's `timeoutMs`). */
const SYNC_TIMEOUT_MS = 60_000;

/** How often the progress is measured (and, off a terminal, written). */
const TICK_MS = 1_000;
const LINE_EVERY_MS = 10_000;

interface Counts {
  requests: number;
  written: number;
  unchanged: number;
  invalid: number;
  failed: number;
  deleted: number;
  discovered: number;
}

interface Progress {
  event(event: RefreshEvent): void;
  measure(due: number, minute: number, perMinute: number): void;
  log(line: string): void;
  stop(): void;
  readonly counts: Counts;
}

/** A bar on a terminal, plain lines elsewhere. The total grows as work falls due and ids are discovered. */
function progressReporter(label: string): Progress {
  const counts: Counts = { requests: 0, written: 0, unchanged: 0, invalid: 0, failed: 0, deleted: 0, discovered: 0 };
  const onEvent = (event: RefreshEvent) => {
    if (event.type === 'fetched') counts.requests++;
    else if (event.type === 'written' || event.type === 'unchanged' || event.type === 'invalid' || event.type === 'failed') counts[event.type]++;
    else if (event.type === 'deleted') counts.deleted++;
    else if (event.type === 'discovered') counts.discovered += event.ids.length;
  };
  const fields = (minute: number, perMinute: number) => ({ ...counts, budget: `${minute}/${perMinute}` });
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} requests | {written} written, {unchanged} unchanged, {invalid} invalid, {failed} failed | {budget} a minute`,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1, 0, fields(0, 0));
    return {
      counts,
      event: onEvent,
      measure(due, minute, perMinute) {
        bar.setTotal(Math.max(1, counts.requests + due));
        bar.update(counts.requests, fields(minute, perMinute));
      },
      // Clears the bar's line; the bar draws itself again below on its next update.
      log: (line) => process.stderr.write(`\r\x1b[2K${line}\n`),
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  return {
    counts,
    event: onEvent,
    measure(due, minute, perMinute) {
      const now = Date.now();
      if (now - last < LINE_EVERY_MS) return;
      last = now;
      const c = counts;
      console.error(
        `${label}: ${c.requests} requests, ${due} due; ${c.written} written, ${c.unchanged} unchanged, ${c.invalid} invalid, ${c.failed} failed; budget ${minute}/${perMinute} a minute`,
      );
    },
    log: (line) => console.error(line),
    stop() {},
  };
}

function usageError(message: string): number {
  console.error(`${message}\n\n${SYNC_USAGE}`);
  return EXIT.usage;
}

/** The exit code of a pass. */
function exitOf(summary: PassSummary): number {
  if (!summary.leader || summary.stopped === 'lease') return EXIT.leased;
  if (summary.stopped !== undefined) return EXIT.stopped;
  return summary.failed > 0 || summary.invalid > 0 ? EXIT.failures : EXIT.ok;
}

/**
 * Runs `catalogue-api sync`.
 * @param argv - The arguments after `sync`.
 * @returns The exit code (see {@link SYNC_USAGE}).
 */
export async function runSync(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        upstream: { type: 'string' },
        'database-url': { type: 'string' },
        schema: { type: 'string' },
        watch: { type: 'boolean' },
        'max-per-second': { type: 'string' },
        'max-per-minute': { type: 'string' },
        'time-scale': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    console.log(SYNC_USAGE);
    return EXIT.ok;
  }
  // The flags stand in for the variables, read and checked as the servers read them.
  const given = (flag: string | undefined, variable: string) => flag ?? process.env[variable];
  let env;
  try {
    env = readServerEnv(
      {
        ...process.env,
        UPSTREAM_URL: given(values.upstream, 'UPSTREAM_URL'),
        UPSTREAM_MAX_PER_SECOND: given(values['max-per-second'], 'UPSTREAM_MAX_PER_SECOND'),
        UPSTREAM_MAX_PER_MINUTE: given(values['max-per-minute'], 'UPSTREAM_MAX_PER_MINUTE'),
        UPSTREAM_TIME_SCALE: given(values['time-scale'], 'UPSTREAM_TIME_SCALE'),
        DATABASE_URL: given(values['database-url'], 'DATABASE_URL'),
        DATABASE_SCHEMA: given(values.schema, 'DATABASE_SCHEMA'),
      },
      { only: [...UPSTREAM_ENV, 'DATABASE_URL', 'DATABASE_SCHEMA'] },
    );
  } catch (error) {
    if (error instanceof EnvError) return usageError(`${error.message} (or its flag)`);
    throw error;
  }
  if (!env.UPSTREAM_URL) return usageError('sync needs --upstream or UPSTREAM_URL');
  if (!env.DATABASE_URL) return usageError('sync needs --database-url or DATABASE_URL');

  const store = createPostgresStore({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, max: 4, timeoutMs: SYNC_TIMEOUT_MS, applicationName: 'catalogue-api-sync' });
  const progress = progressReporter(`sync ← ${new URL(env.UPSTREAM_URL).host}`);
  const say = (message: string, fields?: object) => progress.log(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  const stopper = new AbortController();
  const onSignal = () => stopper.abort(new Error('stopped by a signal'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let ticker: ReturnType<typeof setInterval> | undefined;
  try {
    await store.migrate();
    const state = await createPostgresRefreshState({ sql: store.sql, schema: store.schema });
    const holder = `catalogue-api-sync-${crypto.randomUUID()}`;
    const upstream = (await createRefresherFromEnv({
      env,
      store,
      state,
      holder,
      logger: { info: say, warn: say, error: say },
      onEvent: (event) => progress.event(event),
    }))!;
    const limits = upstream.settings.limits;
    const tick = async () => {
      try {
        const now = Date.now();
        const [backlog, usage] = await Promise.all([state.backlog(now), state.usage(now)]);
        const due = (Object.keys(backlog) as TierName[]).reduce((sum, tier) => sum + backlog[tier].due, 0);
        progress.measure(due, usage.minute, limits.perMinute);
      } catch {
        // The refresher reports a lost database; the bar waits for the next tick.
      }
    };
    ticker = setInterval(() => void tick(), TICK_MS);
    if (values.watch) {
      upstream.start();
      await new Promise<void>((resolve) => stopper.signal.addEventListener('abort', () => resolve(), { once: true }));
      await upstream.stop();
      progress.stop();
      say(`sync stopped: ${progress.counts.requests} requests, ${progress.counts.written} written`);
      return EXIT.ok;
    }
    const summary = await upstream.refresher.runOnce({ signal: stopper.signal });
    await upstream.stop();
    // A pass keeps the lease until it runs out; given up now, a server may take over at once.
    if (summary.leader) await state.releaseLease(holder);
    await tick();
    progress.stop();
    const code = exitOf(summary);
    const c = summary;
    const seconds = ((c.endedAt - c.startedAt) / 1000).toFixed(1);
    if (code === EXIT.leased) {
      console.error('sync: another refresher holds the lease on this database (a server with UPSTREAM_URL, or another sync); nothing was done.');
    } else {
      const requests = Object.values(c.fetched).reduce((sum, n) => sum + n, 0);
      console.error(
        `sync: ${requests} requests in ${seconds} s; ${c.written} written, ${c.unchanged} unchanged, ${c.invalid} invalid, ${c.failed} failed, ` +
          `${c.notFound} not found, ${c.deleted} deleted, ${c.discovered} new ids` +
          (c.stopped ? `; stopped early (${c.stopped}): run it again to go on` : ''),
      );
    }
    return code;
  } catch (error) {
    progress.stop();
    console.error(`catalogue-api sync: ${(error as Error).message}\nWhat was done is kept; running it again goes on.`);
    return EXIT.stopped;
  } finally {
    clearInterval(ticker);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await store.close();
  }
}
