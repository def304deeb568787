/**
 * The refresher's tasks (`refresher.ts`): their keys and shapes, the tier an entry's part belongs
 * to, and the id sets kept in the state's cursors.
 * @module
 */
import type { MediaKind } from '../catalogue/queries.js';
import { SEASONS } from '../seam/collections.js';
import type { RefresherContext } from './refresher-context.js';
import { currentSeasons, DISCOVERY_LISTS, phase, WALKED_LISTS, type Schedule } from './schedule.js';
import type { EntryPart, ListName, Task, TierName } from './types.js';

/** Whether an entry is hot and whether it is popular. */
export interface Classes {
  hot: boolean;
  popular: boolean;
}

/**
 * Encodes a set of ids as sorted base-36 deltas (`"k,1,3"`): a cursor of 70k ids stays near 150 KB.
 * @param ids - The ids.
 * @returns The cursor's text.
 */
export function encodeIds(ids: Iterable<number>): string {
  const sorted = [...ids].sort((a, b) => a - b);
  let last = 0;
  return sorted
    .map((id) => {
      const d = id - last;
      last = id;
      return d.toString(36);
    })
    .join(',');
}

/**
 * Decodes what {@link encodeIds} wrote.
 * @param text - The cursor's text, if any.
 * @returns The ids (none without a cursor).
 */
export function decodeIds(text: string | undefined): Set<number> {
  const out = new Set<number>();
  if (!text) return out;
  let last = 0;
  for (const d of text.split(',')) {
    last += Number.parseInt(d, 36);
    out.add(last);
  }
  return out;
}

const seasonOf = (r: Record<string, unknown>): string | null => {
  if (typeof r.season === 'string' && typeof r.year === 'number') return `${r.year}-${r.season}`;
  const from = (r.aired as { from?: unknown } | undefined)?.from;
  if (typeof from !== 'string' || from.length < 7) return null;
  return `${from.slice(0, 4)}-${SEASONS[Math.floor((Number(from.slice(5, 7)) - 1) / 3)]}`;
};

/**
 * Whether an entry (a record or a listing item) is hot and whether it is popular.
 * @param schedule - The refresher's schedule.
 * @param kind - The entry's kind.
 * @param value - Its record or listing item.
 * @param now - The refresher's clock.
 * @returns Its classes (neither for what is not an object).
 */
export function classify(schedule: Schedule, kind: MediaKind, value: unknown, now: number): Classes {
  if (!value || typeof value !== 'object') return { hot: false, popular: false };
  const r = value as Record<string, unknown>;
  let hot: boolean;
  if (kind === 'anime') {
    const season = seasonOf(r);
    hot = r.airing === true || (season !== null && currentSeasons(now).includes(season));
  } else hot = r.publishing === true;
  const rank = r.popularity;
  return {
    hot: hot && schedule.hotParts[kind].length > 0,
    popular: typeof rank === 'number' && rank > 0 && rank <= schedule.popularTop,
  };
}

/**
 * The tier of one part of an entry of these classes.
 * @param schedule - The refresher's schedule.
 * @param kind - The entry's kind.
 * @param part - The part.
 * @param c - The entry's classes.
 * @returns `hot` for a hot part of a hot entry, else `popular` or `full`.
 */
export const tierOfPart = (schedule: Schedule, kind: MediaKind, part: EntryPart, c: Classes): TierName =>
  c.hot && schedule.hotParts[kind].includes(part) ? 'hot' : c.popular ? 'popular' : 'full';

/**
 * The key of an entry's part's task.
 * @param kind - The entry's kind.
 * @param id - Its id.
 * @param part - The part.
 * @returns `kind:id:part`.
 */
export const entryKey = (kind: MediaKind, id: number, part: EntryPart) => `${kind}:${id}:${part}`;

/**
 * The key of a listing page's task.
 * @param kind - The listing's kind.
 * @param list - The listing.
 * @param page - The page.
 * @returns `kind:list:page`.
 */
export const listKey = (kind: MediaKind, list: ListName, page: number) => `${kind}:${list}:${page}`;

const listTier = (kind: MediaKind, list: ListName, page: number): TierName =>
  page === 1 && DISCOVERY_LISTS[kind].includes(list) ? 'new' : WALKED_LISTS[kind][list] ?? 'new';

/**
 * The interval a task recurs at: discovery for the recurring `new` tasks (listings, changes).
 * @param ctx - The refresher's context.
 * @param task - The task.
 * @returns The interval, scaled.
 */
export const intervalOf = (ctx: RefresherContext, task: Pick<Task, 'tier' | 'id'>) =>
  task.tier === 'new' && task.id === undefined ? ctx.interval('discovery') : ctx.interval(task.tier);

/**
 * The task of an entry's part.
 * @param kind - The entry's kind.
 * @param id - Its id.
 * @param part - The part.
 * @param tier - The task's tier.
 * @param dueAt - When it is due.
 * @returns The task, without failures.
 */
export const entryTask = (kind: MediaKind, id: number, part: EntryPart, tier: TierName, dueAt: number): Task => ({
  key: entryKey(kind, id, part),
  tier,
  dueAt,
  kind,
  id,
  part,
  failures: 0,
});

/**
 * The task of a listing's page, in the listing's tier.
 * @param kind - The listing's kind.
 * @param list - The listing.
 * @param page - The page.
 * @param dueAt - When it is due.
 * @returns The task, without failures.
 */
export const listTask = (kind: MediaKind, list: ListName, page: number, dueAt: number): Task => ({
  key: listKey(kind, list, page),
  tier: listTier(kind, list, page),
  dueAt,
  kind,
  list,
  page,
  failures: 0,
});

/**
 * A task due somewhere in its interval, the same place for the same key (so seeded work is spread evenly).
 * @param ctx - The refresher's context.
 * @param task - The task.
 * @param now - The refresher's clock.
 * @returns The task, due within an interval of now.
 */
export const spread = (ctx: RefresherContext, task: Task, now: number): Task => ({
  ...task,
  dueAt: now + Math.floor(phase(task.key) * intervalOf(ctx, task)),
});
