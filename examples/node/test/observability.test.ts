/** The example's access log: each record as one JSON line, gathered and written in batches. */
import { createAccessLineFormatter, type RequestRecord } from '@catalogue-api/core';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createLineObserver, createLogSink } from '../observability.js';

const toLogLine = createAccessLineFormatter({ pid: process.pid, hostname: hostname() });

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

it('writes each record as pino writes it: its fields, this process and host, and the message', () => {
  // The line itself is core's (createAccessLineFormatter, tested with every field in core); here, whose it is.
  const records: RequestRecord[] = [base, { ...base, path: '/v1/"quoted"\\path\n', route: undefined, client: undefined }, { ...base, status: 429, limited: 'second' }];
  const written: string[] = [];
  const log = createLineObserver((line) => written.push(line));
  for (const record of records) log.observe(record);
  log.flush();
  const pino = (record: RequestRecord) => ({ level: 30, time: record.time, pid: process.pid, hostname: hostname() });
  expect(written).toEqual(records.map((record) => `${JSON.stringify({ ...pino(record), ...record, msg: 'request completed' })}\n`));
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
