/**
 * Working one of the refresher's tasks (`refresher.ts`): an entry's part, a listing's page or the
 * upstream's changes, asked of the source, written through the writer, and the task rescheduled,
 * backed off after a failure, or removed.
 * @module
 */
import type { MediaKind } from '../catalogue/queries.js';
import { noteError, type Loaded, type RefresherContext } from './refresher-context.js';
import type { PassSummary } from './refresher-types.js';
import { adopt, discover, forget, saveSet } from './refresher-seed.js';
import { classify, entryTask, intervalOf, listKey, listTask, spread, tierOfPart } from './refresher-tasks.js';
import { DAY, scaled, WALKED_LISTS } from './schedule.js';
import type { EntryPart, ListName, ListPage, RecordWriter, Task, TierName } from './types.js';

/** A 304 or a 200 counts as success; the first failure waits this long (scaled, at least a second), doubling up to the tier's interval. */
const RETRY_BASE = 60_000;
/** How much earlier than the last call `changedIds` asks from (clocks of two hosts differ). */
const CHANGES_OVERLAP = 60_000;
/** Pages of `newest` or `upcoming` followed past page 1 while every entry on them is new. */
const MAX_FOLLOW_PAGES = 20;
/** Listings whose pages past 1 are read once, when page 1 was all new. */
const FOLLOWED: readonly ListName[] = ['newest', 'upcoming'];

/** What the tasks of one pass share. */
export interface Work {
  l: Loaded;
  signal: AbortSignal;
  summary: PassSummary;
  /** When something discovered in this pass is due: within it. */
  passStart: number;
}

async function reschedule(ctx: RefresherContext, task: Task, now: number, changes: Partial<Task> = {}): Promise<void> {
  const next: Task = {
    ...task,
    failures: 0,
    notFoundAt: undefined,
    ...changes,
    dueAt: 0,
  };
  const every = intervalOf(ctx, next);
  // From when it was due, so that waiting for a budget slot does not stretch the cadence; from
  // now when it is a whole interval late (the budget is short: no catching up in a burst).
  const at = task.dueAt + every;
  await ctx.state.put([{ ...next, dueAt: at > now ? at : now + every }]);
}

async function fail(ctx: RefresherContext, task: Task, now: number, reason: string, w: Work, invalid = false): Promise<void> {
  const failures = task.failures + 1;
  const base = Math.max(1000, scaled(RETRY_BASE, ctx.timeScale));
  const wait = Math.min(base * 2 ** Math.min(failures - 1, 30), Math.max(base, intervalOf(ctx, task)));
  await ctx.state.put([{ ...task, failures, dueAt: now + wait }]);
  noteError(ctx, `${task.key}: ${reason}`);
  if (invalid) {
    w.summary.invalid++;
    ctx.emit({ type: 'invalid', tier: task.tier, task: task.key, reason });
  } else {
    w.summary.failed++;
    ctx.emit({
      type: 'failed',
      tier: task.tier,
      task: task.key,
      reason,
      failures,
    });
  }
  ctx.logger?.warn(invalid ? 'Refresher rejected an invalid body' : 'Refresher request failed', { task: task.key, reason, failures });
}

const counted = (ctx: RefresherContext, task: Task, w: Work, outcome: 'ok' | 'unchanged' | 'not-found' | 'failed') => {
  w.summary.fetched[task.tier]++;
  ctx.run.fetched[task.tier]++;
  ctx.emit({ type: 'fetched', tier: task.tier, task: task.key, outcome });
};

/** The tier of an entry's part after a refresh, from its record now; keeps the hot and popular cursors in step. */
async function tierAfter(ctx: RefresherContext, w: Work, kind: MediaKind, id: number, part: EntryPart, now: number): Promise<TierName> {
  const record = await ctx.store.get(kind, id);
  const c = classify(ctx.schedule, kind, record, now);
  for (const [name, on] of [
    ['hot', c.hot],
    ['popular', c.popular],
  ] as const) {
    const set = w.l[name].get(kind)!;
    if (on !== set.has(id)) {
      if (on) set.add(id);
      else set.delete(id);
      await saveSet(ctx, name, kind, set);
    }
  }
  return tierOfPart(ctx.schedule, kind, part, c);
}

async function workEntry(ctx: RefresherContext, task: Task, w: Work): Promise<void> {
  const kind = task.kind;
  const id = task.id!;
  const part = task.part!;
  if (task.tier !== 'new' && task.notFoundAt === undefined && !(await ctx.store.get(kind, id))) {
    // Removed from the store by someone else (an import): no longer ours to refresh. Its record's
    // task decides; another part waits for it.
    if (part === 'full') return forget(ctx, w.l, kind, id);
    return reschedule(ctx, task, ctx.clock());
  }
  const fetched = await ctx.source.entry(kind, id, part, task.validator, w.signal);
  // The body was read and parsed in this turn of the event loop; its records are written in the next.
  await ctx.pause();
  if (w.signal.aborted) return;
  const now = ctx.clock();
  counted(ctx, task, w, fetched.outcome);
  switch (fetched.outcome) {
    case 'ok': {
      const outcome = await ctx.writer.part(kind, id, part, fetched.body, now);
      if (w.signal.aborted) return;
      if (outcome.outcome === 'invalid') return fail(ctx, task, now, outcome.reason, w, true);
      if (outcome.outcome === 'changed') {
        w.summary.written++;
        ctx.emit({
          type: 'written',
          tier: task.tier,
          task: task.key,
          records: outcome.keys.length,
        });
      } else {
        w.summary.unchanged++;
        ctx.emit({ type: 'unchanged', tier: task.tier, task: task.key });
      }
      return reschedule(ctx, task, now, {
        tier: await tierAfter(ctx, w, kind, id, part, now),
        validator: fetched.validator,
      });
    }
    case 'unchanged':
      w.summary.unchanged++;
      ctx.emit({ type: 'unchanged', tier: task.tier, task: task.key });
      return reschedule(ctx, task, now, {
        tier: await tierAfter(ctx, w, kind, id, part, now),
      });
    case 'not-found':
      return notFound(ctx, task, now, w);
    case 'failed':
      return fail(ctx, task, now, fetched.reason, w);
  }
}

/** A 404: noted; the entry goes only when its record answers 404 again a day (scaled) later. */
async function notFound(ctx: RefresherContext, task: Task, now: number, w: Work): Promise<void> {
  const kind = task.kind;
  const id = task.id!;
  const since = task.notFoundAt ?? now;
  w.summary.notFound++;
  ctx.emit({ type: 'not-found', tier: task.tier, task: task.key, since });
  ctx.logger?.info('Upstream answered 404', { task: task.key, since });
  // Only the entry's own record decides; a sub-resource's 404 is asked again at its interval.
  if (task.part !== 'full')
    return reschedule(ctx, task, now, {
      tier: task.tier === 'new' ? 'full' : task.tier,
    });
  const day = scaled(DAY, ctx.timeScale);
  if (task.notFoundAt === undefined || now - task.notFoundAt < day) {
    await ctx.state.put([{ ...task, failures: 0, notFoundAt: since, dueAt: since + day }]);
    return;
  }
  const removed = await ctx.writer.remove(kind, id, now);
  if (w.signal.aborted) return;
  await forget(ctx, w.l, kind, id);
  w.summary.deleted++;
  ctx.emit({ type: 'deleted', kind, id });
  ctx.logger?.info('Refresher deleted an entry the upstream no longer has', {
    kind,
    id,
    removed,
  });
}

async function workList(ctx: RefresherContext, task: Task, w: Work): Promise<void> {
  const kind = task.kind;
  const list = task.list!;
  const page = task.page!;
  const fetched = await ctx.source.list(kind, list, page, w.signal);
  await ctx.pause();
  if (w.signal.aborted) return;
  const now = ctx.clock();
  counted(ctx, task, w, fetched.outcome);
  const oneShot = FOLLOWED.includes(list) && page > 1;
  const done = () => (oneShot ? ctx.state.remove([task.key]) : reschedule(ctx, task, now));
  switch (fetched.outcome) {
    case 'ok': {
      await listed(ctx, task, fetched.body, now, w);
      return done();
    }
    case 'unchanged':
      w.summary.unchanged++;
      ctx.emit({ type: 'unchanged', tier: task.tier, task: task.key });
      return done();
    case 'not-found':
      w.summary.notFound++;
      ctx.emit({
        type: 'not-found',
        tier: task.tier,
        task: task.key,
        since: now,
      });
      if (page === 1) return reschedule(ctx, task, now);
      await ctx.state.remove([task.key]);
      if (!oneShot) await trimPages(ctx, kind, list, page - 1);
      return;
    case 'failed':
      return fail(ctx, task, now, fetched.reason, w);
  }
}

/** Removes a walked listing's tasks past its last page. */
async function trimPages(ctx: RefresherContext, kind: MediaKind, list: ListName, last: number): Promise<void> {
  const known = Number((await ctx.state.getCursor(`pages:${kind}:${list}`)) ?? '1');
  if (known <= last) return;
  const keys: string[] = [];
  for (let p = last + 1; p <= known; p++) keys.push(listKey(kind, list, p));
  await ctx.state.remove(keys);
  await ctx.state.setCursor(`pages:${kind}:${list}`, String(last));
}

/** Counts a listing page's records written: the page wrote records, or changed nothing. */
function countItems(ctx: RefresherContext, task: Task, outcomes: Awaited<ReturnType<RecordWriter['items']>>, w: Work): void {
  let changed = 0;
  for (const o of outcomes) {
    if (o.outcome === 'changed') changed += o.keys.length;
    else if (o.outcome === 'invalid') w.summary.invalid++;
  }
  if (changed > 0) {
    w.summary.written++;
    ctx.emit({
      type: 'written',
      tier: task.tier,
      task: task.key,
      records: changed,
    });
  } else {
    w.summary.unchanged++;
    ctx.emit({ type: 'unchanged', tier: task.tier, task: task.key });
  }
}

/** The ids on a listing page, and the tasks of the known entries on it newly hot or popular (added to the sets in memory). */
function promotions(ctx: RefresherContext, kind: MediaKind, items: readonly unknown[], now: number, w: Work) {
  const { schedule } = ctx;
  const known = w.l.known.get(kind)!;
  const ids: number[] = [];
  const promote: Task[] = [];
  const hot = w.l.hot.get(kind)!;
  const popular = w.l.popular.get(kind)!;
  let hotChanged = false;
  let popularChanged = false;
  for (const item of items) {
    const id = (item as { mal_id?: unknown } | null)?.mal_id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) continue;
    ids.push(id);
    if (!known.has(id)) continue;
    const c = classify(schedule, kind, item, now);
    if (c.hot && !hot.has(id)) {
      hot.add(id);
      hotChanged = true;
      for (const part of schedule.hotParts[kind]) promote.push(entryTask(kind, id, part, 'hot', w.passStart));
    }
    if (c.popular && !popular.has(id)) {
      popular.add(id);
      popularChanged = true;
      for (const part of schedule.parts[kind])
        if (tierOfPart(schedule, kind, part, c) === 'popular') promote.push(spread(ctx, entryTask(kind, id, part, 'popular', 0), now));
    }
  }
  return { ids, promote, hot, popular, hotChanged, popularChanged };
}

/** Keeps a listing's page tasks in step: a followed listing's next page when all of this one is new, a walked listing's pages up to its last. */
async function followPages(ctx: RefresherContext, task: Task, body: ListPage, allNew: boolean, now: number, w: Work): Promise<void> {
  const { state } = ctx;
  const kind = task.kind;
  const list = task.list!;
  const page = task.page!;
  if (FOLLOWED.includes(list)) {
    // New ids show first on page 1; when all of page 1 is new, more may follow.
    if (allNew && body.hasNextPage && page < MAX_FOLLOW_PAGES) await state.put([listTask(kind, list, page + 1, w.passStart)]);
    return;
  }
  if (!(list in WALKED_LISTS[kind])) return;
  const pagesKnown = Number((await state.getCursor(`pages:${kind}:${list}`)) ?? '1');
  if (body.hasNextPage) {
    const last = Math.max(page + 1, body.lastPage ?? 0);
    if (last > pagesKnown) {
      const more: Task[] = [];
      for (let p = pagesKnown + 1; p <= last; p++) more.push(spread(ctx, listTask(kind, list, p, 0), now));
      await state.put(more);
      await state.setCursor(`pages:${kind}:${list}`, String(last));
    }
  } else await trimPages(ctx, kind, list, page);
}

/** A listing page: its items written, new ids discovered, hot and popular entries promoted, the listing's pages kept in step. */
async function listed(ctx: RefresherContext, task: Task, body: ListPage, now: number, w: Work): Promise<void> {
  const kind = task.kind;
  // One item at a time, yielding between them: a page's 25 records written in one go would hold
  // the event loop (and the API's requests) for as long as all of them take.
  const outcomes: Awaited<ReturnType<RecordWriter['items']>> = [];
  for (const item of body.items) {
    outcomes.push(...(await ctx.writer.items(kind, [item], now)));
    await ctx.pause();
    if (w.signal.aborted) return;
  }
  countItems(ctx, task, outcomes, w);
  const known = w.l.known.get(kind)!;
  const found = promotions(ctx, kind, body.items, now, w);
  const allNew = found.ids.length > 0 && found.ids.every((id) => !known.has(id));
  if (task.tier === 'new') await discover(ctx, w.l, kind, found.ids, w.passStart, w.summary);
  else await adopt(ctx, w.l, kind, body.items, now);
  if (found.promote.length > 0) await ctx.state.put(found.promote);
  if (found.hotChanged) await saveSet(ctx, 'hot', kind, found.hot);
  if (found.popularChanged) await saveSet(ctx, 'popular', kind, found.popular);
  await followPages(ctx, task, body, allNew, now, w);
}

async function workChanges(ctx: RefresherContext, task: Task, w: Work): Promise<void> {
  const { state, clock } = ctx;
  const kind = task.kind;
  const since = Number((await state.getCursor(`changes:${kind}`)) ?? clock());
  const startedAt = clock();
  const fetched = await ctx.source.changedIds!(kind, since - CHANGES_OVERLAP, w.signal);
  if (w.signal.aborted) return;
  const now = clock();
  counted(ctx, task, w, fetched.outcome);
  if (fetched.outcome === 'failed') return fail(ctx, task, now, fetched.reason, w);
  if (fetched.outcome === 'ok') {
    const known = w.l.known.get(kind)!;
    const ids = fetched.body;
    // A changed entry's record is asked again now; its other parts keep their schedule.
    const again = ids.filter((id) => known.has(id)).map((id) => entryTask(kind, id, 'full', 'new', w.passStart));
    if (again.length > 0) await state.put(again);
    await discover(ctx, w.l, kind, ids, w.passStart, w.summary);
    await state.setCursor(`changes:${kind}`, String(startedAt));
  }
  return reschedule(ctx, task, now);
}

/**
 * Works one task: asks the source, writes what it answers, and reschedules the task (or backs it
 * off, or removes it). A failure is answered as a value and backed off; only the state's own
 * failures throw.
 * @param ctx - The refresher's context.
 * @param task - The task.
 * @param w - What the pass's tasks share.
 */
export async function work(ctx: RefresherContext, task: Task, w: Work): Promise<void> {
  try {
    if (task.id !== undefined && task.part) await workEntry(ctx, task, w);
    else if (task.list && task.page !== undefined) await workList(ctx, task, w);
    else if (task.key === `${task.kind}:changes` && ctx.source.changedIds) await workChanges(ctx, task, w);
    else await ctx.state.remove([task.key]);
  } catch (error) {
    if (w.signal.aborted) return;
    // The source and the writer answer failures as values; a throw is failed work, backed off like
    // one. When the state itself throws, so does this, and the pass ends.
    try {
      await fail(ctx, task, ctx.clock(), `threw: ${error instanceof Error ? error.message : String(error)}`, w);
    } catch {
      throw error;
    }
  }
}
