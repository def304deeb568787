/**
 * `toStartupFailure`: what a server that could not start says, in one line, and its exit code.
 * @module
 */
import { EnvError } from './server-env.js';

/** What {@link toStartupFailure} makes of an error. */
export interface StartupFailure {
  /** One line for stderr, without a stack trace. */
  line: string;
  /** 2 for a bad configuration ({@link EnvError}), 1 for anything else (a port taken, a database down). */
  exitCode: 1 | 2;
}

/** The first line of an error's message; an `AggregateError` (every address of a host refused) has none of its own. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  if (!message && error instanceof AggregateError && error.errors.length > 0) message = messageOf(error.errors[0]);
  if (!message) message = (error as { code?: unknown }).code !== undefined ? String((error as { code?: unknown }).code) : error.name;
  return message.split('\n', 1)[0]!.trim();
}

/** A word on what to do, for the errors whose cause is plain. */
const HINTS: Record<string, string> = {
  EADDRINUSE: 'another process listens on that port; set PORT (or STATUS_PORT, METRICS_PORT) to a free one, 0 picks one',
  AddrInUse: 'another process listens on that port; set PORT (or STATUS_PORT, METRICS_PORT) to a free one, 0 picks one',
  EADDRNOTAVAIL: 'HOST is not an address of this machine',
  EACCES: 'ports below 1024 need privileges; set PORT to 1024 or above',
  ECONNREFUSED: 'nothing listens there; is the service up?',
  ENOTFOUND: 'the host name does not resolve',
};

/** The error code of an error or of the first error it wraps. */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code ?? (current.name !== 'Error' ? current.name : undefined);
    if (typeof code === 'string' && code in HINTS) return code;
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause;
  }
  return undefined;
}

/**
 * What a server that could not start says: one line naming what failed and why, with no stack
 * trace (an operator reads it in a container's log), and the exit code. An error's `cause` is
 * added after its message, so that `new Error('PostgreSQL at postgres://db:5432/x', { cause })`
 * reads `PostgreSQL at postgres://db:5432/x: connect ECONNREFUSED 10.0.0.5:5432`.
 * @param error - What start-up threw.
 * @returns The line and the exit code.
 * @example
 * ```ts
 * process.once('uncaughtException', (error) => {
 *   const { line, exitCode } = toStartupFailure(error);
 *   console.error(line);
 *   process.exit(exitCode);
 * });
 * ```
 */
export function toStartupFailure(error: unknown): StartupFailure {
  // By name too: a second copy of core (a bundle beside the package) has its own class.
  if (error instanceof EnvError || (error instanceof Error && error.name === 'EnvError')) return { line: `Invalid configuration: ${error.message}`, exitCode: 2 };
  return { line: `Could not start: ${describeError(error)}`, exitCode: 1 };
}

/**
 * An error in one line: its message's first line, its causes' after colons, and a word on what to
 * do when the cause is plain (a port taken, a connection refused). For conditions whose cause is
 * known, such as a back end that went away, where a stack trace would only name library internals.
 * @param error - Any error, or anything thrown.
 * @returns One line, without a stack trace.
 * @example
 * ```ts
 * describeError(new Error('Redis at redis://cache:6379', { cause })); // 'Redis at redis://cache:6379: connect ECONNREFUSED …'
 * ```
 */
export function describeError(error: unknown): string {
  const parts = [messageOf(error)];
  for (let cause = error instanceof Error ? error.cause : undefined, depth = 0; cause !== undefined && depth < 3; depth++) {
    const text = messageOf(cause);
    if (!parts.some((part) => part.includes(text))) parts.push(text);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  const code = codeOf(error);
  return `${parts.join(': ')}${code ? ` (${HINTS[code]})` : ''}`;
}
