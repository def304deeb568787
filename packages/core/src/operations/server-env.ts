/**
 * `readServerEnv`: every environment variable of the example servers (Node, Bun and Deno), read and
 * checked once, before anything listens, so that a value the server cannot use stops it at start
 * with one line naming the variable, its value and what it takes, rather than a stack trace, or a
 * crash once the ports are bound. Each variable is one row of {@link SERVER_ENV}; the README's
 * "Environment variables" table documents every row.
 * @module
 */
import { parseIsoDate } from './deprecation.js';
import { compileTrust, type TrustProxy } from '../gateway/client-address.js';
import { OPENAPI_PATH } from '../catalogue/openapi.js';
import { catalogueRoutes } from '../catalogue/routes/index.js';

/** How one variable is read. Build one with the helpers of {@link SERVER_ENV} (`integer`, `port`, `choice`…). */
export interface EnvVariable<T> {
  /** What the variable takes, in words, for the error message: `a port number from 0 to 65535`. */
  readonly allowed: string;
  /** Its value when unset or empty (a shell's `VAR=` means unset). */
  readonly fallback: T;
  /**
   * Reads a value that is set.
   * @param text - The value, not empty.
   * @returns The setting.
   * @throws Error when the value is not allowed; a message, if any, says why and is added to the line.
   */
  parse(text: string): T;
  /** Never repeat the value in a message (Server Keys, secrets); URLs are shown without their password. */
  readonly secret?: boolean;
}

/** A variable's value as {@link readServerEnv} returns it. */
export type EnvValue<V> = V extends EnvVariable<infer T> ? T : never;

/**
 * A variable that holds a value the server cannot use. `exitCode` is 2, as for a command-line usage
 * error: a supervisor that restarts on failure gains nothing by starting the same configuration
 * again (systemd's `RestartPreventExitStatus=2`), unlike a database that was not up yet (exit 1).
 */
export class EnvError extends Error {
  override readonly name = 'EnvError';
  /** The process exit code for a bad configuration. */
  readonly exitCode = 2;
  /**
   * A refusal of one variable.
   * @param variable - The variable's name.
   * @param message - One line: the variable, its value and what it takes.
   */
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

const NO_DETAIL = '';

/** Refuses a value; `detail` is added to the message after a colon. */
function refuse(detail = NO_DETAIL): never {
  throw new Error(detail);
}

/**
 * A whole number within bounds.
 * @param min - The smallest allowed.
 * @param max - The largest allowed.
 * @param fallback - When unset.
 * @param unit - Words after the number, `of milliseconds`.
 */
function integer<F extends number | undefined>(min: number, max: number, fallback: F, unit = ''): EnvVariable<number | F> {
  return {
    allowed: `a whole number${unit ? ` ${unit}` : ''} from ${min} to ${max}`,
    fallback,
    parse(text) {
      // Digits only: Number() would also take `0x10`, `1e3`, ` 8 ` and `+5`.
      if (!/^-?\d+$/.test(text)) refuse();
      const value = Number(text);
      if (!(value >= min && value <= max)) refuse();
      return value;
    },
  };
}

/** A TCP port; `0` picks a free one. */
function port<F extends number | undefined>(fallback: F): EnvVariable<number | F> {
  return { ...integer(0, 65_535, fallback), allowed: 'a port number from 0 to 65535' };
}

/** One of a few words. */
function choice<const W extends string>(words: readonly W[], fallback: W): EnvVariable<W> {
  const quoted = words.map((word) => `"${word}"`);
  return {
    allowed: `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`,
    fallback,
    parse: (text) => (words.includes(text as W) ? (text as W) : refuse()),
  };
}

/** `on` or `off`, as a boolean. */
function onOff(fallback: boolean): EnvVariable<boolean> {
  const words = choice(['on', 'off'], fallback ? 'on' : 'off');
  return { allowed: words.allowed, fallback, parse: (text) => words.parse(text) === 'on' };
}

/** Any text. */
function text<F extends string | undefined>(fallback: F): EnvVariable<string | F> {
  return { allowed: 'any text', fallback, parse: (value) => value };
}

/** Items separated by commas, each trimmed, empty ones dropped. */
function toList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * A URL of one of some schemes.
 * @param schemes - e.g. `['redis', 'rediss']`.
 * @param example - Shown in the message.
 */
function url(schemes: readonly string[], example: string): EnvVariable<string | undefined> {
  return {
    allowed: `a ${schemes.map((scheme) => `${scheme}://`).join(' or ')} URL such as ${example}`,
    fallback: undefined,
    parse(value) {
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        return refuse();
      }
      if (!schemes.includes(parsed.protocol.slice(0, -1))) refuse();
      return value;
    },
  };
}

/** An ISO 8601 date, as `createCatalogueApp({ deprecation })` takes it. */
function date(): EnvVariable<string | undefined> {
  return { allowed: 'an ISO 8601 date such as 2027-01-31T00:00:00Z', fallback: undefined, parse: (value) => (parseIsoDate(value) === undefined ? refuse() : value) };
}

/** A number within bounds, fractions allowed. */
function decimal(min: number, max: number, fallback: number): EnvVariable<number> {
  return {
    allowed: `a number from ${min} to ${max}`,
    fallback,
    parse(value) {
      const number = Number(value);
      return /^[\d.]+$/.test(value) && number >= min && number <= max ? number : refuse();
    },
  };
}

/**
 * A refresh interval in a unit, fractions allowed; unset, the refresher's schedule keeps its own
 * default (`upstream/schedule.ts`), so that the default lives in one place.
 */
function interval(min: number, max: number, unit: string): EnvVariable<number | undefined> {
  return { ...decimal(min, max, 0), allowed: `a number of ${unit} from ${min} to ${max}`, fallback: undefined };
}

/**
 * Reads `TRUST_PROXY`: a hop count (`1`), `true`, or addresses and CIDR ranges, comma-separated.
 * @param value - The variable's value.
 * @returns What the gateway's `trustProxy` option takes; `false` when unset.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return toList(text);
}

/** `TRUST_PROXY`, with every address and range checked as the gateway will read it. */
function trustProxy(): EnvVariable<TrustProxy> {
  return {
    allowed: 'a hop count (1), true, or IP addresses and CIDR ranges separated by commas (10.0.0.0/8,::1)',
    fallback: false,
    parse(value) {
      const trust = parseTrustProxy(value);
      try {
        compileTrust(trust);
      } catch (error) {
        // `trustProxy: 10.0.0.0/33 has a bad prefix length`, as the gateway would say it.
        refuse((error as Error).message.replace(/^trustProxy: /, ''));
      }
      return trust;
    },
  };
}

/** `SERVER_KEYS`: keys of visible ASCII, as an `X-Server-Key` header carries them. */
function serverKeys(): EnvVariable<string[]> {
  return {
    allowed: 'Server Keys of visible ASCII characters (no spaces), separated by commas',
    fallback: [],
    secret: true,
    parse(value) {
      const keys = toList(value);
      // Named by position only: a key is never repeated in a message.
      const bad = keys.findIndex((key) => !/^[\x21-\x7e]+$/.test(key));
      if (bad >= 0) refuse(`key ${bad + 1} of ${keys.length} holds another character`);
      return keys;
    },
  };
}

/** `STATUS_UPSTREAMS`: `id=url` pairs. */
function upstreams(): EnvVariable<Array<{ id: string; url: string }>> {
  return {
    allowed: 'id=url pairs separated by commas, such as api=https://api.example.org/health',
    fallback: [],
    parse(value) {
      return toList(value).map((pair) => {
        const at = pair.indexOf('=');
        const id = pair.slice(0, at).trim();
        const target = pair.slice(at + 1).trim();
        if (at < 1 || !/^https?:\/\/./.test(target) || !URL.canParse(target)) refuse(`"${pair}" is not one`);
        return { id, url: target };
      });
    },
  };
}

/** Segments of a route path or pattern; a final `*` is kept as the last one. */
const segmentsOf = (path: string) => path.replace(/\/+$/, '').split('/');

/**
 * Whether a `RESTRICTED_ROUTES` pattern (as the gateway compiles it: `:name` and `*` are one
 * segment, a final `*` any rest, even none) matches some path of a route: its parameters (`:id`)
 * take any segment, and a route's final `*` any rest.
 */
function matchesRoute(pattern: readonly string[], route: readonly string[]): boolean {
  const rest = pattern.at(-1) === '*';
  const fixed = rest ? pattern.length - 1 : pattern.length;
  for (let i = 0; i < fixed; i++) {
    const want = pattern[i]!;
    const have = route[i];
    if (have === '*' && i === route.length - 1) return true;
    if (have === undefined) return false;
    const wild = want.startsWith(':') || want === '*';
    if (!wild && !have.startsWith(':') && have !== want) return false;
  }
  return rest || fixed === route.length || (route.length === fixed + 1 && route[fixed] === '*');
}

const ROUTES = [...catalogueRoutes.map((route) => route.path), OPENAPI_PATH].map(segmentsOf);

/** Whether a pattern restricts some route of the catalogue. */
const restrictsSomething = (pattern: string) => ROUTES.some((route) => matchesRoute(segmentsOf(pattern), route));

/** What a pattern that matches nothing was most likely meant to be: with the leading `/`, or under `/v1`. */
function meantFor(pattern: string): string | undefined {
  const rooted = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return [rooted, `/v1${rooted}`].find((candidate) => candidate !== pattern && restrictsSomething(candidate));
}

/** `RESTRICTED_ROUTES`: patterns that must each match a route of the catalogue. */
function routePatterns(): EnvVariable<string[]> {
  return {
    allowed: 'route patterns of this API separated by commas, such as /v1/top/*,/v1/anime/:id/full',
    fallback: [],
    parse(value) {
      const patterns = toList(value);
      for (const pattern of patterns) {
        if (restrictsSomething(pattern)) continue;
        // A pattern that matches nothing leaves the routes it was meant for public: refused rather than ignored.
        const meant = meantFor(pattern);
        refuse(`${pattern} matches no route${meant ? ` (did you mean ${meant}?)` : ''}`);
      }
      return patterns;
    },
  };
}

/**
 * `STATUS_INTERVAL_SECONDS`: the checker must check at least once per `staleAfterSeconds` (a result
 * counts that long; `createChecker` throws a RangeError otherwise).
 */
function statusInterval(staleAfterSeconds: number): EnvVariable<number | undefined> {
  return { ...integer(1, staleAfterSeconds, undefined), allowed: `a whole number of seconds from 1 to ${staleAfterSeconds} (staleAfterSeconds: how long a status result counts)` };
}

/** The most milliseconds a timer can wait: browsers, Node, Bun and Deno fire a longer one at once (HTML, "timer initialisation steps"). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Every variable of the example servers, one row each: its name and how it is read (which says
 * what it takes and its default). To add one, add its row here, document it in the README's
 * "Environment variables" table (a test checks that every row is there), and read it from what
 * {@link readServerEnv} returns. Its value when unset is the row's fallback; `undefined` means the
 * library's own default applies.
 */
export const SERVER_ENV = {
  PORT: port(3000),
  HOST: text('127.0.0.1'),
  MAX_CONNECTIONS: integer(1, 1_000_000, undefined),
  MAX_PIPELINED_REQUESTS: integer(1, 100_000, undefined),
  MAX_QUEUED_BYTES: integer(1, MAX_TIMER_MS, undefined, 'of bytes'),
  SEND_TIMEOUT_MS: integer(1, MAX_TIMER_MS, undefined, 'of milliseconds'),
  SHUTDOWN_TIMEOUT_MS: integer(0, MAX_TIMER_MS, 8_000, 'of milliseconds'),
  RATE_LIMIT: onOff(true),
  CACHE: onOff(true),
  SERVER_KEYS: serverKeys(),
  FINGERPRINT_SECRET: { ...text(undefined), secret: true },
  RESTRICTED_ROUTES: routePatterns(),
  TRUST_PROXY: trustProxy(),
  REDIS_URL: url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
  REDIS_PREFIX: text('catalogue-api:'),
  DATABASE_URL: url(['postgres', 'postgresql'], 'postgres://user@127.0.0.1:5432/catalogue'),
  DATABASE_SCHEMA: text(undefined),
  DATA: text(undefined),
  DEMO_DATA: { ...onOff(false), fallback: undefined } as EnvVariable<boolean | undefined>,
  STORE_TIMEOUT_MS: integer(1, MAX_TIMER_MS, undefined, 'of milliseconds'),
  ADMISSION: onOff(true),
  SEARCH_CONCURRENCY: integer(1, 100_000, undefined),
  SEARCH_QUEUE: integer(0, 1_000_000, undefined),
  READ_CONCURRENCY: integer(1, 100_000, undefined),
  READ_QUEUE: integer(0, 1_000_000, undefined),
  ADMISSION_WAIT_MS: integer(0, MAX_TIMER_MS, undefined, 'of milliseconds'),
  STATUS_PORT: port(undefined),
  STATUS_CONFIG: text(undefined),
  STATUS_UPSTREAMS: upstreams(),
  STATUS_DATABASE_URL: url(['postgres', 'postgresql'], 'postgres://user@127.0.0.1:5432/catalogue'),
  STATUS_DATABASE_SCHEMA: text('catalogue_status'),
  STATUS_INTERVAL_SECONDS: statusInterval(120),
  ACCESS_LOG: choice(['json', 'off'], 'json'),
  ACCESS_LOG_SAMPLE: decimal(0, 1, 1),
  ACCESS_LOG_CLIENT: choice(['hash', 'address', 'none'], 'hash'),
  REQUEST_ID: onOff(true),
  METRICS_PORT: port(undefined),
  METRICS_HOST: text('127.0.0.1'),
  API_DEPRECATED_AT: date(),
  API_SUNSET_AT: date(),
  API_SUCCESSOR_URL: text(undefined),
  UPSTREAM_URL: url(['http', 'https'], 'https://api.jikan.moe/v4'),
  UPSTREAM_MAX_PER_SECOND: integer(1, 1_000, 3),
  UPSTREAM_MAX_PER_MINUTE: integer(1, 60_000, 60),
  UPSTREAM_TIME_SCALE: decimal(1, 1_000_000, 1),
  UPSTREAM_STATE_FILE: text(undefined),
  REFRESH_DISCOVERY_MINUTES: interval(0.1, 1_440, 'minutes'),
  REFRESH_NEW_MINUTES: interval(0.1, 1_440, 'minutes'),
  REFRESH_HOT_HOURS: interval(0.1, 720, 'hours'),
  REFRESH_STATS_HOURS: interval(0.1, 720, 'hours'),
  REFRESH_POPULAR_DAYS: interval(0.1, 365, 'days'),
  REFRESH_FULL_DAYS: interval(0.1, 3_650, 'days'),
} satisfies Record<string, EnvVariable<unknown>>;

/** The name of a variable of {@link SERVER_ENV}. */
export type ServerEnvName = keyof typeof SERVER_ENV;

/** The settings {@link readServerEnv} reads, by variable name. */
export type ServerEnv = { readonly [K in ServerEnvName]: EnvValue<(typeof SERVER_ENV)[K]> };

/** Options of {@link readServerEnv}. */
export interface ReadServerEnvOptions<K extends ServerEnvName> {
  /**
   * Read only these variables (what a runtime's example uses): the others are ignored, whatever
   * they hold. @default every variable
   */
  only?: readonly K[];
  /**
   * How long a status result counts (the status app's `staleAfterSeconds`): the checker must check
   * at least that often, so it is the most `STATUS_INTERVAL_SECONDS` may be. @default 120
   */
  staleAfterSeconds?: number;
  /**
   * Told of each setting that is allowed but probably not what was meant, one line each.
   * @default console.warn
   */
  warn?: (line: string) => void;
}

/** A value as a message may show it: a URL without its password, a secret not at all. */
function shown(variable: EnvVariable<unknown>, value: string): string {
  if (variable.secret) return '';
  const redacted = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
  return `, not "${redacted}"`;
}

/**
 * Reads one variable.
 * @throws {EnvError} when its value is not allowed.
 */
function readOne<T>(name: string, variable: EnvVariable<T>, value: string | undefined): T {
  if (value === undefined || value === '') return variable.fallback;
  try {
    return variable.parse(value);
  } catch (error) {
    const detail = (error as Error).message;
    throw new EnvError(name, `${name} must be ${variable.allowed}${shown(variable, value)}${detail ? `: ${detail}` : ''}`);
  }
}

/**
 * Reads and checks the example servers' environment variables (every row of {@link SERVER_ENV}, or
 * those named in `only`), before anything listens. Empty counts as unset. `RESTRICTED_ROUTES`
 * entries must each match a route of the catalogue (`/top/*` and `v1/top/anime` match none), and
 * `STATUS_INTERVAL_SECONDS` may be at most `staleAfterSeconds`. `RESTRICTED_ROUTES` without
 * `SERVER_KEYS` is allowed, with a warning: those routes then answer 401 to every client.
 * @param env - The environment (`process.env`, `Deno.env.toObject()`, `Bun.env`).
 * @param options - Which variables, the status results' lifetime, where warnings go.
 * @returns The settings, by variable name.
 * @throws {EnvError} for the first variable whose value the server cannot use: one line with the
 *   variable, its value (never a Server Key's, nor a URL's password) and what it takes.
 * @example
 * ```ts
 * const env = readServerEnv(process.env);
 * const server = await serve(app, { port: env.PORT, hostname: env.HOST });
 * ```
 */
export function readServerEnv<K extends ServerEnvName = ServerEnvName>(
  env: Readonly<Record<string, string | undefined>>,
  options: ReadServerEnvOptions<K> = {},
): Pick<ServerEnv, K> {
  const rows: Record<ServerEnvName, EnvVariable<unknown>> = { ...SERVER_ENV, STATUS_INTERVAL_SECONDS: statusInterval(options.staleAfterSeconds ?? 120) };
  const names = options.only ?? (Object.keys(rows) as K[]);
  const values: Partial<Record<ServerEnvName, unknown>> = {};
  for (const name of names) values[name] = readOne(name, rows[name], env[name]);
  const settings = values as Pick<ServerEnv, K> & Partial<ServerEnv>;
  const restricted = settings.RESTRICTED_ROUTES;
  if (restricted !== undefined && restricted.length > 0 && settings.SERVER_KEYS?.length === 0) {
    (options.warn ?? console.warn)(`Warning: RESTRICTED_ROUTES is set but SERVER_KEYS is empty: ${restricted.join(', ')} answer 401 to every client.`);
  }
  return settings;
}
