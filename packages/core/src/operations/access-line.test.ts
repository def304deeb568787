import { describe, expect, it } from 'vitest';
import { createAccessLineFormatter, formatMillis } from './access-line.js';
import { formatLogLine } from './log-line.js';
import type { RequestRecord } from './observe.js';

const base = { pid: 4242, hostname: 'host "a"' };
const hit: RequestRecord = {
  time: 1_795_871_153_282,
  method: 'GET',
  path: '/v1/anime',
  route: '/v1/anime',
  status: 200,
  bytes: 23_575,
  durationMs: 0.284,
  tier: 'public',
  client: '0c60e06cab2aa03b',
  cache: 'hit',
  limited: undefined,
  blocked: undefined,
  unavailable: undefined,
  requestId: 'ce91c76d-0a70-42a9-91b7-b1c55bce89f4',
};

describe('createAccessLineFormatter', () => {
  const records: Array<[string, RequestRecord]> = [
    ['a cache hit', hit],
    ['a 404 without a route, tier or request id', { ...hit, route: undefined, status: 404, tier: undefined, cache: undefined, requestId: undefined }],
    ['a 429 of a Server Key client', { ...hit, status: 429, tier: 'server', client: 'key:abc', limited: 'minute' }],
    ['a blocked client and a lost back end', { ...hit, status: 403, blocked: true, unavailable: true }],
    ['a path and client JSON must escape', { ...hit, path: '/v1/"a"\\b\n\u0001', client: '2001:db8::1', route: undefined }],
    ['a lone surrogate in the path', { ...hit, path: '/v1/\ud800x' }],
    ['a long duration and a method of its own', { ...hit, method: 'PROPFIND', durationMs: 1234.5, time: 1_000 }],
    ['a client that is not blocked', { ...hit, blocked: false, unavailable: false }],
    ['a route, client and request id JSON must escape', { ...hit, route: '/v1/"r"', client: 'c\\', requestId: 'a"b' }],
    ['a time and duration that are not numbers JSON can hold', { ...hit, time: Number.NaN, durationMs: Number.POSITIVE_INFINITY }],
  ];
  it.each(records)('writes the line formatLogLine writes for %s', (_, record) => {
    const format = createAccessLineFormatter(base);
    const expected = formatLogLine('info', 'request completed', base, { ...record }, record.time);
    expect(format(record)).toBe(expected);
    // Again, from the line start it keeps for the millisecond.
    expect(format(record)).toBe(expected);
    expect(JSON.parse(format(record))).toEqual(JSON.parse(expected));
  });

  it('writes the same line whichever of its kept pieces it is joined from', () => {
    const variants: Array<Partial<RequestRecord>> = [];
    for (const tier of [undefined, 'public', 'server'] as const) {
      for (const cache of [undefined, 'hit', 'miss', 'bypass', 'not_modified'] as const) {
        for (const durationMs of [0, 0.001, 0.5, 0.999, 1, 12.345, 1 / 3]) variants.push({ tier, cache, durationMs });
      }
    }
    variants.push(
      { method: 'HEAD' },
      { method: 'POST', route: undefined, status: 405 },
      { status: 304, bytes: 0, cache: 'not_modified' },
      { status: 404, route: undefined },
      { client: undefined },
      { requestId: undefined },
      { client: 'key:0123456789ab', tier: 'server' },
      { client: '2001:db8::1' },
      { status: 429, limited: 'minute', cache: undefined },
      { time: hit.time + 2, path: '/v1/anime?q="x"' },
      { time: hit.time + 2, route: '/v1/manga/:id', status: 201 },
      // Times printed from their seconds and the rest, and times printed as they are.
      ...[0, 7, 999, 1000, 1001, 60_042, 1_000_000_000_007, 2 ** 31 * 1000 - 1, 2 ** 31 * 1000 + 5, 1.5, 1234.5, -1].map((time) => ({ time })),
      // One path, answered anew with another size, status or route.
      { bytes: 23_576 },
      { status: 404, bytes: 23_575 },
      { route: '/v1/anime/:id/full' },
    );
    // One formatter, twice each and in turn: the pieces kept for one record must not leak into the next.
    const format = createAccessLineFormatter(base);
    for (const round of [1, 2]) {
      for (const variant of variants) {
        const record = { ...hit, ...variant };
        const expected = formatLogLine('info', 'request completed', base, { ...record }, record.time);
        expect(format(record), `round ${round}: ${JSON.stringify(variant)}`).toBe(expected);
      }
    }
  });
});

it('prints a duration as JSON.stringify prints it', () => {
  // Every whole number of microseconds up to 2 s, then samples up to 2^31 µs, then what is printed the usual way.
  const samples = Array.from({ length: 2_000_001 }, (_, micros) => micros / 1000);
  for (let micros = 2_000_000; micros < 2 ** 31; micros += 999_983) samples.push(micros / 1000);
  samples.push(2 ** 31 / 1000, 1 / 3, 0.0004, 1e-7, -0, -1, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 123.4567);
  for (const ms of samples) if (formatMillis(ms) !== JSON.stringify(ms)) expect(formatMillis(ms)).toBe(JSON.stringify(ms));
});
