import { describe, expect, it } from 'vitest';
import { createAccessLineFormatter } from './access-line.js';
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
  ];
  it.each(records)('writes the line formatLogLine writes for %s', (_, record) => {
    const format = createAccessLineFormatter(base);
    const expected = formatLogLine('info', 'request completed', base, { ...record }, record.time);
    expect(format(record)).toBe(expected);
    // Again, from the line start it keeps for the millisecond.
    expect(format(record)).toBe(expected);
    expect(JSON.parse(format(record))).toEqual(JSON.parse(expected));
  });
});
