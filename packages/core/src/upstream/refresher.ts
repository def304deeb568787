/**
 * The refresher: keeps a catalogue current from a Jikan v4-compatible upstream in the schedule's
 * tiers (`schedule.ts`), within the source's budget, writing only through a `RecordWriter`.
 *
 * - **Work** is a set of tasks in the `RefreshState`: one per part of each entry, one per page of
 *   each listing read. The tasks are seeded from the ids the store holds and from what the listings
 *   and `changedIds` reveal; each task completed is rescheduled at once, in the state, so a killed
 *   refresher resumes with nothing lost and nothing done twice needlessly.
 * - **Tiers**: due tasks are taken by tier priority (`new`, `hot`, `stats`, `popular`, `full`), a
 *   few at a time (never more than it can send), and every request takes a slot of the source's
 *   budget. When the budget is short the lowest tier waits first; due work older than its tier's
 *   interval is a shortfall, logged and sent as an event.
 * - **Safe writes**: the writer validates and writes nothing invalid; a failure backs the task off
 *   exponentially; a 404 deletes an entry only when its record answers 404 again at least a day
 *   (scaled) after the first; an entry missing from a listing is never deleted for that.
 * - **One leader**: work is done only under the state's lease (real time, renewed every third of
 *   its life); the moment it is lost, the request in flight is abandoned and nothing more is written.
 *
 * Its parts: `refresher-context.ts` (settings and run state), `refresher-lease.ts`,
 * `refresher-pass.ts` (a pass and the loop), `refresher-work.ts` (one task), `refresher-seed.ts`
 * (the known ids and the tasks seeded from them) and `refresher-tasks.ts` (task shapes and tiers);
 * its public types are in `refresher-types.ts`.
 * @module
 */
import { createContext } from './refresher-context.js';
import { giveUpLease } from './refresher-lease.js';
import { loop, pass, type SerialPass } from './refresher-pass.js';
import type { Refresher, RefresherOptions } from './refresher-types.js';

export type { PassSummary, RefreshEvent, Refresher, RefresherLogger, RefresherOptions, RefresherStatus } from './refresher-types.js';

/**
 * Creates a refresher.
 * @param options - The store, source, state and writer, and the schedule's settings.
 * @returns A refresher, not yet started.
 * @example
 * ```ts
 * const refresher = createRefresher({ store, source, state, writer: createRecordWriter(store), timeScale: 1 });
 * refresher.start();
 * // … on shutdown:
 * await refresher.stop();
 * ```
 */
export function createRefresher(options: RefresherOptions): Refresher {
  const ctx = createContext(options);
  const { run } = ctx;
  let running: Promise<void> | undefined;
  let stopper: AbortController | undefined;
  /** Passes of one refresher run one after another (`runOnce` while started waits its turn). */
  let queue: Promise<unknown> = Promise.resolve();
  const serial: SerialPass = (outer, once) => {
    const go = () => pass(ctx, outer, once);
    const next = queue.then(go, go);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    start() {
      if (running) return;
      stopper = new AbortController();
      running = loop(ctx, serial, stopper.signal);
    },
    async stop() {
      stopper?.abort();
      run.passAbort?.abort();
      await running;
      running = undefined;
      await giveUpLease(ctx);
    },
    async runOnce(runOptions) {
      return serial(runOptions?.signal, true);
    },
    get leader() {
      return run.leader;
    },
    status() {
      return {
        leader: run.leader,
        holder: ctx.holder,
        source: { name: ctx.source.name, health: ctx.source.health() },
        backlog: run.backlog,
        shortfall: run.shortfall,
        lastError: run.lastError,
        lastPass: run.lastPass,
        fetched: { ...run.fetched },
      };
    },
  };
}
