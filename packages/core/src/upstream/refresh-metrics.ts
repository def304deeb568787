/**
 * The refresher's metrics in a {@link MetricsRegistry}: the upstream requests it sends and what
 * became of them, the budget used against its limits, the work due per tier, any shortfall, and
 * when the last pass ended. Counters are fed by the refresher's events; the gauges read a picture
 * of the shared state taken every few seconds (the state is asynchronous, a render is not).
 * @module
 */
import type { MetricsRegistry } from '../operations/metrics.js';
import type { Refresher, RefreshEvent } from './refresher.js';
import type { RefreshState, TierBacklog, TierName, UpstreamLimits, UpstreamSource } from './types.js';

/** The tiers in priority order, for bounded label values. */
const TIER_NAMES: readonly TierName[] = ['new', 'hot', 'stats', 'popular', 'full'];

/** What {@link createRefresherMetrics} watches. */
export interface RefresherMetricsOptions {
  /** Where the metrics are declared (`createCatalogueMetrics().registry`). */
  registry: MetricsRegistry;
  /** The refresher: whether it leads, its shortfall and its last pass. */
  refresher: Pick<Refresher, 'leader' | 'status'>;
  /** The shared state: the budget used and the work due, for every instance alike. */
  state: Pick<RefreshState, 'usage' | 'backlog' | 'size'>;
  /** The source: its circuit. */
  source: Pick<UpstreamSource, 'health'>;
  /** The budget's limits. */
  limits: UpstreamLimits;
  /** Real time, ms since the epoch. @default Date.now */
  clock?: () => number;
  /** How often the state is read for the gauges, in ms. @default 5000 */
  pollMs?: number;
}

/** The refresher's metrics, declared. */
export interface RefresherMetrics {
  /** Feed it every refresher event (`createRefresher({ onEvent })`). */
  onEvent(event: RefreshEvent): void;
  /** Reads the state for the gauges now (also done every `pollMs` once started). */
  poll(): Promise<void>;
  /** Starts reading the state every `pollMs`. */
  start(): void;
  /** Stops reading it. */
  stop(): void;
}

const CIRCUIT_STATES = ['closed', 'half-open', 'open'] as const;

/**
 * Declares the refresher's metrics:
 * - `catalogue_upstream_requests_total{tier,outcome}`: requests answered (`ok`, `unchanged`, `not-found`, `failed`);
 * - `catalogue_refresh_writes_total{result}`: bodies `written`, `unchanged` or `invalid`;
 * - `catalogue_refresh_deleted_total{kind}` and `catalogue_refresh_discovered_total{kind}`;
 * - `catalogue_upstream_budget_used{window}` against `catalogue_upstream_budget_limit{window}`
 *   (`second`, `minute`: slots taken by every instance in the last second and minute);
 * - `catalogue_upstream_paused_until_seconds` (a `Retry-After`; 0 when none) and
 *   `catalogue_upstream_circuit{state}` (1 for the circuit's state);
 * - `catalogue_refresh_tasks_due{tier}`, `catalogue_refresh_oldest_due_seconds{tier}` (how late the
 *   oldest due task is), `catalogue_refresh_tasks` (all kept);
 * - `catalogue_refresh_shortfall{tier}` (1 while a tier's due work is older than its interval);
 * - `catalogue_refresh_leader` (1 on the instance that refreshes) and
 *   `catalogue_refresh_last_pass_timestamp_seconds` (its last pass's end; 0 before one).
 * @param options - The registry, what to watch, the clock.
 * @returns The event listener, and the poll of the state.
 * @example
 * ```ts
 * const metrics = createRefresherMetrics({ registry, refresher, state, source, limits });
 * metrics.start();
 * ```
 */
export function createRefresherMetrics(options: RefresherMetricsOptions): RefresherMetrics {
  const { registry, refresher, state, source, limits } = options;
  const clock = options.clock ?? Date.now;
  const pollMs = options.pollMs ?? 5_000;
  const requests = registry.counter('catalogue_upstream_requests_total', 'Upstream requests answered, by tier and outcome (ok, unchanged, not-found, failed).', ['tier', 'outcome']);
  const writes = registry.counter('catalogue_refresh_writes_total', 'Fetched bodies written (written: records changed), unchanged, or rejected as invalid.', ['result']);
  const deleted = registry.counter('catalogue_refresh_deleted_total', 'Entries deleted after the upstream answered 404 twice, a day apart.', ['kind']);
  const discovered = registry.counter('catalogue_refresh_discovered_total', 'New ids discovered upstream.', ['kind']);
  // Present (at 0) from the start, so that rate() works before the first event.
  for (const result of ['written', 'unchanged', 'invalid']) writes.labels(result);

  let usage = { second: 0, minute: 0, pausedUntil: 0 };
  let backlog: Record<TierName, TierBacklog> | undefined;
  let size = 0;
  let polledAt = 0;
  registry.gauge('catalogue_upstream_budget_used', 'Upstream request slots taken by every instance in the last second and the last minute.', ['window'], () => [
    [['second'], usage.second],
    [['minute'], usage.minute],
  ]);
  registry.gauge('catalogue_upstream_budget_limit', 'The upstream budget: request slots allowed in any sliding second and minute.', ['window'], () => [
    [['second'], limits.perSecond],
    [['minute'], limits.perMinute],
  ]);
  registry.gauge('catalogue_upstream_paused_until_seconds', 'Until when a Retry-After pauses every request to the upstream, seconds since the epoch; 0 when not paused.', [], () => [
    [[], usage.pausedUntil > polledAt ? usage.pausedUntil / 1000 : 0],
  ]);
  registry.gauge('catalogue_upstream_circuit', "The upstream circuit breaker's state (1 for the current one).", ['state'], () => {
    const circuit = source.health().circuit;
    return CIRCUIT_STATES.map((name) => [[name], name === circuit ? 1 : 0] as const);
  });
  registry.gauge('catalogue_refresh_tasks_due', 'Refresh tasks due now, by tier.', ['tier'], function* () {
    if (backlog) for (const tier of TIER_NAMES) yield [[tier], backlog[tier].due] as const;
  });
  registry.gauge('catalogue_refresh_oldest_due_seconds', 'How long the oldest due task of each tier has been due, in seconds.', ['tier'], function* () {
    if (!backlog) return;
    for (const tier of TIER_NAMES) {
      const oldest = backlog[tier].oldestDueAt;
      yield [[tier], oldest === null ? 0 : Math.max(0, (polledAt - oldest) / 1000)] as const;
    }
  });
  registry.gauge('catalogue_refresh_tasks', 'Refresh tasks kept in all (every part of every entry, every listing page).', [], () => [[[], size]]);
  registry.gauge('catalogue_refresh_shortfall', "Whether a tier's due work is older than its interval (1): the budget is short of the schedule.", ['tier'], () => {
    const short = new Set(refresher.status().shortfall);
    return TIER_NAMES.map((tier) => [[tier], short.has(tier) ? 1 : 0] as const);
  });
  registry.gauge('catalogue_refresh_leader', 'Whether this instance holds the refresher lease (1) and refreshes.', [], () => [[[], refresher.leader ? 1 : 0]]);
  registry.gauge('catalogue_refresh_last_pass_timestamp_seconds', "When this instance's last refresh pass ended, seconds since the epoch; 0 before one.", [], () => [
    [[], (refresher.status().lastPass?.endedAt ?? 0) / 1000],
  ]);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const poll = async () => {
    const now = clock();
    // A state that cannot be read now keeps the last picture.
    try {
      [usage, backlog, size] = await Promise.all([state.usage(now), state.backlog(now), state.size()]);
      polledAt = now;
    } catch {
      // The refresher logs the state's failures; the gauges wait for the next poll.
    }
  };
  const loop = () => {
    if (!started) return;
    void poll().finally(() => {
      if (started) timer = setTimeout(loop, pollMs);
    });
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case 'fetched':
          requests.labels(event.tier, event.outcome).inc();
          break;
        case 'written':
        case 'unchanged':
        case 'invalid':
          writes.labels(event.type).inc();
          break;
        case 'deleted':
          deleted.labels(event.kind).inc();
          break;
        case 'discovered':
          discovered.labels(event.kind).inc(event.ids.length);
          break;
        default:
          break;
      }
    },
    poll,
    start() {
      if (started) return;
      started = true;
      loop();
    },
    stop() {
      started = false;
      clearTimeout(timer);
    },
  };
}
