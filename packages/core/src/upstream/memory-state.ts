/**
 * The refresher's state in one process: tasks by tier in heaps ordered by due time, named
 * cursors, the lease, and the budget's ledger (sliding one-second and one-minute windows). The host
 * saves `snapshot()` to a file and passes it back on the next start, so a killed refresher resumes
 * where it stopped; core does no file I/O.
 * @module
 */
import { createMemoryLease } from '../internal/memory-lease.js';
import { checkMargin } from './budget.js';
import { TIERS } from './schedule.js';
import type { RefreshState, Task, TierBacklog, TierName, UpstreamLimits } from './types.js';

/** The JSON a memory state saves and restores. */
export interface MemoryRefreshSnapshot {
  readonly version: 1;
  readonly tasks: readonly Task[];
  readonly cursors: Readonly<Record<string, string>>;
  readonly lease?: { readonly holder: string; readonly expiresAt: number } | undefined;
  /** The instants of the slots taken in the last minute, oldest first, and the pause. */
  readonly ledger: {
    readonly taken: readonly number[];
    readonly pausedUntil: number;
  };
}

/** A `RefreshState` in memory, with the snapshot a host saves. */
export type MemoryRefreshState = RefreshState & {
  /** The whole state as JSON-ready data, for `createMemoryRefreshState(snapshot)`. */
  snapshot(): MemoryRefreshSnapshot;
  /** The earliest due time of any task, or `null` when there is none. */
  nextDueAt(): Promise<number | null>;
};

interface Slot {
  task: Task;
  seq: number;
}
type HeapItem = readonly [dueAt: number, seq: number, key: string];

/** A binary min-heap of (dueAt, seq). */
class Heap {
  readonly items: HeapItem[] = [];
  push(item: HeapItem): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }
  peek(): HeapItem | undefined {
    return this.items[0];
  }
  pop(): HeapItem | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l]!, a[m]!)) m = l;
        if (r < a.length && less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
const less = (a: HeapItem, b: HeapItem) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * A refresher state in memory.
 * @param snapshot - What `snapshot()` returned before (parsed from the host's file), to resume from.
 * @returns The state, with `snapshot()`.
 * @throws TypeError when the snapshot is not one this version wrote.
 * @example
 * ```ts
 * const state = createMemoryRefreshState(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
 * // … on shutdown, or after each pass:
 * writeFileSync(file, JSON.stringify(state.snapshot()));
 * ```
 */
export function createMemoryRefreshState(snapshot?: unknown): MemoryRefreshState {
  const restored = snapshot === undefined ? undefined : parseSnapshot(snapshot);
  const slots = new Map<string, Slot>();
  const heaps = new Map<TierName, Heap>(TIERS.map((t) => [t, new Heap()]));
  const cursors = new Map<string, string>(Object.entries(restored?.cursors ?? {}));
  const lease = createMemoryLease(restored?.lease);
  // Slots taken in the last minute and the longest margin, in order (instants only grow within one process; a clock that
  // steps back is inserted in place).
  const taken: number[] = [...(restored?.ledger.taken ?? [])].sort((a, b) => a - b);
  let pausedUntil = restored?.ledger.pausedUntil ?? 0;
  let seq = 0;

  const put = (task: Task) => {
    const s = ++seq;
    slots.set(task.key, { task, seq: s });
    heaps.get(task.tier)!.push([task.dueAt, s, task.key]);
  };
  const live = (item: HeapItem) => slots.get(item[2])?.seq === item[1];
  /** Drops stale entries from a heap's top. */
  const top = (heap: Heap) => {
    let item = heap.peek();
    while (item && !live(item)) {
      heap.pop();
      item = heap.peek();
    }
    return item;
  };
  for (const task of restored?.tasks ?? []) put(task);

  const prune = (now: number) => {
    let drop = 0;
    // The longest margin a budget may count (10 s) beyond the minute.
    while (drop < taken.length && taken[drop]! <= now - 70_000) drop++;
    if (drop > 0) taken.splice(0, drop);
  };
  const countAfter = (instant: number) => {
    // Slots in (instant, ∞): binary search for the first one after it.
    let lo = 0;
    let hi = taken.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (taken[mid]! > instant) hi = mid;
      else lo = mid + 1;
    }
    return taken.length - lo;
  };

  const state: MemoryRefreshState = {
    acquireLease: lease.acquireLease,
    releaseLease: lease.releaseLease,
    async due(now, limit) {
      const out: Task[] = [];
      for (const tier of TIERS) {
        const heap = heaps.get(tier)!;
        const popped: HeapItem[] = [];
        while (out.length < limit) {
          const item = top(heap);
          if (!item || item[0] > now) break;
          popped.push(heap.pop()!);
          out.push(slots.get(item[2])!.task);
        }
        for (const item of popped) heap.push(item);
        if (out.length >= limit) break;
      }
      return out;
    },
    async put(tasks) {
      for (const task of tasks) put({ ...task });
    },
    async remove(keys) {
      for (const key of keys) slots.delete(key);
    },
    async backlog(now) {
      const out = Object.fromEntries(TIERS.map((t) => [t, { due: 0, oldestDueAt: null }])) as Record<TierName, { due: number; oldestDueAt: number | null }>;
      for (const { task } of slots.values()) {
        if (task.dueAt > now) continue;
        const b = out[task.tier];
        b.due++;
        if (b.oldestDueAt === null || task.dueAt < b.oldestDueAt) b.oldestDueAt = task.dueAt;
      }
      return out as Record<TierName, TierBacklog>;
    },
    async size() {
      return slots.size;
    },
    async nextDueAt() {
      let next: number | null = null;
      for (const heap of heaps.values()) {
        const item = top(heap);
        if (item && (next === null || item[0] < next)) next = item[0];
      }
      return next;
    },
    async getCursor(name) {
      return cursors.get(name);
    },
    async setCursor(name, value) {
      cursors.set(name, value);
    },
    async tryTake(now: number, limits: UpstreamLimits, marginMs = 0) {
      checkMargin(marginMs);
      prune(now);
      let wait = pausedUntil > now ? pausedUntil - now : 0;
      // A slot at t counts in (now − 1 s − m, now] and (now − 60 s − m, now]; it leaves those windows at t + 1 s + m / t + 60 s + m.
      const second = 1000 + marginMs;
      const minute = 60_000 + marginMs;
      if (countAfter(now - second) >= limits.perSecond) wait = Math.max(wait, taken[taken.length - limits.perSecond]! + second - now);
      if (countAfter(now - minute) >= limits.perMinute) wait = Math.max(wait, taken[taken.length - limits.perMinute]! + minute - now);
      if (wait > 0) return Math.max(1, Math.ceil(wait));
      let i = taken.length;
      while (i > 0 && taken[i - 1]! > now) i--;
      taken.splice(i, 0, now);
      return 0;
    },
    async pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    async usage(now) {
      prune(now);
      return {
        second: countAfter(now - 1000),
        minute: countAfter(now - 60_000),
        pausedUntil,
      };
    },
    snapshot() {
      return {
        version: 1,
        tasks: [...slots.values()].map((s) => s.task),
        cursors: Object.fromEntries(cursors),
        ...(lease.held() ? { lease: lease.held() } : {}),
        ledger: { taken: [...taken], pausedUntil },
      };
    },
  };
  return state;
}

function parseSnapshot(value: unknown): MemoryRefreshSnapshot {
  const s = value as Partial<MemoryRefreshSnapshot> | null;
  if (
    !s ||
    typeof s !== 'object' ||
    s.version !== 1 ||
    !Array.isArray(s.tasks) ||
    typeof s.cursors !== 'object' ||
    !s.ledger ||
    !Array.isArray(s.ledger.taken)
  ) {
    throw new TypeError('Not a refresher state snapshot of version 1');
  }
  for (const t of s.tasks) {
    if (!t || typeof t.key !== 'string' || !TIERS.includes(t.tier) || typeof t.dueAt !== 'number' || (t.kind !== 'anime' && t.kind !== 'manga')) {
      throw new TypeError(`A refresher state snapshot holds a malformed task: ${JSON.stringify(t)}`);
    }
  }
  return s as MemoryRefreshSnapshot;
}
