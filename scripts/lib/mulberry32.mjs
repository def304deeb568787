/**
 * The one seeded PRNG of the data builders, the benchmarks and the fuzz tests, so that every run of
 * them makes the same choices (no clock, no Math.random).
 * @module
 */

/**
 * mulberry32: a small, fast 32-bit seeded PRNG.
 * @param {number} seed - Any number; only its low 32 bits count.
 * @returns {() => number} A function that returns the next value in [0, 1) on each call.
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
