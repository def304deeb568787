/**
 * mulberry32: a small, fast 32-bit seeded PRNG.
 * @param seed - Any number; only its low 32 bits count.
 * @returns A function that returns the next value in [0, 1) on each call.
 */
export function mulberry32(seed: number): () => number;
