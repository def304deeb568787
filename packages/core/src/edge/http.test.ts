/**
 * `toWebResponse`: large string bodies go out as remembered UTF-8 bytes; the bytes must always be
 * those of the body given, whatever the memo holds (same length, repeats, eviction).
 */
import { describe, expect, it } from 'vitest';
import { fromWebRequest, toWebResponse } from './http.js';

const json = { 'content-type': 'application/json; charset=utf-8' };

describe('toWebResponse', () => {
  it('sends small and large bodies byte-exact, also when they repeat or share a length', async () => {
    const bodies = ['{"a":1}', `"${'ナルト'.repeat(3000)}"`, `"${'ルトナ'.repeat(3000)}"`, `"${'x'.repeat(9000)}"`, `"${'é'.repeat(5000)}"`];
    for (let round = 0; round < 2; round++) {
      for (const body of bodies) {
        const response = toWebResponse({ status: 200, headers: json, body });
        expect(response.headers.get('content-type')).toBe(json['content-type']);
        expect(await response.text()).toBe(body);
      }
    }
  });

  it('stays correct past the memo bound', async () => {
    // 40 distinct bodies of ~300 KB each: more than the 8 MiB the memo keeps.
    for (let i = 0; i < 40; i++) {
      const body = `${i}:${'ナ'.repeat(100_000)}`;
      expect(await toWebResponse({ status: 200, headers: json, body }).text()).toBe(body);
    }
    expect(await toWebResponse({ status: 200, headers: json, body: `"${'ナルト'.repeat(3000)}"` }).text()).toBe(`"${'ナルト'.repeat(3000)}"`);
  });

  it('answers each use of shared (frozen) headers with a Response of its own: its extra header, the body given', async () => {
    const shared = Object.freeze({ ...json, etag: '"1"' });
    const bodies = [`"${'ナルト'.repeat(3000)}"`, `"${'ナルト'.repeat(3000)}"`, `"${'ナルト'.repeat(3000)}"`, '{"b":2}', '{"b":2}'];
    const responses = [
      toWebResponse({ status: 200, headers: shared, body: bodies[0]! }, ['x-request-id', 'one']),
      toWebResponse({ status: 200, headers: shared, body: bodies[1]! }, ['x-request-id', 'two']),
      toWebResponse({ status: 200, headers: shared, body: bodies[2]! }, ['x-request-id', 'three']),
      toWebResponse({ status: 200, headers: shared, body: bodies[3]! }),
      toWebResponse({ status: 404, headers: shared, body: bodies[4]! }),
    ];
    expect(responses.map((response) => response.headers.get('x-request-id'))).toEqual(['one', 'two', 'three', null, null]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 404]);
    expect(responses.map((response) => response.headers.get('etag'))).toEqual(['"1"', '"1"', '"1"', '"1"', '"1"']);
    expect(await Promise.all(responses.map((response) => response.text()))).toEqual(bodies);
  });

  it('adds the extra header to an answer of its own headers', () => {
    const response = toWebResponse({ status: 200, headers: { ...json }, body: '{}' }, ['x-request-id', 'abc']);
    expect([response.headers.get('x-request-id'), response.headers.get('content-type')]).toEqual(['abc', json['content-type']]);
  });

  it('keeps status, headers and a null body', async () => {
    const response = toWebResponse({ status: 304, headers: { etag: '"x"' }, body: null });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe('"x"');
    expect(response.body).toBeNull();
  });
});

describe('fromWebRequest', () => {
  it('splits path and query without decoding, and reads the client address only when asked', () => {
    let lookups = 0;
    const request = fromWebRequest(new Request('http://example.test/v1/anime?q=a%20b&sfw#frag', { headers: { 'X-Server-Key': 'k' } }), {
      get clientAddress() {
        lookups++;
        return '203.0.113.9';
      },
    });
    expect([request.method, request.path, request.query, request.header('x-server-key')]).toEqual(['GET', '/v1/anime', 'q=a%20b&sfw', 'k']);
    expect(lookups).toBe(0);
    expect(request.clientAddress).toBe('203.0.113.9');
    expect(lookups).toBe(1);
    expect(fromWebRequest(new Request('http://example.test/')).clientAddress).toBeUndefined();
  });
});
