/**
 * The table every reader of environment variables is tested with: the values it refuses, each
 * with the one-line message that names the variable, the value and what the variable takes.
 */
import { EnvError } from '@catalogue-api/core';
import { expect, it } from 'vitest';

/** A variable, a value it refuses, and the message it is refused with. */
export type Refusal = readonly [name: string, value: string, message: string];

/**
 * The message of the error `read` throws for `env`, which must be an `EnvError` of one line.
 * @param read - Reads an environment; throws on a value it refuses.
 * @param env - The environment.
 * @throws {Error} when `read` accepts `env`.
 */
export function refusalOf(read: (env: Record<string, string>) => unknown, env: Record<string, string>): string {
  try {
    read(env);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    const { message } = error as EnvError;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

/**
 * One test per refusal: reading `{ [name]: value }` alone is refused with exactly `message`.
 * @param read - Reads an environment; throws on a value it refuses.
 * @param refusals - The refused values.
 */
export function itRefusesEach(read: (env: Record<string, string>) => unknown, refusals: readonly Refusal[]): void {
  it.each(refusals)('refuses %s=%s in one line naming the variable, its value and what it takes', (name, value, message) => {
    expect(refusalOf(read, { [name]: value })).toBe(message);
  });
}
