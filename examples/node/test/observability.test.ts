/** The example's access log line: the request record as JSON, whatever its fields hold. */
import type { RequestRecord } from '@catalogue-api/core';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createLineObserver, createLogSink, formatMillis, toLogLine } from '../observability.js';

const base: RequestRecord = {
  time: 1_795_459_006_414,
  method: 'GET',
  path: '/v1/anime/1',
  route: '/v1/anime/:id',
  status: 200,
  bytes: 2712,
  durationMs: 0.412,
  tier: 'public',
  client: '13cda0deb4962f4c',
  cache: 'hit',
  limited: undefined,
  blocked: undefined,
  unavailable: undefined,
  requestId: '006fb10a-8bb5-43bc-9202-cb12afa2d680',
};

it('writes the record as one line of JSON that parses back to it, absent fields left out', () => {
  const records: RequestRecord[] = [
    base,
    { ...base, path: '/v1/"quoted"\\path\n', route: undefined, tier: undefined, cache: undefined, client: undefined, requestId: undefined },
    { ...base, status: 429, limited: 'second', cache: undefined },
    { ...base, status: 403, blocked: true },
    { ...base, status: 503, unavailable: true },
    // Another millisecond; paths with a control character, a lone surrogate, a letter JSON keeps as it is.
    { ...base, time: base.time + 1, path: '/v1/anime/\u001f' },
    { ...base, path: '/v1/anime/\ud800' },
    { ...base, path: '/v1/anime/é' },
  ];
  for (const record of records) {
    const line = toLogLine(record);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    // pino's fields (https://getpino.io/#/docs/api?id=logger): level, time, pid, hostname, the record, msg.
    const pino = { level: 30, time: record.time, pid: process.pid, hostname: hostname() };
    expect(JSON.parse(line)).toEqual({ ...pino, ...JSON.parse(JSON.stringify(record)), msg: 'request completed' });
    // Character for character what JSON.stringify writes (the record's fields are in the line's order).
    expect(line).toBe(`${JSON.stringify({ ...pino, ...record, msg: 'request completed' })}\n`);
  }
});

it('writes the same JSON whichever of its ready-made pieces a line is joined from', () => {
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
    { status: 429, limited: 'minute', cache: undefined },
    { time: base.time + 2, path: '/v1/anime?q="x"' },
    { time: base.time + 2, route: '/v1/manga/:id', status: 201 },
    // Times printed from their seconds and the rest, and times printed as they are.
    ...[0, 7, 999, 1000, 1001, 60_042, 1_000_000_000_007, 2 ** 31 * 1000 - 1, 2 ** 31 * 1000 + 5, 1.5, 1234.5, -1].map((time) => ({ time })),
    // One path, answered anew with another size, status or route.
    { bytes: 2713 },
    { status: 404, bytes: 2712 },
    { route: '/v1/anime/:id/full' },
  );
  // Twice each, and in turn: the pieces made for one record must not leak into the next.
  for (const round of [1, 2]) {
    for (const variant of variants) {
      const record = { ...base, ...variant };
      const pino = { level: 30, time: record.time, pid: process.pid, hostname: hostname() };
      expect(toLogLine(record), `round ${round}: ${JSON.stringify(variant)}`).toBe(`${JSON.stringify({ ...pino, ...record, msg: 'request completed' })}\n`);
    }
  }
});

it('prints a duration as JavaScript prints it', () => {
  // Every whole number of microseconds up to 2 s, then samples up to 2^31 µs, then what is printed the usual way.
  const samples = Array.from({ length: 2_000_001 }, (_, micros) => micros / 1000);
  for (let micros = 2_000_000; micros < 2 ** 31; micros += 999_983) samples.push(micros / 1000);
  samples.push(2 ** 31 / 1000, 1 / 3, 0.0004, 1e-7, -0, -1, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 123.4567);
  for (const ms of samples) if (formatMillis(ms) !== String(ms)) expect(formatMillis(ms)).toBe(String(ms));
});

it('writes every line once, whole and in order, in few writes, and has written them all when end() resolves', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-sink-'));
  const fd = openSync(join(dir, 'access.log'), 'w');
  try {
    const sink = createLogSink({ fd, batchBytes: 4096 });
    // Some paths hold characters of two and three bytes, one is longer than a batch holds.
    const path = (i: number) => (i === 2500 ? `/v1/${'x'.repeat(3000)}` : `/v1/anime/${'é'.repeat(i % 5)}${'ナ'.repeat(i % 3)}`);
    const lines = Array.from({ length: 5000 }, (_, i) => `${toLogLine({ ...base, time: i, path: path(i) })}`);
    for (const [i, line] of lines.entries()) {
      sink.write(line);
      // Some lines wait for the interval, some leave with a full batch.
      if (i % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await sink.end();
    expect(readFileSync(join(dir, 'access.log'), 'utf8')).toBe(lines.join(''));
  } finally {
    // The sink closed the descriptor at its end.
    rmSync(dir, { recursive: true });
  }
});

it('drops and counts the lines a reader is too far behind to take, rather than keeping them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-sink-'));
  const fd = openSync(join(dir, 'access.log'), 'w');
  try {
    let dropped = 0;
    // Nothing is written before the first write of the 4 KB batches comes back, so most are over the bound.
    const sink = createLogSink({ fd, batchBytes: 4096, maxBytes: 8192, onDrop: (lines) => (dropped += lines) });
    const line = toLogLine(base);
    const total = 2000;
    for (let i = 0; i < total; i++) sink.write(line);
    await sink.end();
    const written = readFileSync(join(dir, 'access.log'), 'utf8');
    expect(dropped).toBeGreaterThan(0);
    expect(written.length % line.length).toBe(0);
    expect(written.length / line.length + dropped).toBe(total);
  } finally {
    // The sink closed the descriptor at its end.
    rmSync(dir, { recursive: true });
  }
});

it('writes each record line after the answers of its turn, in order, and at once on flush', async () => {
  const written: string[] = [];
  const log = createLineObserver((line) => written.push(line));
  const paths = () => written.map((line) => JSON.parse(line).path);
  log.observe({ ...base, path: '/a' });
  log.observe({ ...base, path: '/b' });
  expect(written).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(paths()).toEqual(['/a', '/b']);
  log.observe({ ...base, path: '/c' });
  log.flush();
  expect(paths()).toEqual(['/a', '/b', '/c']);
  // Nothing is written twice when the turn ends.
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toHaveLength(3);
});

it('goes on with the other lines when writing one throws', async () => {
  const written: string[] = [];
  const log = createLineObserver((line) => {
    if (line.includes('/bad')) throw new Error('closed');
    written.push(line);
  });
  log.observe({ ...base, path: '/bad' });
  log.observe({ ...base, path: '/good' });
  await new Promise((resolve) => setImmediate(resolve));
  expect(written.map((line) => JSON.parse(line).path)).toEqual(['/good']);
});
