/**
 * Access log lines written straight from a request's record: the line `formatLogLine` writes for
 * it, without building an object per request to stringify, joined from pieces that are made once
 * and kept rather than per request.
 * @module
 */
import type { LogBase } from './log-line.js';
import type { RequestRecord } from './observe.js';

// What JSON must escape (RFC 8259 §7), and lone surrogates, which `JSON.stringify` escapes too.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A text as it stands between the quotes of a JSON string: as it is, escaped by `JSON.stringify` only when it must be. */
const inner = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text).slice(1, -1) : text);

/** A JSON string of a text that is usually plain. */
const quoted = (text: string): string => '"' + inner(text) + '"';

// A line is a rope of the pieces it is joined from, which V8 flattens piece by piece when the line is
// written. Joined from ~28 pieces, a line cost ~6,000 instructions on Node 20, half of them in
// joining and flattening (counted by `valgrind --tool=callgrind` in process, answering cache hits).
// The pieces that repeat from request to request are joined once and kept, and a usual line is 8:
// the head, the middle, a duration piece, a piece before the client, the client, a piece before the
// request id, the id and the end. Kept pieces are flat strings, joined by `Array.prototype.join`:
// made by `+` or a template literal they would be ropes themselves, walked again in every line.

/**
 * Pieces joined into one flat string (two or more, none empty: `join` hands a lone piece back as it is).
 * @param pieces - The pieces.
 * @returns The text.
 */
const flat = (...pieces: Array<string | number>): string => pieces.join('');

// pino's message, last on every access log line (as pino-http words it).
const MSG = ',"msg":"request completed"}\n';

// The fraction of a whole number of microseconds, in milliseconds, as JavaScript prints it: none, or
// `.001` to `.999` without trailing zeros.
const FRACTIONS = Array.from({ length: 1000 }, (_, i) => `.${String(i).padStart(3, '0')}`.replace(/\.?0+$/, ''));
// `,"durationMs":0.412`: most answers take under a millisecond.
const SUBMILLISECOND = FRACTIONS.map((fraction) => (fraction ? flat(',"durationMs":0', fraction) : ',"durationMs":0'));
// The milliseconds of a time, three digits each.
const MILLIS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * A duration in milliseconds as a whole number of microseconds, or -1 when it is none (or negative,
 * or 2^31 µs, ~36 min, and more). Below 2^31 µs, a thousandth apart is far more than a double's
 * step: such a number's shortest digits are the microseconds' own.
 * @param ms - The duration.
 * @returns The microseconds, or -1.
 */
function wholeMicros(ms: number): number {
  const micros = Math.round(ms * 1000);
  return micros >= 0 && micros <= 0x7fffffff && micros / 1000 === ms ? micros : -1;
}

/**
 * A duration in milliseconds as `JSON.stringify` prints it. V8 took ~0.17 µs to print a fractional
 * number on Node 20, half of what making the whole log line took then; durations of whole
 * microseconds (what `createObservedApp` measures) are put together from a small integer and a
 * ready fraction instead.
 * @param ms - The duration.
 * @returns Its digits.
 */
export function formatMillis(ms: number): string {
  const micros = wholeMicros(ms);
  if (micros < 0) return JSON.stringify(ms);
  const whole = (micros / 1000) | 0;
  return `${whole}${FRACTIONS[micros - whole * 1000]}`;
}

/**
 * A time in milliseconds since the epoch as `JSON.stringify` prints it. Such a time is past 2^31,
 * a number V8 prints by its slow general path (~0.25 µs on Node 20); it is printed as its seconds,
 * a small integer, and a ready three-digit rest.
 * @param time - The time.
 * @returns Its digits.
 */
function formatTime(time: number): string {
  const second = Math.floor(time / 1000);
  // Whole milliseconds from the first second on, up to 2^31 s; anything else as JSON.stringify prints it.
  return second >= 1 && second < 0x7fffffff && Number.isInteger(time) ? flat(second, MILLIS[time - second * 1000]!) : JSON.stringify(time);
}

// What goes around the client and the request id, by tier and cache outcome: `,"tier":"public","client":"`
// and `","cache":"hit","requestId":"`, at `tierIndex(tier) * 5 + cacheIndex(cache)` (compared, not
// looked up: two map lookups cost ~150 instructions). For a record with both, and no refusal; a
// value of neither list (-1) is written by `rest`.
const tierIndex = (tier: RequestRecord['tier']): number => (tier === 'public' ? 1 : tier === 'server' ? 2 : tier === undefined ? 0 : -1);
const cacheIndex = (cache: RequestRecord['cache']): number =>
  cache === 'hit' ? 1 : cache === 'miss' ? 2 : cache === 'bypass' ? 3 : cache === 'not_modified' ? 4 : cache === undefined ? 0 : -1;
const AROUND_CLIENT: Array<readonly [string, string]> = [];
for (const tier of [undefined, 'public', 'server'] as const) {
  for (const cache of [undefined, 'hit', 'miss', 'bypass', 'not_modified'] as const) {
    AROUND_CLIENT[tierIndex(tier) * 5 + cacheIndex(cache)] = [
      tier ? flat(',"tier":"', tier, '","client":"') : ',"client":"',
      cache ? flat('","cache":"', cache, '","requestId":"') : '","requestId":"',
    ];
  }
}

/** Paths longer than this are not remembered (see `middleOf` below). */
const MIDDLE_PATH_CHARS = 256;
/** Most paths remembered by one formatter; then it starts afresh. */
const MIDDLES_KEPT = 1024;

/** The part of a line from the path to the size, for the route, status and size it was made for. */
interface Middle {
  route: string | undefined;
  status: number;
  bytes: number;
  text: string;
}

/**
 * Makes the access log's line formatter: one request's record as one line, pino's fields first
 * (`level` 30, `time`, `pid`, `hostname`), then the record's fields in their order (absent ones
 * left out), then `msg`: the very text of `formatLogLine('info', 'request completed', base,
 * record, record.time)`, whatever the record holds. Each formatter keeps the start of the line for
 * the current millisecond and method, and the part from the path to the size by path (up to 1,024
 * paths): the lines of a path's cache hits share it, and are spared escaping the path again.
 * @param base - The process id and host name.
 * @returns A function from a record to its line, with its newline.
 * @example
 * ```ts
 * const toLine = createAccessLineFormatter({ pid: process.pid, hostname: hostname() });
 * const app = createObservedApp(catalogue, { observers: [(record) => process.stdout.write(toLine(record))] });
 * ```
 */
export function createAccessLineFormatter(base: LogBase): (record: RequestRecord) => string {
  // pino's fields of this process, on every line: `,"pid":…,"hostname":"…"`.
  const pinoBase = flat(',"pid":', JSON.stringify(base.pid), ',"hostname":', JSON.stringify(base.hostname));
  // `{"level":30,"time":…,"pid":…,"hostname":"…","method":"GET","path":"`, for the current millisecond and method.
  let headTime = NaN;
  let headMethod = '';
  let head = '';
  // `/v1/anime/1","route":"/v1/anime/:id","status":200,"bytes":2712` by path.
  const middles = new Map<string, Middle>();
  const middleOf = (record: RequestRecord): string => {
    const { path, route, status, bytes } = record;
    const known = middles.get(path);
    if (known !== undefined && known.bytes === bytes && known.status === status && known.route === route) return known.text;
    const numbers = flat('","status":', JSON.stringify(status), ',"bytes":', JSON.stringify(bytes));
    const text = route === undefined ? flat(inner(path), numbers) : flat(inner(path), '","route":"', inner(route), numbers);
    if (path.length <= MIDDLE_PATH_CHARS) {
      if (known === undefined && middles.size >= MIDDLES_KEPT) middles.clear();
      middles.set(path, { route, status, bytes, text });
    }
    return text;
  };
  // Clients come back: the last one's text is kept.
  let client = '';
  let clientText = '';

  return (record) => {
    if (record.time !== headTime || record.method !== headMethod) {
      headTime = record.time;
      headMethod = record.method;
      head = flat('{"level":30,"time":', formatTime(headTime), pinoBase, ',"method":"', inner(headMethod), '","path":"');
    }
    const micros = wholeMicros(record.durationMs);
    const duration = micros >= 0 && micros < 1000 ? SUBMILLISECOND[micros]! : ',"durationMs":' + formatMillis(record.durationMs);
    // Joined with `+`, not a template literal: a template converts each piece with a call to ToString,
    // which an optimized `+` of strings skips.
    const line = head + middleOf(record) + duration;
    const requestId = record.requestId;
    const tier = tierIndex(record.tier);
    const cache = cacheIndex(record.cache);
    if (record.client !== undefined && requestId !== undefined && tier >= 0 && cache >= 0 && record.limited === undefined && record.blocked === undefined && record.unavailable === undefined) {
      if (record.client !== client) {
        client = record.client;
        clientText = inner(client);
      }
      const around = AROUND_CLIENT[tier * 5 + cache]!;
      return line + around[0] + clientText + around[1] + inner(requestId) + '"' + MSG;
    }
    return line + rest(record) + MSG;
  };
}

/** The fields of a record after its duration, each as `formatLogLine` writes it, absent ones left out. */
function rest(record: RequestRecord): string {
  let text = '';
  if (record.tier !== undefined) text += ',"tier":' + quoted(record.tier);
  if (record.client !== undefined) text += ',"client":' + quoted(record.client);
  if (record.cache !== undefined) text += ',"cache":' + quoted(record.cache);
  if (record.limited !== undefined) text += ',"limited":' + quoted(record.limited);
  if (record.blocked !== undefined) text += ',"blocked":' + JSON.stringify(record.blocked);
  if (record.unavailable !== undefined) text += ',"unavailable":' + JSON.stringify(record.unavailable);
  if (record.requestId !== undefined) text += ',"requestId":' + quoted(record.requestId);
  return text;
}
