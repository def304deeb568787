/**
 * Log lines as pino writes them (https://getpino.io/#/docs/api?id=logger), for the messages of a
 * server that are not access log lines: start-up, shutdown, warnings and errors. Every line is one
 * JSON object with pino's own fields first, `level` (pino's number: 30 info, 40 warn, 50 error,
 * 60 fatal), `time` (milliseconds since the epoch), `pid` and `hostname`, then any fields of the
 * message, then `msg`; so that a log shipper or `pino-pretty` reads them as they are, next to the
 * access log's lines. Runtime-agnostic: the host gives its process id and host name.
 * @module
 */

/** pino's numeric levels, by name. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** A level's name: `info`, `warn`, `error`… */
export type LogLevelName = keyof typeof LOG_LEVELS;

/** The fields pino puts on every line of a process (its `base`). */
export interface LogBase {
  /** The process id. */
  pid: number;
  /** The host name, as the operating system names it. */
  hostname: string;
}

/**
 * One log line: `{"level":30,"time":…,"pid":…,"hostname":"…",…fields,"msg":"…"}` and a newline.
 * @param level - The level's name.
 * @param msg - The message, one line.
 * @param base - The process id and host name.
 * @param fields - More fields, between `hostname` and `msg`; they cannot replace pino's own.
 * @param time - When, in milliseconds since the epoch. @default Date.now()
 * @returns The JSON text and a newline.
 * @example
 * ```ts
 * process.stdout.write(formatLogLine('info', 'listening on http://127.0.0.1:3000/v1', { pid: process.pid, hostname: hostname() }));
 * ```
 */
export function formatLogLine(level: LogLevelName, msg: string, base: LogBase, fields?: Readonly<Record<string, unknown>>, time = Date.now()): string {
  const line: Record<string, unknown> = { level: LOG_LEVELS[level], time, pid: base.pid, hostname: base.hostname };
  if (fields) for (const [name, value] of Object.entries(fields)) if (!(name in line) && name !== 'msg') line[name] = value;
  line.msg = msg;
  return `${JSON.stringify(line)}\n`;
}

/** A logger writing {@link formatLogLine} lines: `info` to one place, `warn` and worse to another. */
export interface LineLogger {
  /** An informational line (start-up, shutdown). */
  info(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Something allowed but probably not meant (a setting), or a dependency gone. */
  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Something failed. */
  error(msg: string, fields?: Readonly<Record<string, unknown>>): void;
  /** The process stops because of it (a start-up that cannot go on). */
  fatal(msg: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * A logger writing pino's lines: `info` lines to `out` (standard output, beside the access log),
 * `warn`, `error` and `fatal` lines to `err` (standard error), each whole line in one call.
 * @param base - The process id and host name.
 * @param out - Takes an `info` line, with its newline.
 * @param err - Takes a `warn`, `error` or `fatal` line, with its newline.
 * @returns The logger.
 * @example
 * ```ts
 * const log = createLineLogger({ pid: process.pid, hostname: hostname() }, (l) => process.stdout.write(l), (l) => process.stderr.write(l));
 * log.info(`listening on ${url}/v1`);
 * ```
 */
export function createLineLogger(base: LogBase, out: (line: string) => void, err: (line: string) => void): LineLogger {
  const at = (level: LogLevelName, write: (line: string) => void) => (msg: string, fields?: Readonly<Record<string, unknown>>) =>
    write(formatLogLine(level, msg, base, fields));
  return { info: at('info', out), warn: at('warn', err), error: at('error', err), fatal: at('fatal', err) };
}
