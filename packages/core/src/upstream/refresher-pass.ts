/**
 * The refresher's passes (`refresher.ts`): one pass works due tasks by tier, a few at a time, under
 * the lease; the loop runs pass after pass, waiting for the next due task between them.
 * @module
 */
import { noteError, zeroTiers, type RefresherContext } from './refresher-context.js';
import { holdLease, keepLease } from './refresher-lease.js';
import type { PassSummary } from './refresher-types.js';
import { load, reconcile } from './refresher-seed.js';
import { work, type Work } from './refresher-work.js';
import { scaled, TIERS } from './schedule.js';
import type { RefreshState, Task, TierName } from './types.js';

/** How often the whole task set is checked against the store's ids (scaled). */
const RECONCILE_EVERY = 60 * 60_000;
/** Tasks a running pass works before it ends and the next begins (bounds what a pass remembers). */
const PASS_TASKS = 1_000;
/** At most how often the backlog is measured while running (real time). */
const BACKLOG_EVERY = 10_000;

/** Runs a pass, after the passes before it. */
export type SerialPass = (outer: AbortSignal | undefined, once: boolean) => Promise<PassSummary>;

/** Measures the backlog per tier (at most every few seconds unless forced), and reports the tiers short of their schedule. */
async function measure(ctx: RefresherContext, now: number, force: boolean): Promise<void> {
  const { run } = ctx;
  if (!force && now - run.backlogAt < BACKLOG_EVERY) return;
  run.backlogAt = now;
  const backlog = await ctx.state.backlog(now);
  run.backlog = backlog;
  const short: TierName[] = [];
  for (const tier of TIERS) {
    const b = backlog[tier];
    if (b.oldestDueAt === null) continue;
    const lag = now - b.oldestDueAt;
    // The `new` tier holds the discovery listings too, which recur at the discovery interval.
    const target = tier === 'new' ? Math.max(ctx.interval('new'), ctx.interval('discovery')) : ctx.interval(tier);
    if (lag > target) {
      short.push(tier);
      ctx.emit({ type: 'shortfall', tier, due: b.due, lagMs: lag });
    }
  }
  if (short.length > 0 && short.join() !== run.shortfall.join())
    ctx.logger?.warn('Refresher is behind its schedule: the budget is short', {
      tiers: short,
    });
  run.shortfall = short;
}

const emptySummary = (startedAt: number): PassSummary => ({
  leader: false,
  startedAt,
  endedAt: startedAt,
  fetched: zeroTiers(),
  written: 0,
  unchanged: 0,
  invalid: 0,
  failed: 0,
  notFound: 0,
  deleted: 0,
  discovered: 0,
});

/**
 * Works due tasks, by tier priority, `concurrency` at a time, until none is due (or the pass is
 * aborted, the circuit opens, or a task throws).
 * @returns What a task threw, if one did.
 */
async function workDue(ctx: RefresherContext, w: Work, once: boolean): Promise<unknown> {
  const inflight = new Map<string, Promise<void>>();
  // The due time each task had when worked: one due again later (discovery, every few minutes)
  // is worked again while running, so a long pass never holds a higher tier back; `runOnce`
  // works each task once, so that one pass ends.
  const worked = new Map<string, number>();
  const eligible = (t: Task) => !inflight.has(t.key) && (once ? !worked.has(t.key) : worked.get(t.key) !== t.dueAt);
  let failure: unknown;
  for (;;) {
    if (w.signal.aborted || failure !== undefined) break;
    if (!once && worked.size >= PASS_TASKS && inflight.size === 0) break;
    if (ctx.source.health().circuit === 'open') {
      w.summary.stopped = 'circuit';
      break;
    }
    await measure(ctx, ctx.clock(), false);
    const free = !once && worked.size >= PASS_TASKS ? 0 : ctx.concurrency - inflight.size;
    if (free > 0) {
      const limit = free + inflight.size + Math.min(worked.size, 64);
      const tasks = (await ctx.state.due(ctx.clock(), limit)).filter(eligible).slice(0, free);
      for (const task of tasks) {
        // Each task starts in a turn of its own, after whatever else the host has waiting.
        await ctx.pause();
        if (w.signal.aborted) break;
        worked.set(task.key, task.dueAt);
        const p = work(ctx, task, w)
          .catch((error: unknown) => {
            failure ??= error;
          })
          .finally(() => inflight.delete(task.key));
        inflight.set(task.key, p);
      }
    }
    if (inflight.size === 0) break;
    await Promise.race(inflight.values());
  }
  await Promise.allSettled(inflight.values());
  return failure;
}

/** A pass under the lease: the id sets loaded, the store reconciled when due, due tasks worked, the backlog measured. */
async function workPass(ctx: RefresherContext, summary: PassSummary, signal: AbortSignal, once: boolean): Promise<void> {
  const startedAt = summary.startedAt;
  const l = (ctx.run.loaded ??= await load(ctx));
  const reconciledAt = Number((await ctx.state.getCursor('reconciledAt')) ?? Number.NEGATIVE_INFINITY);
  if (!(startedAt - reconciledAt < scaled(RECONCILE_EVERY, ctx.timeScale))) await reconcile(ctx, l, startedAt);
  const w: Work = {
    l,
    signal,
    summary,
    passStart: startedAt,
  };
  const failure = await workDue(ctx, w, once);
  if (failure !== undefined) {
    summary.stopped = 'error';
    noteError(ctx, String(failure));
    ctx.logger?.error('Refresher pass failed', { error: String(failure) });
  }
  if (signal.aborted && !summary.stopped) summary.stopped = 'aborted';
  if (!signal.aborted) await measure(ctx, ctx.clock(), once);
}

/**
 * One pass: takes the lease, and while it holds it (renewed as the pass runs), works what is due.
 * @param ctx - The refresher's context.
 * @param outer - Aborts the pass.
 * @param once - Whether each task is worked at most once (`runOnce`), or a task due again is worked again.
 * @returns What the pass did.
 */
export async function pass(ctx: RefresherContext, outer: AbortSignal | undefined, once: boolean): Promise<PassSummary> {
  const summary = emptySummary(ctx.clock());
  if (outer?.aborted) return { ...summary, stopped: 'aborted' };
  if (!(await holdLease(ctx))) return summary;
  summary.leader = true;
  const abort = new AbortController();
  ctx.run.passAbort = abort;
  const onOuter = () => abort.abort();
  outer?.addEventListener('abort', onOuter, { once: true });
  const keeper = new AbortController();
  const keeping = keepLease(ctx, AbortSignal.any([keeper.signal, abort.signal]), () => {
    summary.stopped = 'lease';
    abort.abort();
  });
  try {
    await workPass(ctx, summary, abort.signal, once);
  } finally {
    keeper.abort();
    await keeping;
    outer?.removeEventListener('abort', onOuter);
    if (ctx.run.passAbort === abort) ctx.run.passAbort = undefined;
  }
  summary.endedAt = ctx.clock();
  ctx.run.lastPass = summary;
  ctx.emit({ type: 'pass', summary });
  return summary;
}

/** When the next task is due, or `null` when none is. */
async function nextDue(state: RefreshState): Promise<number | null> {
  const s = state as RefreshState & {
    nextDueAt?: () => Promise<number | null>;
  };
  if (s.nextDueAt) return s.nextDueAt();
  const b = await state.backlog(Number.MAX_SAFE_INTEGER);
  let next: number | null = null;
  for (const tier of TIERS) {
    const at = b[tier].oldestDueAt;
    if (at !== null && (next === null || at < next)) next = at;
  }
  return next;
}

/**
 * Runs pass after pass until aborted, waiting between them for the next due task (at most a
 * lease renewal), or for the circuit to close.
 * @param ctx - The refresher's context.
 * @param serial - Runs a pass after the passes before it.
 * @param signal - Ends the loop.
 */
export async function loop(ctx: RefresherContext, serial: SerialPass, signal: AbortSignal): Promise<void> {
  const { renewMs } = ctx;
  while (!signal.aborted) {
    let wait = renewMs;
    try {
      const s = await serial(signal, false);
      if (signal.aborted) break;
      if (s.leader && s.stopped === 'circuit') {
        const until = ctx.source.health().until;
        wait = Math.min(renewMs, Math.max(1000, (until ?? 0) - ctx.clock()));
      } else if (s.leader && s.stopped === undefined) {
        const next = await nextDue(ctx.state);
        const worked = TIERS.some((t) => s.fetched[t] > 0);
        wait = next === null ? renewMs : Math.min(renewMs, Math.max(worked ? 0 : 1000, next - ctx.clock()));
      }
    } catch (error) {
      noteError(ctx, String(error));
      ctx.logger?.error('Refresher failed', { error: String(error) });
    }
    if (wait > 0) await ctx.sleep(wait, signal);
  }
}
