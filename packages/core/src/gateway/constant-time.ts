/**
 * A constant-time string comparison for secrets, with Web-standard code only (no `node:crypto`).
 * @module
 */

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ,
 * so that a caller guessing a Server Key learns nothing from response times.
 * @param a - A secret as supplied.
 * @param b - A secret as known.
 * @returns Whether they are equal.
 * @example
 * ```ts
 * constantTimeEqual(request.header('x-server-key') ?? '', knownKey);
 * ```
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const n = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < n; i++) {
    // Past the end of the shorter string, compare against 0 rather than stopping early.
    diff |= (i < a.length ? a.charCodeAt(i) : 0) ^ (i < b.length ? b.charCodeAt(i) : 0);
  }
  return diff === 0;
}
