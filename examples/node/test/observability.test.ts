/** The example's access log line: the request record as JSON, whatever its fields hold. */
import type { RequestRecord } from '@catalogue-api/core';
import { expect, it } from 'vitest';
import { toLogLine } from '../observability.js';

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
  ];
  for (const record of records) {
    const line = toLogLine(record);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ level: 30, ...JSON.parse(JSON.stringify(record)) });
  }
});
