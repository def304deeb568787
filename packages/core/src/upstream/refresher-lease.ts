/**
 * The refresher's lease (`refresher.ts`): work is done only under the state's lease (real time,
 * renewed every third of its life), and given up on `stop()`.
 * @module
 */
import { noteError, type RefresherContext } from './refresher-context.js';

/**
 * Notes whether the refresher holds the lease; losing it forgets the id sets in memory.
 * @param ctx - The refresher's context.
 * @param value - Whether it holds the lease now.
 */
export function setLeader(ctx: RefresherContext, value: boolean): void {
  const { run } = ctx;
  if (value === run.leader) return;
  run.leader = value;
  if (!value) run.loaded = undefined;
  ctx.emit({ type: 'lease', leader: value });
  ctx.logger?.info(value ? 'Refresher took the lease' : 'Refresher does not hold the lease', { holder: ctx.holder });
}

/**
 * Takes or renews the lease.
 * @param ctx - The refresher's context.
 * @returns Whether the refresher holds it (not when the state is unreachable).
 */
export async function holdLease(ctx: RefresherContext): Promise<boolean> {
  let ok = false;
  try {
    ok = await ctx.state.acquireLease(ctx.holder, ctx.clock(), ctx.leaseMs);
  } catch (error) {
    noteError(ctx, `lease: ${String(error)}`);
    ctx.logger?.error('Refresher could not reach its state for the lease', {
      error: String(error),
    });
  }
  setLeader(ctx, ok);
  return ok;
}

/**
 * Renews the lease every third of its life while a pass runs; aborts the pass the moment it is lost.
 * @param ctx - The refresher's context.
 * @param signal - Ends the renewals.
 * @param onLost - Called once when the lease is lost.
 */
export async function keepLease(ctx: RefresherContext, signal: AbortSignal, onLost: () => void): Promise<void> {
  while (!signal.aborted) {
    await ctx.sleep(ctx.renewMs, signal);
    if (signal.aborted) return;
    if (!(await holdLease(ctx))) {
      onLost();
      return;
    }
  }
}

/**
 * Gives the lease up, if held (when the state is unreachable, it runs out by itself).
 * @param ctx - The refresher's context.
 */
export async function giveUpLease(ctx: RefresherContext): Promise<void> {
  if (ctx.run.leader) {
    try {
      await ctx.state.releaseLease(ctx.holder);
    } catch (error) {
      ctx.logger?.warn('Refresher could not give its lease up; it runs out by itself', { error: String(error) });
    }
  }
  setLeader(ctx, false);
}
