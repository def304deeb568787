/**
 * The refresher's known entries (`refresher.ts`): the id sets in the state's cursors, the tasks
 * seeded from the store's ids, and the entries it discovers, adopts from a listing or forgets.
 * @module
 */
import type { MediaKind } from '../catalogue/queries.js';
import type { Condition } from '../seam/types.js';
import type { Loaded, RefresherContext } from './refresher-context.js';
import type { PassSummary } from './refresher-types.js';
import { classify, decodeIds, encodeIds, entryKey, entryTask, listTask, spread, tierOfPart } from './refresher-tasks.js';
import { currentSeasons, DISCOVERY_LISTS, WALKED_LISTS } from './schedule.js';
import type { ListName, Task } from './types.js';

/** Tasks written at once when seeding. */
const PUT_BATCH = 5_000;
/** Every record of a collection. */
const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

/**
 * Reads the id sets from the state's cursors.
 * @param ctx - The refresher's context.
 * @returns The known, hot and popular ids of each kind.
 */
export async function load(ctx: RefresherContext): Promise<Loaded> {
  const l: Loaded = { known: new Map(), hot: new Map(), popular: new Map() };
  for (const kind of ctx.schedule.kinds) {
    l.known.set(kind, decodeIds(await ctx.state.getCursor(`known:${kind}`)));
    l.hot.set(kind, decodeIds(await ctx.state.getCursor(`hot:${kind}`)));
    l.popular.set(kind, decodeIds(await ctx.state.getCursor(`popular:${kind}`)));
  }
  return l;
}

/**
 * Writes an id set to its cursor.
 * @param ctx - The refresher's context.
 * @param name - Which set.
 * @param kind - Of which kind.
 * @param ids - The ids.
 */
export const saveSet = (ctx: RefresherContext, name: 'known' | 'hot' | 'popular', kind: MediaKind, ids: Set<number>) =>
  ctx.state.setCursor(`${name}:${kind}`, encodeIds(ids));

const pluckIds = async (ctx: RefresherContext, kind: MediaKind, where: readonly Condition[]) =>
  (await ctx.store.pluck(kind, 'mal_id', { where, ...ALL })) as number[];

/** The ids of the store's hot entries of a kind: airing or of the current seasons (anime), publishing (manga). */
async function hotIdsOf(ctx: RefresherContext, kind: MediaKind, now: number): Promise<Set<number>> {
  const hotIds = new Set<number>();
  if (ctx.schedule.hotParts[kind].length === 0) return hotIds;
  if (kind === 'anime') {
    for (const id of await pluckIds(ctx, kind, [{ field: 'airing', op: 'eq', value: true }])) hotIds.add(id);
    const seasons = currentSeasons(now);
    for (const id of await pluckIds(ctx, kind, [{ field: 'season', op: 'in', values: seasons }])) hotIds.add(id);
  } else {
    for (const id of await pluckIds(ctx, kind, [{ field: 'publishing', op: 'eq', value: true }])) hotIds.add(id);
  }
  return hotIds;
}

/** The store's ids of a kind: all of them, the hot ones and the popular ones. */
async function storeIds(ctx: RefresherContext, kind: MediaKind, now: number) {
  const ids = (await ctx.store.pluck(kind, 'mal_id', ALL)) as number[];
  const hotIds = await hotIdsOf(ctx, kind, now);
  const popularIds = new Set(
    await pluckIds(ctx, kind, [
      { field: 'popularity', op: 'lte', value: ctx.schedule.popularTop },
      { field: 'popularity', op: 'gt', value: 0 },
    ])
  );
  return { ids, hotIds, popularIds };
}

/**
 * The tasks of the store's entries: every part of one not yet known (which becomes known), the
 * promoted parts of a known one newly hot or popular.
 */
function entryTasks(ctx: RefresherContext, l: Loaded, kind: MediaKind, found: Awaited<ReturnType<typeof storeIds>>, now: number) {
  const { schedule } = ctx;
  const known = l.known.get(kind)!;
  const hot = l.hot.get(kind)!;
  const popular = l.popular.get(kind)!;
  const tasks: Task[] = [];
  let seeded = 0;
  for (const id of found.ids) {
    const c = { hot: found.hotIds.has(id), popular: found.popularIds.has(id) };
    if (!known.has(id)) {
      seeded++;
      for (const part of schedule.parts[kind]) tasks.push(spread(ctx, entryTask(kind, id, part, tierOfPart(schedule, kind, part, c), 0), now));
      known.add(id);
      continue;
    }
    // Promotions now; demotions when the task next completes (from the record then).
    if (c.hot && !hot.has(id)) for (const part of schedule.hotParts[kind]) tasks.push(spread(ctx, entryTask(kind, id, part, 'hot', 0), now));
    if (c.popular && !popular.has(id)) {
      for (const part of schedule.parts[kind])
        if (tierOfPart(schedule, kind, part, c) === 'popular') tasks.push(spread(ctx, entryTask(kind, id, part, 'popular', 0), now));
    }
  }
  return { tasks, seeded };
}

/** The tasks of a kind's listings (page 1 of each, once; their other pages come from walking them) and of its changes, once. */
async function listingTasks(ctx: RefresherContext, kind: MediaKind, now: number): Promise<Task[]> {
  const { state } = ctx;
  const tasks: Task[] = [];
  const lists = new Set<ListName>([...DISCOVERY_LISTS[kind], ...(Object.keys(WALKED_LISTS[kind]) as ListName[])]);
  for (const list of lists) {
    if ((await state.getCursor(`pages:${kind}:${list}`)) !== undefined) continue;
    tasks.push(listTask(kind, list, 1, now));
    await state.setCursor(`pages:${kind}:${list}`, '1');
  }
  if (ctx.source.changedIds && (await state.getCursor(`changes:${kind}`)) === undefined) {
    tasks.push({
      key: `${kind}:changes`,
      tier: 'new',
      dueAt: now + ctx.interval('discovery'),
      kind,
      failures: 0,
    });
    await state.setCursor(`changes:${kind}`, String(now));
  }
  return tasks;
}

/**
 * Checks the task set against the store's ids: seeds the tasks of entries not yet known, promotes
 * entries newly hot or popular, seeds the listings and changes once, and saves the id sets.
 * @param ctx - The refresher's context.
 * @param l - The id sets in memory.
 * @param now - The refresher's clock.
 */
export async function reconcile(ctx: RefresherContext, l: Loaded, now: number): Promise<void> {
  for (const kind of ctx.schedule.kinds) {
    const found = await storeIds(ctx, kind, now);
    const { tasks, seeded } = entryTasks(ctx, l, kind, found, now);
    l.hot.set(kind, found.hotIds);
    l.popular.set(kind, found.popularIds);
    tasks.push(...(await listingTasks(ctx, kind, now)));
    // In batches, so that a store-backed state writes a whole catalogue's tasks (≈ 850k) in pieces.
    for (let i = 0; i < tasks.length; i += PUT_BATCH) await ctx.state.put(tasks.slice(i, i + PUT_BATCH));
    await saveSet(ctx, 'known', kind, l.known.get(kind)!);
    await saveSet(ctx, 'hot', kind, found.hotIds);
    await saveSet(ctx, 'popular', kind, found.popularIds);
    if (seeded > 0)
      ctx.logger?.info('Refresher seeded tasks from the store', {
        kind,
        entries: seeded,
      });
  }
  await ctx.state.setCursor('reconciledAt', String(now));
}

/**
 * New ids: every part due now in the `new` tier.
 * @param ctx - The refresher's context.
 * @param l - The id sets in memory.
 * @param kind - The ids' kind.
 * @param ids - Ids seen upstream, known or not.
 * @param dueAt - When the new ones' tasks are due.
 * @param summary - The pass's summary, counting them.
 */
export async function discover(ctx: RefresherContext, l: Loaded, kind: MediaKind, ids: readonly number[], dueAt: number, summary: PassSummary): Promise<void> {
  const known = l.known.get(kind)!;
  const fresh = [...new Set(ids)].filter((id) => !known.has(id));
  if (fresh.length === 0) return;
  await ctx.state.put(fresh.flatMap((id) => ctx.schedule.parts[kind].map((part) => entryTask(kind, id, part, 'new', dueAt))));
  for (const id of fresh) known.add(id);
  await saveSet(ctx, 'known', kind, known);
  summary.discovered += fresh.length;
  ctx.emit({ type: 'discovered', kind, ids: fresh });
  ctx.logger?.info('Refresher discovered new ids', { kind, ids: fresh });
}

/**
 * Ids first seen on a walked listing (the sweep of a mirror that starts empty, a long-running
 * show): their records are written already; their parts are seeded in their tier, spread over
 * its interval, as the store's own ids are (not `new`, which would hold every other tier back).
 * @param ctx - The refresher's context.
 * @param l - The id sets in memory.
 * @param kind - The listing's kind.
 * @param items - The listing's items.
 * @param now - The refresher's clock.
 */
export async function adopt(ctx: RefresherContext, l: Loaded, kind: MediaKind, items: readonly unknown[], now: number): Promise<void> {
  const { schedule } = ctx;
  const known = l.known.get(kind)!;
  const tasks: Task[] = [];
  const sets = { hot: false, popular: false };
  for (const item of items) {
    const id = (item as { mal_id?: unknown } | null)?.mal_id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0 || known.has(id)) continue;
    const c = classify(schedule, kind, item, now);
    for (const part of schedule.parts[kind]) tasks.push(spread(ctx, entryTask(kind, id, part, tierOfPart(schedule, kind, part, c), 0), now));
    known.add(id);
    if (c.hot) sets.hot = l.hot.get(kind)!.add(id) !== undefined;
    if (c.popular) sets.popular = l.popular.get(kind)!.add(id) !== undefined;
  }
  if (tasks.length === 0) return;
  await ctx.state.put(tasks);
  await saveSet(ctx, 'known', kind, known);
  if (sets.hot) await saveSet(ctx, 'hot', kind, l.hot.get(kind)!);
  if (sets.popular) await saveSet(ctx, 'popular', kind, l.popular.get(kind)!);
}

/**
 * Forgets an entry: its tasks and its place in the cursors.
 * @param ctx - The refresher's context.
 * @param l - The id sets in memory.
 * @param kind - The entry's kind.
 * @param id - Its id.
 */
export async function forget(ctx: RefresherContext, l: Loaded, kind: MediaKind, id: number): Promise<void> {
  await ctx.state.remove(ctx.schedule.parts[kind].map((part) => entryKey(kind, id, part)));
  for (const name of ['known', 'hot', 'popular'] as const) {
    const set = l[name].get(kind)!;
    if (set.delete(id)) await saveSet(ctx, name, kind, set);
  }
}
