/**
 * In-process stand-ins for the refresher's tests: a virtual clock whose sleeps fire in order of
 * due time, an `UpstreamSource` over a map of records (each request taking a budget slot from a
 * ledger, with a request log) whose bodies are valid Jikan v4 bodies, for the shipped
 * `createRecordWriter` to write.
 */
import { type Anime, type Manga } from '../src/entry-schemas.js';
import { currentSeasons, PAGE_SIZE } from '../src/upstream/schedule.js';
import type {
  BudgetLedger,
  EntryPart,
  Fetched,
  ListName,
  ListPage,
  MediaKind,
  UpstreamLimits,
  UpstreamSource,
} from '../src/upstream/types.js';
import { makeAnime } from './fixtures.js';

/** A clock that moves only when every sleeper waits: the earliest sleep fires first. */
export function createVirtualClock(start: number) {
  let now = start;
  let seq = 0;
  const timers: { at: number; seq: number; fire: () => void }[] = [];
  const clock = () => now;
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = {
        at: now + Math.max(0, ms),
        seq: ++seq,
        fire: () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        },
      };
      function cancel() {
        const i = timers.indexOf(timer);
        if (i >= 0) timers.splice(i, 1);
        resolve();
      }
      timers.push(timer);
      signal?.addEventListener('abort', cancel, { once: true });
    });
  /** Lets every promise chain run until all wait on a sleep. */
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  };
  /** Fires sleeps in order until `end` (or `until()` holds), then sets the clock to `end`. */
  async function runUntil(end: number, until?: () => boolean): Promise<void> {
    for (;;) {
      await settle();
      if (until?.()) return;
      let next = -1;
      for (let i = 0; i < timers.length; i++) {
        const t = timers[i]!;
        if (next < 0 || t.at < timers[next]!.at || (t.at === timers[next]!.at && t.seq < timers[next]!.seq)) next = i;
      }
      if (next < 0 || timers[next]!.at > end) {
        now = Math.max(now, end);
        return;
      }
      const [timer] = timers.splice(next, 1);
      now = Math.max(now, timer!.at);
      timer!.fire();
    }
  }
  return {
    clock,
    sleep,
    settle,
    runUntil,
    /** Moves the clock without firing anything (for `runOnce` tests). */
    set(ms: number) {
      now = ms;
    },
    pending: () => timers.length,
  };
}

export type VirtualClock = ReturnType<typeof createVirtualClock>;

// Every fixture record is written in one place; the refresher's tests import manga from here too.
export { makeManga } from './fixtures.js';

/** An anime record of a season (`"2026-fall"`), not yet aired or airing. */
export function seasonAnime(mal_id: number, season: string, airing: boolean): Anime {
  const [year, name] = season.split('-') as [string, Anime['season']];
  return makeAnime({
    mal_id,
    title: `Season ${mal_id}`,
    season: name,
    year: Number(year),
    airing,
    status: airing ? 'Currently Airing' : 'Not yet aired',
    popularity: 5000 + mal_id,
  });
}

/** One request the fake source answered. */
export interface LoggedRequest {
  readonly at: number;
  readonly what: string;
  readonly outcome: Fetched<unknown>['outcome'];
}

/**
 * An upstream over maps of records: listings computed from them as Jikan orders them, 25 a page;
 * each request first takes a budget slot from the ledger (waiting on the virtual clock).
 */
export function createMapSource(options: {
  clock: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  ledger: BudgetLedger;
  limits?: UpstreamLimits;
  changes?: boolean;
}) {
  const limits = options.limits ?? { perSecond: 3, perMinute: 60 };
  const records = {
    anime: new Map<number, Anime>(),
    manga: new Map<number, Manga>(),
  } as { anime: Map<number, Anime>; manga: Map<number, Manga> };
  const changedAt = new Map<string, number>();
  const log: LoggedRequest[] = [];
  /** `kind:id` answered 404 by id. */
  const notFound = new Set<string>();
  /** `kind:id` answered with a score of 11. */
  const invalid = new Set<string>();
  /** `kind:id` answered as failures. */
  const failing = new Set<string>();
  /** `kind:id` left out of every listing (as Jikan does with unapproved entries). */
  const unlisted = new Set<string>();
  const etag = (body: unknown) => `"${hash(JSON.stringify(body))}"`;

  async function take(signal?: AbortSignal) {
    for (;;) {
      const wait = await options.ledger.tryTake(options.clock(), limits);
      if (wait === 0) return;
      await options.sleep(wait, signal);
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    }
  }
  const listed = (kind: MediaKind, list: ListName): (Anime | Manga)[] => {
    // An entry gone upstream (404 by id) is in no listing either.
    const all = [...records[kind].values()].filter((r) => !unlisted.has(`${kind}:${r.mal_id}`) && !notFound.has(`${kind}:${r.mal_id}`));
    const [now, next] = currentSeasons(options.clock());
    const season = (r: Anime | Manga) => ('season' in r && r.season && r.year ? `${r.year}-${r.season}` : null);
    const byId = (a: { mal_id: number }, b: { mal_id: number }) => a.mal_id - b.mal_id;
    switch (list) {
      case 'newest':
        return all.sort((a, b) => b.mal_id - a.mal_id);
      case 'sweep':
        return all.sort(byId);
      case 'top':
        return all.sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9));
      case 'current':
        return all.filter((r) => ('airing' in r ? r.airing : (r as Manga).publishing)).sort(byId);
      case 'schedules':
        return kind === 'anime' ? all.filter((r) => (r as Anime).airing).sort(byId) : [];
      case 'seasonNow':
        return kind === 'anime' ? all.filter((r) => season(r) === now).sort(byId) : [];
      case 'seasonUpcoming':
        return kind === 'anime' ? all.filter((r) => season(r) === next).sort(byId) : [];
      case 'upcoming':
        return kind === 'anime' ? all.filter((r) => (r as Anime).status === 'Not yet aired').sort((a, b) => b.mal_id - a.mal_id) : [];
    }
  };
  const source: UpstreamSource = {
    name: 'fake.test',
    limits,
    health: () => ({ circuit: 'closed' }),
    async entry(kind: MediaKind, id: number, part: EntryPart, validator?: string, signal?: AbortSignal): Promise<Fetched<unknown>> {
      await take(signal);
      const key = `${kind}:${id}`;
      const answer = ((): Fetched<unknown> => {
        const record = records[kind].get(id);
        if (failing.has(key)) return { outcome: 'failed', reason: 'HTTP 500' };
        if (!record || notFound.has(key)) return { outcome: 'not-found' };
        const body = part === 'full' ? { data: invalid.has(key) ? { ...record, score: 11 } : record } : { data: emptyPart(kind, part) };
        const tag = etag(body);
        return validator === tag ? { outcome: 'unchanged' } : { outcome: 'ok', body, validator: tag };
      })();
      log.push({
        at: options.clock(),
        what: `${key}:${part}`,
        outcome: answer.outcome,
      });
      return answer;
    },
    async list(kind: MediaKind, list: ListName, page: number, signal?: AbortSignal): Promise<Fetched<ListPage>> {
      await take(signal);
      const all = listed(kind, list);
      const last = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
      const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      log.push({
        at: options.clock(),
        what: `${kind}:${list}:${page}`,
        outcome: 'ok',
      });
      return {
        outcome: 'ok',
        body: { items, hasNextPage: page < last, lastPage: last },
      };
    },
  };
  if (options.changes) {
    source.changedIds = async (kind, since, signal) => {
      await take(signal);
      log.push({ at: options.clock(), what: `${kind}:changes`, outcome: 'ok' });
      const ids = [...changedAt].filter(([k, at]) => k.startsWith(`${kind}:`) && at >= since).map(([k]) => Number(k.split(':')[1]));
      return { outcome: 'ok', body: ids };
    };
  }
  return {
    source,
    records,
    log,
    notFound,
    invalid,
    failing,
    unlisted,
    /** Adds or replaces a record upstream. */
    set(kind: MediaKind, record: Anime | Manga) {
      (records[kind] as Map<number, Anime | Manga>).set(record.mal_id, record);
      changedAt.set(`${kind}:${record.mal_id}`, options.clock());
    },
  };
}

/**
 * The body's `data` of an entry's part with nothing in it, as Jikan v4 serves it: a list for most
 * parts, an object for `statistics`, `moreinfo` and `videos` (so that the real writer takes it as
 * valid, and as nothing to write).
 */
function emptyPart(kind: MediaKind, part: EntryPart): unknown {
  switch (part) {
    case 'statistics':
      return kind === 'anime'
        ? { watching: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0, total: 0, scores: [] }
        : { reading: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_read: 0, total: 0, scores: [] };
    case 'moreinfo':
      return { moreinfo: null };
    case 'videos':
      return { promo: [], episodes: [], music_videos: [] };
    default:
      return [];
  }
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}
