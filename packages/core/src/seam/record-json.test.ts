import { describe, expect, it } from 'vitest';
import { DEFAULT_CDN_URL, resolveImagePaths } from './image-host.js';
import { createRecordSerializer, extendRecord, markStoredRecord, parseStoredRecord } from './record-json.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const expected = (body: unknown) => JSON.stringify(resolveImagePaths(body, DEFAULT_CDN_URL));

function stored<T extends object>(record: T): T {
  markStoredRecord(record);
  return record;
}

/** A record as a store reads it back: the bytes of its JSON text, inside a larger message and off a word boundary. */
function fromStore(record: unknown): object {
  const text = new TextEncoder().encode(`#${JSON.stringify(record)}#`);
  return parseStoredRecord(text.subarray(1, text.length - 1)) as object;
}

describe('createRecordSerializer', () => {
  const serialize = createRecordSerializer();
  const a = stored({ mal_id: 1, title: 'Ōkami „quoted" \\ ☃', images: { jpg: { image_url: '/s/a.jpg' } }, gone: undefined, list: ['/s/x', 1, null] });
  const b = stored({ mal_id: 2, title: 'Two', score: -0, big: 1e21, nan: Number.NaN });
  const shapes: Record<string, unknown> = {
    'a page of records': { data: [a, b], pagination: { last_visible_page: 1, has_next_page: false, items: { count: 2 } } },
    'one record': { data: a },
    'a record alone': a,
    'an array of records': [a, b],
    'records mixed with other values': { data: [a, { mal_id: 3, url: '/s/c.jpg' }, null, 4, b] },
    'members to leave out or write as null': { skip: undefined, fn: () => 1, data: [a], tail: 'Ünïcödé ✓ /s/not-a-path', nested: { path: '/s/n.jpg' } },
    'an extended record': { data: extendRecord(a, { relations: [{ entry: [{ url: '/s/r' }] }], none: undefined, theme: { openings: [] } }) },
    'an extension that replaces a member': { data: extendRecord(b, { title: 'Replaced', more: 1 }) },
    'an extension of an empty record': { data: extendRecord(stored({}), { one: 1 }) },
    'records read back from a store': { data: [fromStore({ mal_id: 7, title: 'Seven ☃ "q"' }), fromStore({ mal_id: 8, images: { jpg: { image_url: '/s/8.jpg' } } })] },
    'a list read back from a store': { data: fromStore([{ mal_id: 1, title: 'One' }, { mal_id: 2, title: '/s/two' }]) },
    'an extension of a record read back from a store': { data: extendRecord(fromStore({ mal_id: 9, title: 'Nine' }), { relations: [] }) },
    'a record that is not stored': { data: [{ mal_id: 9, images: { jpg: { image_url: '/s/z.jpg' } } }] },
    'an empty envelope': {},
    'a string': 'just text',
    'null': null,
  };
  for (const [name, body] of Object.entries(shapes)) {
    it(`writes ${name} exactly as JSON.stringify with image paths resolved`, () => {
      expect(decode(serialize(body).bytes)).toBe(expected(body));
    });
  }

  it('tags equal bodies alike and different bodies differently', () => {
    const page = (records: object[]) => serialize({ data: records, pagination: { count: records.length } });
    expect(page([a, b]).etag).toBe(page([a, b]).etag);
    expect(page([a, b]).etag).not.toBe(page([b, a]).etag);
    expect(page([a]).etag).not.toBe(page([a, b]).etag);
    expect(page([a, b]).etag).toMatch(/^"[0-9a-f]+-[0-9a-f]{16}"$/);
  });

  it('forgets a record’s JSON when the record is written again', () => {
    const record = stored({ mal_id: 5, score: 7 });
    const before = serialize({ data: [record] });
    record.score = 8;
    // Still the kept text until the store writes it again: records are never changed in place.
    markStoredRecord(record);
    const after = serialize({ data: [record] });
    expect(decode(after.bytes)).toBe('{"data":[{"mal_id":5,"score":8}]}');
    expect(after.etag).not.toBe(before.etag);
  });

  it('answers a record read back from a store as its bytes, resolving image paths for each host', () => {
    const other = createRecordSerializer('https://img.example');
    const plain = fromStore({ mal_id: 1, title: 'One' });
    const withPath = fromStore({ image: '/s/p.jpg' });
    expect(decode(serialize(plain).bytes)).toBe('{"mal_id":1,"title":"One"}');
    expect(decode(other(plain).bytes)).toBe('{"mal_id":1,"title":"One"}');
    expect(decode(serialize(withPath).bytes)).toBe(`{"image":"${DEFAULT_CDN_URL}/images/s/p.jpg"}`);
    expect(decode(other(withPath).bytes)).toBe('{"image":"https://img.example/images/s/p.jpg"}');
    // Tagged as the same record written by the serializer: by its bytes alone.
    const written = stored({ mal_id: 1, title: 'One' });
    expect(serialize({ data: [plain] }).etag).toBe(serialize({ data: [written] }).etag);
    expect(parseStoredRecord(new TextEncoder().encode('12'))).toBe(12);
  });

  it('resolves against each serializer’s own image host', () => {
    const other = createRecordSerializer('https://img.example/');
    const record = stored({ image: '/s/p.jpg' });
    expect(decode(serialize({ data: record }).bytes)).toBe(`{"data":{"image":"${DEFAULT_CDN_URL}/images/s/p.jpg"}}`);
    expect(decode(other({ data: record }).bytes)).toBe('{"data":{"image":"https://img.example/images/s/p.jpg"}}');
  });

  it('hands out one body for the same pieces, and a new one when a record or the envelope differs', () => {
    const record = stored({ mal_id: 6, score: 1 });
    const page = (count: number) => serialize({ data: [record, b], pagination: { count } });
    const first = page(2);
    expect(page(2)).toBe(first);
    expect(page(3).bytes).not.toBe(first.bytes);
    record.score = 2;
    markStoredRecord(record);
    const changed = page(2);
    expect(changed.etag).not.toBe(first.etag);
    expect(decode(changed.bytes)).toBe(expected({ data: [record, b], pagination: { count: 2 } }));
    // Long strings in the envelope are measured in UTF-8 for the tag, as they are written.
    const wide = serialize({ data: [b], note: 'Ōkami ☃ 😀'.repeat(50) });
    expect(wide.bytes.byteLength).toBe(new TextEncoder().encode(expected({ data: [b], note: 'Ōkami ☃ 😀'.repeat(50) })).byteLength);
    expect(wide.etag.slice(1, wide.etag.indexOf('-'))).toBe(wide.bytes.byteLength.toString(16));
  });
});
