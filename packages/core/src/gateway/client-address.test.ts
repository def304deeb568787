import { describe, expect, it } from 'vitest';
import { itMapsEach } from '../../test/cases.js';
import type { PlainRequest } from '../edge/http.js';
import { createClientIdentifier, toClientId, UNKNOWN_CLIENT, type TrustProxy } from './client-address.js';

describe('toClientId', () => {
  itMapsEach('reads %s as %s', toClientId, [
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['[2001:db8::1]', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['203.0.113.7:5050', '203.0.113.7'],
  ]);

  it.each([undefined, '', 'localhost', '300.1.1.1', '1:2:3', '1::2::3', 'g::1', '1:2:3:4:5:6:7:8:9'])(
    'puts %s in the shared unknown bucket',
    (address) => {
      expect(toClientId(address)).toBe(UNKNOWN_CLIENT);
    },
  );

  it('keeps IPv4-mapped clients apart rather than in one IPv6 prefix', () => {
    expect(toClientId('::ffff:198.51.100.1')).not.toBe(toClientId('::ffff:198.51.100.2'));
  });
});

describe('createClientIdentifier', () => {
  const request = (socket: string, forwarded?: string): PlainRequest => ({
    method: 'GET',
    path: '/v1/anime',
    query: '',
    clientAddress: socket,
    header: (name) => (name === 'x-forwarded-for' ? forwarded : undefined),
  });
  const cases: [string, TrustProxy, string, string | undefined, string][] = [
    ['ignores X-Forwarded-For by default', false, '10.0.0.1', '198.51.100.9', '10.0.0.1'],
    ['trusts one hop', 1, '10.0.0.1', '6.6.6.6, 198.51.100.9', '198.51.100.9'],
    ['trusts two hops', 2, '10.0.0.1', '6.6.6.6, 198.51.100.9, 10.0.0.2', '198.51.100.9'],
    ['stops at the left end when hops run out', 5, '10.0.0.1', '198.51.100.9', '198.51.100.9'],
    ['trusts listed ranges', ['10.0.0.0/8', '::1'], '10.0.0.1', '6.6.6.6, 198.51.100.9, 10.9.9.9', '198.51.100.9'],
    ['does not trust a socket outside the list', ['10.0.0.0/8'], '192.0.2.1', '198.51.100.9', '192.0.2.1'],
    ['matches IPv6 ranges', ['fd00::/8'], 'fd00::1', '2001:db8:5::1', '2001:db8:5:0::/64'],
    ['takes the left-most hop when told every hop is a proxy', true, '10.0.0.1', '198.51.100.9, 10.0.0.2', '198.51.100.9'],
    ['uses the socket when there is no header', 1, '192.0.2.1', undefined, '192.0.2.1'],
    ['puts a garbled forwarded hop in the unknown bucket', 1, '10.0.0.1', 'nonsense', UNKNOWN_CLIENT],
  ];
  it.each(cases)('%s', (_, trust, socket, forwarded, id) => {
    expect(createClientIdentifier(trust)(request(socket, forwarded))).toBe(id);
  });

  it('rejects a malformed trusted range at creation', () => {
    expect(() => createClientIdentifier(['10.0.0.0/33'])).toThrow(TypeError);
    expect(() => createClientIdentifier(['proxy.local'])).toThrow(TypeError);
  });
});
