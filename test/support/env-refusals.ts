/**
 * The table every reader of environment variables is tested with: the values it refuses, each
 * with the one-line message that names the variable, the value and what the variable takes; and
 * the refusals of the variables that more than one reader reads, written once.
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

/** What the access log, request ids, metrics and deprecation variables refuse (readOperationsEnv, readServerEnv). */
export const OPERATIONS_REFUSALS: readonly Refusal[] = [
  ['ACCESS_LOG', 'OFF', 'ACCESS_LOG must be "json" or "off", not "OFF"'],
  ['ACCESS_LOG_SAMPLE', '2', 'ACCESS_LOG_SAMPLE must be a number from 0 to 1, not "2"'],
  ['ACCESS_LOG_SAMPLE', 'half', 'ACCESS_LOG_SAMPLE must be a number from 0 to 1, not "half"'],
  ['ACCESS_LOG_CLIENT', 'ip', 'ACCESS_LOG_CLIENT must be "hash", "address" or "none", not "ip"'],
  ['REQUEST_ID', 'yes', 'REQUEST_ID must be "on" or "off", not "yes"'],
  ['METRICS_PORT', '70000', 'METRICS_PORT must be a port number from 0 to 65535, not "70000"'],
  ['METRICS_PORT', 'x', 'METRICS_PORT must be a port number from 0 to 65535, not "x"'],
  ['API_SUNSET_AT', 'next spring', 'API_SUNSET_AT must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "next spring"'],
  ['API_DEPRECATED_AT', '12/31/2027', 'API_DEPRECATED_AT must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "12/31/2027"'],
  ['API_DEPRECATED_AT', 'soon', 'API_DEPRECATED_AT must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "soon"'],
  ['API_SUNSET_AT', '2027-06-31', 'API_SUNSET_AT must be an ISO 8601 date such as 2027-01-31T00:00:00Z, not "2027-06-31"'],
];

/** What the admission variables refuse (the Node example's readAdmissionEnv, readServerEnv). */
export const ADMISSION_REFUSALS: readonly Refusal[] = [
  ['SEARCH_CONCURRENCY', '0', 'SEARCH_CONCURRENCY must be a whole number from 1 to 100000, not "0"'],
  ['SEARCH_QUEUE', '-1', 'SEARCH_QUEUE must be a whole number from 0 to 1000000, not "-1"'],
  ['READ_CONCURRENCY', '2.5', 'READ_CONCURRENCY must be a whole number from 1 to 100000, not "2.5"'],
  ['READ_QUEUE', 'many', 'READ_QUEUE must be a whole number from 0 to 1000000, not "many"'],
  ['ADMISSION_WAIT_MS', '1e3', 'ADMISSION_WAIT_MS must be a whole number of milliseconds from 0 to 2147483647, not "1e3"'],
  ['ADMISSION', 'no', 'ADMISSION must be "on" or "off", not "no"'],
];
