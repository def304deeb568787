/**
 * The one way core wraps a store's methods (the timeout bound, admission): every method, own and
 * inherited, replaced on an object whose prototype is the store, so that other properties read
 * through to it.
 * @module
 */

/** A method of a store, as the wrappers see it. */
export type Method = (...args: unknown[]) => unknown;

/**
 * Whether a value is a promise or any other thenable.
 * @param value - What a store method returned.
 * @returns Whether it has a `then` method.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * Wraps every method of `store`, own and inherited (not `constructor`, nor `Object.prototype`'s).
 * @param store - The store.
 * @param wrap - Makes the wrapped method from the store's own; it calls that with `store` as `this`.
 * @returns An object with the same methods, wrapped.
 */
export function wrapMethods<T extends object>(store: T, wrap: (method: Method) => Method): T {
  const wrapped = Object.create(store) as Record<string, unknown>;
  for (let proto: object | null = store; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || Object.hasOwn(wrapped, key)) continue;
      const value = (store as Record<string, unknown>)[key];
      if (typeof value === 'function') wrapped[key] = wrap(value as Method);
    }
  }
  return wrapped as T;
}
