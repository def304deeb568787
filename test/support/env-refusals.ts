/**
 * The values the server's environment variables refuse, each with the one-line message that names
 * the variable, the value and what the variable takes, written once for every reader of them
 * (`readServerEnv` and the readers that call it for some of its variables).
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
 * One test per refused value of the variables `read` reads ({@link SERVER_REFUSALS}): reading
 * `{ [name]: value }` alone is refused with exactly the row's message.
 * @param read - Reads an environment; throws on a value it refuses.
 * @param variables - The variables it reads; all of them when left out.
 */
export function itRefusesEach(read: (env: Record<string, string>) => unknown, variables?: readonly string[]): void {
  const refusals = SERVER_REFUSALS.filter(([name]) => variables?.includes(name) ?? true);
  it.each(refusals)('refuses %s=%s in one line naming the variable, its value and what it takes', (name, value, message) => {
    expect(refusalOf(read, { [name]: value })).toBe(message);
  });
}

/** Values every variable of `readServerEnv` refuses, with the message it refuses each with. */
export const SERVER_REFUSALS: readonly Refusal[] = [
  ['PORT', 'notaport', 'PORT must be a port number from 0 to 65535, not "notaport"'],
  ['DEMO_DATA', 'yes', 'DEMO_DATA must be "on" or "off", not "yes"'],
  ['PORT', '65536', 'PORT must be a port number from 0 to 65535, not "65536"'],
  ['PORT', '-1', 'PORT must be a port number from 0 to 65535, not "-1"'],
  ['PORT', '80.5', 'PORT must be a port number from 0 to 65535, not "80.5"'],
  ['PORT', '0x50', 'PORT must be a port number from 0 to 65535, not "0x50"'],
  ['MAX_CONNECTIONS', '0', 'MAX_CONNECTIONS must be a whole number from 1 to 1000000, not "0"'],
  ['MAX_CONNECTIONS', 'many', 'MAX_CONNECTIONS must be a whole number from 1 to 1000000, not "many"'],
  ['MAX_PIPELINED_REQUESTS', '0', 'MAX_PIPELINED_REQUESTS must be a whole number from 1 to 100000, not "0"'],
  ['MAX_QUEUED_BYTES', '1MiB', 'MAX_QUEUED_BYTES must be a whole number of bytes from 1 to 2147483647, not "1MiB"'],
  ['SEND_TIMEOUT_MS', '10s', 'SEND_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "10s"'],
  ['SHUTDOWN_TIMEOUT_MS', '10s', 'SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 0 to 2147483647, not "10s"'],
  ['RATE_LIMIT', 'false', 'RATE_LIMIT must be "on" or "off", not "false"'],
  ['CACHE', 'OFF', 'CACHE must be "on" or "off", not "OFF"'],
  ['TRUST_PROXY', '10.0.0.0/33', 'TRUST_PROXY must be a hop count (1), true, or IP addresses and CIDR ranges separated by commas (10.0.0.0/8,::1), not "10.0.0.0/33": 10.0.0.0/33 has a bad prefix length'],
  ['TRUST_PROXY', 'loadbalancer', 'TRUST_PROXY must be a hop count (1), true, or IP addresses and CIDR ranges separated by commas (10.0.0.0/8,::1), not "loadbalancer": loadbalancer is not an IP address or CIDR range'],
  ['REDIS_URL', '127.0.0.1:6379', 'REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, not "127.0.0.1:6379"'],
  ['REDIS_URL', 'http://:hunter2@cache:6379', 'REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, not "http://:***@cache:6379"'],
  ['DATABASE_URL', 'mysql://app:hunter2@db/catalogue', 'DATABASE_URL must be a postgres:// or postgresql:// URL such as postgres://user@127.0.0.1:5432/catalogue, not "mysql://app:***@db/catalogue"'],
  ['DATABASE_URL', 'localhost', 'DATABASE_URL must be a postgres:// or postgresql:// URL such as postgres://user@127.0.0.1:5432/catalogue, not "localhost"'],
  ['STORE_TIMEOUT_MS', '0', 'STORE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "0"'],
  ['STORE_TIMEOUT_MS', '5s', 'STORE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "5s"'],
  ['STORE_TIMEOUT_MS', '2147483648', 'STORE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "2147483648"'],
  ['STATUS_PORT', 'status', 'STATUS_PORT must be a port number from 0 to 65535, not "status"'],
  ['STATUS_UPSTREAMS', 'api', 'STATUS_UPSTREAMS must be id=url pairs separated by commas, such as api=https://api.example.org/health, not "api": "api" is not one'],
  ['STATUS_UPSTREAMS', 'api=ftp://x', 'STATUS_UPSTREAMS must be id=url pairs separated by commas, such as api=https://api.example.org/health, not "api=ftp://x": "api=ftp://x" is not one'],
  ['STATUS_DATABASE_URL', 'status.db', 'STATUS_DATABASE_URL must be a postgres:// or postgresql:// URL such as postgres://user@127.0.0.1:5432/catalogue, not "status.db"'],
  ['STATUS_INTERVAL_SECONDS', '3600', 'STATUS_INTERVAL_SECONDS must be a whole number of seconds from 1 to 120 (staleAfterSeconds: how long a status result counts), not "3600"'],
  ['STATUS_INTERVAL_SECONDS', '0', 'STATUS_INTERVAL_SECONDS must be a whole number of seconds from 1 to 120 (staleAfterSeconds: how long a status result counts), not "0"'],
  ['STATUS_INTERVAL_SECONDS', '0.5', 'STATUS_INTERVAL_SECONDS must be a whole number of seconds from 1 to 120 (staleAfterSeconds: how long a status result counts), not "0.5"'],
  ['SEARCH_CONCURRENCY', '0', 'SEARCH_CONCURRENCY must be a whole number from 1 to 100000, not "0"'],
  ['SEARCH_QUEUE', '-1', 'SEARCH_QUEUE must be a whole number from 0 to 1000000, not "-1"'],
  ['READ_CONCURRENCY', '2.5', 'READ_CONCURRENCY must be a whole number from 1 to 100000, not "2.5"'],
  ['READ_QUEUE', 'many', 'READ_QUEUE must be a whole number from 0 to 1000000, not "many"'],
  ['ADMISSION_WAIT_MS', '1e3', 'ADMISSION_WAIT_MS must be a whole number of milliseconds from 0 to 2147483647, not "1e3"'],
  ['ADMISSION', 'no', 'ADMISSION must be "on" or "off", not "no"'],
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
