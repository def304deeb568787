/**
 * Table tests of pure functions: a row per input with what the function gives for it.
 */
import { expect, it } from 'vitest';

/**
 * One test per row: `fn(input)` equals `expected`.
 * @param title - The test's title; `%s` or `%j` stand for the input, then the expected value.
 * @param fn - The function under test.
 * @param rows - Each input with what `fn` gives for it.
 */
export function itMapsEach<I, O>(title: string, fn: (input: I) => O, rows: ReadonlyArray<readonly [input: I, expected: O]>): void {
  it.each(rows)(title, (input, expected) => {
    expect(fn(input)).toEqual(expected);
  });
}
