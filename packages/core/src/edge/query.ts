/**
 * Query-string parameters as zod schemas. Each one validates a raw value (`string`, `string[]` for a
 * repeated key, or absent) and fails with a message that names the parameter and what is allowed.
 * Endpoint query schemas are `z.object`s of these; `parseQuery` turns the first issue into a 400.
 * @module
 */
import { z } from 'zod';
import { ApiError } from './errors.js';
import { freezeDeep } from '../internal/freeze.js';
import { withoutStackTraces } from '../internal/no-stack.js';
import { documented } from '../internal/param-docs.js';

/** A raw query value: absent, once, or repeated. */
export type RawValue = string | string[] | undefined;
/** A raw query: what the router hands a handler. */
export type RawQuery = Record<string, RawValue>;

/** A parameter's raw value, before its own parsing: absent, one string, or the strings of a repeated key. */
export const raw = z.union([z.string(), z.array(z.string())]).optional();

/** Flag values (Jikan accepts `1`/`0` too). A bare flag (`?sfw`) arrives as the empty string. */
const TRUE = new Set(['', 'true', '1']);
const FALSE = new Set(['false', '0']);

/**
 * A transform that adds one custom issue and aborts.
 * @param ctx - The transform's context.
 * @param message - The issue's message.
 */
export function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/**
 * The single value of a parameter; `undefined` when absent or empty (empty means default).
 * A repeated key is an error: which of the values was meant is not ours to guess.
 */
function one(name: string, value: RawValue, ctx: z.RefinementCtx): string | undefined {
  if (Array.isArray(value)) {
    // The issue fails the parse; answer "absent" rather than z.NEVER (an object), which the
    // callers would go on to treat as a string and throw on (`?q=a&q=b` was a 500).
    ctx.addIssue({ code: 'custom', message: `${name} must be given once` });
    return undefined;
  }
  return value === '' ? undefined : value;
}

/** Splits a comma list; repeated keys are joined (`type=tv&type=movie` = `type=tv,movie`). */
function list(value: RawValue): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items.length ? items : undefined;
}

const INT = /^[+]?\d+$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * An integer parameter within bounds.
 * @param name - Parameter name, for the message.
 * @param min - Smallest allowed value.
 * @param max - Largest allowed value.
 * @param fallback - Value when absent or empty.
 */
export function intParam(name: string, min: number, max: number, fallback: number) {
  return documented(raw.transform((value, ctx) => {
    const s = one(name, value, ctx);
    if (s === undefined) return fallback;
    const n = INT.test(s) ? Number(s) : NaN;
    if (!(n >= min && n <= max)) return fail(ctx, `${name} must be an integer from ${min} to ${max}`);
    return n;
  }), z.int().min(min).max(max).default(fallback));
}

/**
 * An optional number parameter within inclusive bounds.
 * @param name - Parameter name, for the message.
 * @param min - Smallest allowed value.
 * @param max - Largest allowed value.
 */
export function numberParam(name: string, min: number, max: number) {
  return documented(raw.transform((value, ctx): number | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    const n = NUMBER.test(s) ? Number(s) : NaN;
    if (!(n >= min && n <= max)) return fail(ctx, `${name} must be a number from ${min} to ${max}`);
    return n;
  }), z.number().min(min).max(max));
}

/**
 * Characters free text may not hold: U+0000, which PostgreSQL's `text` cannot store (SQLSTATE
 * 22021, https://www.postgresql.org/docs/current/datatype-character.html); an unpaired UTF-16
 * surrogate, which is not Unicode text and has no UTF-8 form; and U+FFFD, which is what
 * `URLSearchParams` makes of percent-encoded bytes that are not UTF-8 (`%ED%A0%80`, `%FF`;
 * https://url.spec.whatwg.org/#concept-urlencoded-parser) and so the mark of an encoding error, not
 * of text anyone searches for. With the `u` flag a surrogate pair is one code point, so only an
 * unpaired surrogate is `Cs`.
 */
const UNSTORABLE = /[\0\uFFFD]|\p{Cs}/u;

/** What free text must be, in a message after the parameter's name. */
const TEXT_ALLOWED = 'UTF-8 text without U+0000 (NUL) or U+FFFD (the mark of bytes that are not UTF-8)';

/**
 * An optional string parameter of bounded length, of text every store can hold.
 * @param name - Parameter name, for the message.
 * @param max - Most characters allowed.
 */
export function textParam(name: string, max: number) {
  return documented(raw.transform((value, ctx): string | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    if ([...s].length > max) return fail(ctx, `${name} must be at most ${max} characters long`);
    if (UNSTORABLE.test(s)) return fail(ctx, `${name} must be ${TEXT_ALLOWED}`);
    return s;
  }), z.string().max(max));
}

/**
 * An optional string of exactly one character (spec: `letter`), one every store can hold.
 * @param name - Parameter name, for the message.
 */
export function letterParam(name: string) {
  return documented(raw.transform((value, ctx): string | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    if ([...s].length !== 1) return fail(ctx, `${name} must be exactly 1 character`);
    if (UNSTORABLE.test(s)) return fail(ctx, `${name} must be exactly 1 character of ${TEXT_ALLOWED}`);
    return s;
  }), z.string().length(1));
}

/** A given flag's value, as {@link flagParam} reads it; a repeated or unknown value fails the parse, naming the flag. */
function toFlag(name: string, value: string | string[], ctx: z.RefinementCtx): boolean {
  if (Array.isArray(value)) return fail(ctx, `${name} must be given once`);
  const s = value.toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return fail(ctx, `${name} must be true or false (or given bare)`);
}

/**
 * A flag: on when present bare, empty, `true` or `1`; off when `false` or `0`; `fallback` when absent.
 * @param name - Parameter name, for the message.
 * @param fallback - Value when absent (Jikan's `preliminary`/`spoilers` on `/top/reviews` default to on).
 * @default fallback false
 */
export function flagParam(name: string, fallback = false) {
  return documented(raw.transform((value, ctx): boolean => (value === undefined ? fallback : toFlag(name, value, ctx))), z.boolean().default(fallback));
}

/**
 * A tri-state flag (Jikan `kids`): `undefined` when absent (no filtering), else `true`/`false` as {@link flagParam}.
 * @param name - Parameter name, for the message.
 */
export function optionalFlagParam(name: string) {
  return documented(raw.transform((value, ctx): boolean | undefined => (value === undefined ? undefined : toFlag(name, value, ctx))), z.boolean());
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An instant given as an ISO 8601 date or date-time (UTC unless an offset is given) or as a Unix
 * timestamp in seconds; parsed to milliseconds since the epoch.
 * @param name - Parameter name, for the message.
 */
export function instantParam(name: string) {
  return documented(raw.transform((value, ctx): number | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    let ms = NaN;
    if (INT.test(s)) ms = Number(s) * 1000;
    else if (ISO_DATE_TIME.test(s)) {
      const date = s.slice(0, 10);
      // Date-only and offset-less date-times are read as UTC, never as the host's local time.
      const text = s.length === 10 ? `${date}T00:00:00Z` : /(?:Z|[+-]\d{2}:?\d{2})$/i.test(s) ? s : `${s}Z`;
      ms = Date.parse(text.replace(' ', 'T'));
      if (parsePeriod(date) === undefined) ms = NaN;
    }
    if (!Number.isFinite(ms)) return fail(ctx, `${name} must be an ISO 8601 date-time or a Unix timestamp in seconds`);
    return ms;
  }), z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true }), z.int().nonnegative()]));
}

const describe = (values: readonly string[]) => values.join(', ');

/**
 * One value out of a fixed set, case-insensitive, mapped to its label.
 * @param name - Parameter name, for the message.
 * @param labels - Allowed lower-case values and what each means.
 */
export function enumParam<const L extends Record<string, string>>(name: string, labels: L) {
  const keys = Object.keys(labels);
  return documented(raw.transform((value, ctx): L[keyof L] | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    const key = s.toLowerCase();
    if (!Object.hasOwn(labels, key)) return fail(ctx, `${name} must be one of: ${describe(keys)}`);
    return labels[key] as L[keyof L];
  }), z.enum(keys));
}

/**
 * A comma list of values out of a fixed set, case-insensitive, mapped to their labels (OR-ed by the caller).
 * @param name - Parameter name, for the message.
 * @param labels - Allowed lower-case values and what each means.
 */
export function enumListParam<const L extends Record<string, string>>(name: string, labels: L) {
  const keys = Object.keys(labels);
  return documented(raw.transform((value, ctx): Array<L[keyof L]> | undefined => {
    const items = list(value);
    if (!items) return undefined;
    const out: Array<L[keyof L]> = [];
    for (const item of items) {
      const key = item.toLowerCase();
      if (!Object.hasOwn(labels, key)) {
        return fail(ctx, `${name} must be a comma-separated list of: ${describe(keys)} (got "${item}")`);
      }
      const label = labels[key] as L[keyof L];
      if (!out.includes(label)) out.push(label);
    }
    return out;
  }), z.array(z.enum(keys)), true);
}

/**
 * A comma list of positive integer ids.
 * @param name - Parameter name, for the message.
 */
export function idListParam(name: string) {
  return documented(raw.transform((value, ctx): number[] | undefined => {
    const items = list(value);
    if (!items) return undefined;
    const ids: number[] = [];
    for (const item of items) {
      const n = INT.test(item) ? Number(item) : NaN;
      if (!(n >= 1 && Number.isSafeInteger(n))) {
        return fail(ctx, `${name} must be a comma-separated list of positive integer ids (got "${item}")`);
      }
      ids.push(n);
    }
    return ids;
  }), z.array(z.int().positive()), true);
}

/**
 * An optional positive integer id (e.g. a tag id).
 * @param name - Parameter name, for the message.
 */
export function idParam(name: string) {
  return documented(raw.transform((value, ctx): number | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    const n = INT.test(s) ? Number(s) : NaN;
    if (!(n >= 1 && Number.isSafeInteger(n))) return fail(ctx, `${name} must be a positive integer id`);
    return n;
  }), z.int().positive());
}

/** A calendar period from a `YYYY`, `YYYY-MM` or `YYYY-MM-DD` parameter: its first and last day. */
export interface DatePeriod {
  /** First day, `YYYY-MM-DD`. */
  first: string;
  /** Last day, `YYYY-MM-DD`. */
  last: string;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Parses `YYYY`, `YYYY-MM` or `YYYY-MM-DD` into the period it names.
 * @param s - The text.
 * @returns The period, or `undefined` when the text is not a real date.
 */
export function parsePeriod(s: string): DatePeriod | undefined {
  const m = DATE.exec(s);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? undefined : Number(m[2]);
  const day = m[3] === undefined ? undefined : Number(m[3]);
  if (month !== undefined && (month < 1 || month > 12)) return undefined;
  const daysIn = (mo: number) => new Date(Date.UTC(year, mo, 0)).getUTCDate();
  if (month === undefined) return { first: `${pad(year, 4)}-01-01`, last: `${pad(year, 4)}-12-31` };
  if (day === undefined) {
    return { first: `${pad(year, 4)}-${pad(month)}-01`, last: `${pad(year, 4)}-${pad(month)}-${pad(daysIn(month))}` };
  }
  if (day < 1 || day > daysIn(month)) return undefined;
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  return { first: date, last: date };
}

/**
 * An optional date parameter: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
 * @param name - Parameter name, for the message.
 */
export function dateParam(name: string) {
  return documented(raw.transform((value, ctx): DatePeriod | undefined => {
    const s = one(name, value, ctx);
    if (s === undefined) return undefined;
    return parsePeriod(s) ?? fail(ctx, `${name} must be a date as YYYY, YYYY-MM or YYYY-MM-DD`);
  }), z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/));
}

/**
 * Validates a raw query against an endpoint's schema.
 * @param schema - The endpoint's query schema.
 * @param query - The raw query.
 * @returns The typed query.
 * @throws {@link ApiError} 400 naming the first invalid parameter.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: RawQuery): z.output<S> {
  // A failed parse builds a ZodError: an Error whose stack no one reads.
  const result = withoutStackTraces(() => schema.safeParse(query));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ApiError(400, issue?.message ?? 'The query is invalid');
}

/**
 * The raw query as an object, read as itty-router reads `url.searchParams`: a repeated key gives
 * an array (a repeat of an empty value replaces it), on a prototype-free object.
 * @param query - The query string, without `?`.
 */
export function toRawQuery(query: string): RawQuery {
  const raw: RawQuery = Object.create(null) as RawQuery;
  for (const [key, value] of new URLSearchParams(query)) {
    const seen = raw[key];
    raw[key] = seen ? ([] as string[]).concat(seen, value) : value;
  }
  return raw;
}

/** A query string as a route reads it: its raw values and its schema's output, both frozen. */
export interface ReadQuery<Q = unknown> {
  readonly raw: RawQuery;
  /** `undefined` for a route without a query schema. */
  readonly parsed: Q;
}

/** Most queries remembered, all routes together; the oldest go first. */
const READ_QUERIES = 4_096;
/** Longest query string remembered (in UTF-16 units): ~8 MiB of keys at most. */
const READ_QUERY_CHARS = 1_024;
const remembered = new Map<string, ReadQuery | ApiError>();

function remember(key: string, read: ReadQuery | ApiError): void {
  if (remembered.size >= READ_QUERIES) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, read);
}
const schemaIds = new WeakMap<z.ZodType, number>();
let schemaCount = 0;

/**
 * Reads a query string for a route: its raw values, and with a schema its validated form (see
 * {@link parseQuery}). A query is a pure function of its text, and popular targets come back, so
 * the recent ones are remembered: one lookup instead of URLSearchParams and zod (~7 µs for the
 * search schema on Node 20, a fifth of an uncached search page). What is handed out is frozen and
 * shared; a handler that needs another query builds a new object. An invalid query is remembered
 * with its 400 error, which is thrown again: zod's failure path (its issues, their messages, the
 * ZodError) cost ~20 µs, the most of any answer's in-process work.
 * @param schema - The route's query schema, if it has one.
 * @param query - The canonical query string, without `?`.
 * @returns The raw and parsed query.
 * @throws {@link ApiError} 400 naming the first invalid parameter.
 */
export function readQuery<S extends z.ZodType>(schema: S | undefined, query: string): ReadQuery<S extends z.ZodType ? z.output<S> : undefined> {
  let id = 0;
  if (schema !== undefined) {
    id = schemaIds.get(schema) ?? 0;
    if (id === 0) schemaIds.set(schema, (id = ++schemaCount));
  }
  const key = `${id} ${query}`;
  let read = remembered.get(key);
  // An ApiError's fields are read-only: the same one answers every request with this query.
  if (read instanceof ApiError) throw read;
  if (read === undefined) {
    const raw = toRawQuery(query);
    let parsed: unknown;
    try {
      parsed = schema === undefined ? undefined : parseQuery(schema, raw);
    } catch (error) {
      if (error instanceof ApiError && query.length <= READ_QUERY_CHARS) remember(key, error);
      throw error;
    }
    read = freezeDeep({ raw, parsed });
    if (query.length <= READ_QUERY_CHARS) remember(key, read);
  }
  return read as ReadQuery<S extends z.ZodType ? z.output<S> : undefined>;
}

/**
 * Parses a path id: a positive integer.
 * @param name - Parameter name, for the message.
 * @param value - The raw path segment.
 * @throws {@link ApiError} 400 when it is not a positive integer.
 */
export function parseId(name: string, value: string | undefined): number {
  const n = value !== undefined && INT.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && Number.isSafeInteger(n))) throw ApiError.badParam(name, 'a positive integer');
  return n;
}
