/**
 * The default monotonic clock of the stages that time things (observed requests, store calls,
 * readiness checks).
 * @module
 */

/**
 * `performance.now`, with the global read once: on Node 20 `performance` is an accessor, and reading
 * it on every call cost a third of the clock's instructions (counted with `valgrind --tool=callgrind`).
 * @returns A clock in milliseconds.
 */
export function monotonicClock(): () => number {
  const perf = performance;
  return () => perf.now();
}

/**
 * The wall clock at a reading of a monotonic clock: `now()` (`Date.now`) is read, with `clock()`
 * beside it, at most once per `resyncMs` of the monotonic clock, and whole milliseconds are
 * counted from that pair in between. On this project's 2-vCPU VM a `Date.now()` cost 60–110 ns of
 * real time (a clock read in a virtual machine), while an observed request reads the monotonic
 * clock anyway.
 * Between two pairs the clocks drift apart by what NTP slews (at most 0.5 ms a second); a step
 * of the wall clock shows within `resyncMs`. Like `Date.now()`, a time may be a millisecond early.
 * @param clock - The monotonic clock, in milliseconds.
 * @param now - The wall clock, in milliseconds. @default Date.now
 * @param resyncMs - How long a pair of readings serves. @default 1000
 * @returns The wall clock, in whole milliseconds, at a reading of `clock`.
 */
export function wallClockAt(clock: () => number, now: () => number = Date.now, resyncMs = 1000): (reading: number) => number {
  let base = Number.NEGATIVE_INFINITY;
  let wall = 0;
  return (reading) => {
    // A reading older than the pair (a request that waited for its turn) counts back from it.
    if (!(reading - base < resyncMs)) {
      base = clock();
      wall = now();
    }
    return wall + Math.floor(reading - base);
  };
}
