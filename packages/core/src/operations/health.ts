/**
 * `createHealthApp`: liveness (`/healthz`) and readiness (`/readyz`) for load balancers and
 * orchestrators, mounted beside the other apps with `combineApps`.
 * @module
 */
import { cacheControl, toApp, type App } from '../edge/http.js';
import { ApiError } from '../edge/errors.js';
import { monotonicClock } from '../internal/clock.js';
import { createPipeline } from '../edge/pipeline.js';

/** A dependency check: resolves (any value) when the dependency answers, rejects or throws when not. */
export type HealthCheck = () => unknown;

/** Options of {@link createHealthApp}. */
export interface HealthAppOptions {
  /** The dependencies readiness waits on, by name (`store`, `gateway`…). @default {} */
  checks?: Readonly<Record<string, HealthCheck>>;
  /** Longest wait for one check; past it the dependency is down. @default 1000 */
  timeoutMs?: number;
  /**
   * How long a round of checks answers for: polls within it share one round, so polling every
   * second from several balancers costs the dependencies one check each per interval. @default 500
   */
  cacheMs?: number;
  /** The liveness path. @default '/healthz' */
  livePath?: string;
  /** The readiness path. @default '/readyz' */
  readyPath?: string;
  /** A monotonic clock in milliseconds. @default performance.now */
  clock?: () => number;
}

/** The health app: mount it with `combineApps(health, …)`, before the others. */
export interface HealthApp extends App {
  /** @returns Each dependency's state after the latest completed round (`true` before any). */
  state(): Readonly<Record<string, boolean>>;
  /**
   * Runs a round of checks now (or joins the one running, or reuses one younger than `cacheMs`).
   * @returns Each dependency's state.
   */
  check(): Promise<Readonly<Record<string, boolean>>>;
}

const NO_STORE = { 'cache-control': cacheControl('no-store') };

/**
 * Creates the health app. `GET /healthz` answers 200 while the process serves requests at all.
 * `GET /readyz` runs every check (each bounded by `timeoutMs`) and answers 200 when all pass, else
 * 503 with `Retry-After: 1` and the envelope naming the dependencies that are down. Neither is
 * rate limited or cached: mount it before the catalogue, whose gateway does both.
 * @param options - Checks, timeout, caching, paths.
 * @returns The app.
 * @example
 * ```ts
 * const health = createHealthApp({ checks: { store: () => store.sql`select 1`, gateway: () => redis.ping() } });
 * const server = await serve(combineApps(health, status, catalogue), { port: 3000 });
 * ```
 */
export function createHealthApp(options: HealthAppOptions = {}): HealthApp {
  const checks = Object.entries(options.checks ?? {});
  const timeoutMs = options.timeoutMs ?? 1000;
  const cacheMs = options.cacheMs ?? 500;
  const clock = options.clock ?? monotonicClock();
  const livePath = options.livePath ?? '/healthz';
  const readyPath = options.readyPath ?? '/readyz';
  let state: Record<string, boolean> = Object.fromEntries(checks.map(([name]) => [name, true]));
  let round: { at: number; result: Promise<Record<string, boolean>> } | undefined;

  async function probe(check: HealthCheck): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(check),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  // Rounds may overlap (a check may take `timeoutMs`, longer than `cacheMs`): the state is the
  // latest round's that ended, never an older one that ended after it.
  let begun = 0;
  let shown = 0;
  function check(): Promise<Record<string, boolean>> {
    const at = clock();
    if (round && at - round.at < cacheMs) return round.result;
    const n = ++begun;
    const result = Promise.all(checks.map(async ([name, fn]) => [name, await probe(fn)] as const)).then((pairs) => {
      const outcome = Object.fromEntries(pairs);
      if (n > shown) {
        shown = n;
        state = outcome;
      }
      return outcome;
    });
    round = { at, result };
    return result;
  }

  const handle = createPipeline({
    routes: [
      { path: livePath, handler: () => ({ body: { status: 'ok' }, headers: NO_STORE }) },
      {
        path: readyPath,
        handler: async () => {
          const result = await check();
          const down = Object.keys(result).filter((name) => !result[name]);
          if (down.length > 0) {
            throw new ApiError(503, 'Service Unavailable', `Not ready: ${down.join(', ')} unreachable. Retry in 1 second.`, { 'retry-after': '1' });
          }
          return { body: { status: 'ready', checks: result }, headers: NO_STORE };
        },
      },
    ],
    context: undefined,
    logger: undefined,
  });
  return toApp(handle, (path) => path === livePath || path === readyPath, { state: () => state, check });
}
