/**
 * The canonical request target: what the WHATWG URL parser makes of a path (RFC 3986 §5.2.4 dot
 * segments, `%2e` in any case, `\`), without trailing slashes, decided without `new URL` for
 * plain paths.
 */
import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../../test/cases.js';
import type { PlainRequest } from './http.js';
import { toCanonicalPath, toCanonicalRequest } from './request-target.js';

const request = (path: string, query = ''): PlainRequest => ({ method: 'GET', path, query, header: () => undefined, clientAddress: '192.0.2.1' });

/** Paths and their canonical forms. */
const CANONICAL: ReadonlyArray<readonly [path: string, canonical: string]> = [
  ['/v1/top/anime', '/v1/top/anime'],
  ['/v1/x/../top/anime', '/v1/top/anime'],
  ['/v1/./top/anime', '/v1/top/anime'],
  ['/v1/%2e/top/anime', '/v1/top/anime'],
  ['/v1/%2E/top/anime', '/v1/top/anime'],
  ['/v1/x/%2e%2E/top/anime', '/v1/top/anime'],
  ['/v1/x/.%2e/top/anime', '/v1/top/anime'],
  ['/v1\\top\\anime', '/v1/top/anime'],
  ['/v1/top/anime/', '/v1/top/anime'],
  ['/v1/top/anime///', '/v1/top/anime'],
  ['/v1/top/anime/.', '/v1/top/anime'],
  ['/v1/anime/20/./full', '/v1/anime/20/full'],
  ['/../../v1/anime', '/v1/anime'],
  ['/', '/'],
  ['//', '/'],
  ['/v1/..', '/'],
  // Kept as they are, by the URL parser and so by every stage.
  ['/v1/%252e/top', '/v1/%252e/top'],
  ['/v1//top/anime', '/v1//top/anime'],
  ['//v1/anime', '//v1/anime'],
  ['/v1/%74op/anime', '/v1/%74op/anime'],
  ['/v1/.well-known', '/v1/.well-known'],
  ['/v1/anime/a b', '/v1/anime/a%20b'],
  ['/v1/anime#x', '/v1/anime'],
];

describe('toCanonicalPath', () => {
  itMapsEach('resolves %s to %s', toCanonicalPath, CANONICAL);

  it.each(CANONICAL.map(([, canonical]) => canonical))('keeps the canonical %s as it is', (canonical) => {
    expect(toCanonicalPath(canonical)).toBe(canonical);
  });

  it.each(['*', 'example.org:443', 'http://[::1', 'http://example.org/v1/anime', ''])('has no canonical form of %j (not a path)', (path) => {
    expect(toCanonicalPath(path)).toBeUndefined();
  });
});

describe('toCanonicalRequest', () => {
  it('returns a plain request as it is', () => {
    const plain = request('/v1/anime', 'q=naruto&limit=5');
    expect(toCanonicalRequest(plain)).toBe(plain);
  });

  it('resolves the path and the query together, keeping method, headers and address', () => {
    const resolved = toCanonicalRequest(request('/v1/x/../anime/', 'q=a#fragment'))!;
    expect(resolved).toMatchObject({ method: 'GET', path: '/v1/anime', query: 'q=a', clientAddress: '192.0.2.1' });
  });

  it('reads the client address only when asked (a host may compute it on demand)', () => {
    let reads = 0;
    const lazy: PlainRequest = { ...request('/v1/./anime'), get clientAddress() { return (reads++, '192.0.2.9'); } };
    const resolved = toCanonicalRequest(lazy)!;
    expect(reads).toBe(0);
    expect(resolved.clientAddress).toBe('192.0.2.9');
  });
});
