import { describe, expect, it } from 'vitest';
import { createUrlFileDrop, formatDropCursor, parseDropCursor, parseDroppedText, type DroppedFile, type DroppedRecord } from '../../src/upstream/file-drop.js';

/** A fetch over a map of files, answering conditional GETs by ETag as a static host does. */
function host(files: Map<string, { body: string; etag?: string }>) {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    requests.push({ url, headers });
    const file = files.get(url);
    if (!file) return new Response('missing', { status: 404 });
    if (file.etag && headers['if-none-match'] === file.etag) return new Response(null, { status: 304, headers: { etag: file.etag } });
    return new Response(file.body, { status: 200, headers: file.etag ? { etag: file.etag } : {} });
  };
  return { fetch, requests };
}

async function collect(file: DroppedFile): Promise<DroppedRecord[]> {
  const out: DroppedRecord[] = [];
  for await (const record of file.records()) out.push(record);
  return out;
}

describe('createUrlFileDrop', () => {
  it('applies each file once per version, with conditional GETs, through a cursor the caller keeps', async () => {
    const files = new Map([
      ['https://drop.example/a.ndjson', { body: '{"mal_id":1}\n{"mal_id":2}\n', etag: '"a1"' }],
      ['https://drop.example/b.ndjson', { body: '{"mal_id":3}\nnot json\n' }],
    ]);
    const { fetch, requests } = host(files);
    const applied: Array<{ name: string; records: DroppedRecord[] }> = [];
    const drop = createUrlFileDrop({ urls: [...files.keys()], fetch, apply: async (file) => void applied.push({ name: file.name, records: await collect(file) }) });

    const first = await drop.check(undefined);
    expect(first.applied).toEqual(['https://drop.example/a.ndjson', 'https://drop.example/b.ndjson']);
    expect(applied[0]!.records).toEqual([
      { position: 'line 1', value: { mal_id: 1 } },
      { position: 'line 2', value: { mal_id: 2 } },
    ]);
    expect(applied[1]!.records[1]).toMatchObject({ position: 'line 2', error: expect.stringMatching(/not JSON/) });
    expect(parseDropCursor(first.cursor)['https://drop.example/a.ndjson']).toBe('"a1"');
    expect(parseDropCursor(first.cursor)['https://drop.example/b.ndjson']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(requests[0]!.headers['user-agent']).toMatch(/^catalogue-api\//);

    const second = await drop.check(first.cursor);
    expect(second).toMatchObject({ applied: [], unchanged: ['https://drop.example/a.ndjson', 'https://drop.example/b.ndjson'] });
    expect(requests[2]!.headers['if-none-match']).toBe('"a1"');
    expect(applied).toHaveLength(2);

    files.set('https://drop.example/b.ndjson', { body: '{"mal_id":4}\n' });
    const third = await drop.check(second.cursor);
    expect(third.applied).toEqual(['https://drop.example/b.ndjson']);
    expect(applied.at(-1)!.records).toEqual([{ position: 'line 1', value: { mal_id: 4 } }]);
  });

  it('leaves a file whose apply failed, or that could not be read, for the next check', async () => {
    const files = new Map([['https://drop.example/a.ndjson', { body: '{"mal_id":1}\n', etag: '"a1"' }]]);
    const { fetch } = host(files);
    let fail = true;
    const drop = createUrlFileDrop({
      urls: ['https://drop.example/a.ndjson', 'https://drop.example/missing.ndjson'],
      fetch,
      apply: async () => {
        if (fail) throw new Error('store down');
      },
    });
    const first = await drop.check();
    expect(first.failed).toEqual([
      { name: 'https://drop.example/a.ndjson', reason: 'store down' },
      { name: 'https://drop.example/missing.ndjson', reason: '404' },
    ]);
    expect(parseDropCursor(first.cursor)).toEqual({});
    fail = false;
    expect((await drop.check(first.cursor)).applied).toEqual(['https://drop.example/a.ndjson']);
  });

  it('refuses a file larger than maxBytes, and a URL that is not http(s)', async () => {
    const { fetch } = host(new Map([['https://drop.example/big.ndjson', { body: '{"mal_id":1}\n'.repeat(100) }]]));
    const drop = createUrlFileDrop({ urls: ['https://drop.example/big.ndjson'], fetch, maxBytes: 64, apply: async () => undefined });
    expect((await drop.check()).failed[0]!.reason).toMatch(/64/);
    expect(() => createUrlFileDrop({ urls: ['file:///etc/passwd'], apply: async () => undefined })).toThrow(RangeError);
  });
});

describe('file drop helpers', () => {
  it('reads the importer’s formats: NDJSON, a JSON array, { data: [...] } and one record', () => {
    expect([...parseDroppedText('{"a":1}\n\n{"a":2}')]).toEqual([
      { position: 'line 1', value: { a: 1 } },
      { position: 'line 3', value: { a: 2 } },
    ]);
    expect([...parseDroppedText('[{"a":1},{"a":2}]')]).toHaveLength(2);
    expect([...parseDroppedText('{"data":[{"a":1}]}')]).toEqual([{ position: 'index 0', value: { a: 1 } }]);
    expect([...parseDroppedText('{"data":{"a":1}}')]).toEqual([{ position: 'line 1', value: { a: 1 } }]);
  });

  it('round-trips a cursor and reads a broken one as empty', () => {
    expect(parseDropCursor(formatDropCursor({ b: '2', a: '1' }))).toEqual({ a: '1', b: '2' });
    expect(formatDropCursor({ b: '2', a: '1' })).toBe('{"a":"1","b":"2"}');
    expect(parseDropCursor('not json')).toEqual({});
    expect(parseDropCursor('[1]')).toEqual({});
  });
});
