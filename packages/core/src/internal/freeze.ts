/**
 * Deep freezing, for values handed to many requests at once.
 * @module
 */

/**
 * Freezes a value and every object it holds, so that one value can be shared by every request
 * that reads it: changing it throws (modules are strict code) instead of changing what the others read.
 * @param value - A plain value: objects, arrays and primitives.
 * @returns The same value.
 */
export function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) freezeDeep(member);
  }
  return value;
}
