/**
 * The set-up of the contract suites whose every test gets a subject of its own: made before the
 * test by the harness, released after it.
 * @module
 */
import { afterEach, beforeEach } from 'vitest';

/** Makes a subject and, optionally, releases it: a contract's harness. */
export interface FreshHarness<T> {
  /** Returns a new, empty subject. */
  create(): Promise<T>;
  /** Releases a subject made by `create`. */
  destroy?(subject: T): unknown;
}

/**
 * Makes a fresh subject before every test of the suite it is called in, and releases it after.
 * @param harness - Makes and releases subjects.
 * @param use - Receives each new subject, for the suite's tests to use.
 */
export function eachFresh<T>(harness: FreshHarness<T>, use: (subject: T) => void): void {
  let subject: T;
  beforeEach(async () => {
    subject = await harness.create();
    use(subject);
  });
  afterEach(async () => {
    await harness.destroy?.(subject);
  });
}
