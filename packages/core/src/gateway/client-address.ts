/**
 * Which client a public request counts against: its IP address, with IPv4-mapped IPv6 turned into
 * IPv4 and other IPv6 grouped by /64, taken from `X-Forwarded-For` only through trusted proxies.
 * @module
 */
import type { PlainRequest } from '../edge/http.js';

/**
 * Which proxies in front of the API may set `X-Forwarded-For`.
 * - `false` (default): none; the socket address is the client.
 * - a number `n`: the `n` hops nearest the API are proxies (e.g. `1` behind one load balancer).
 * - a list of addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`): hops in the list are proxies.
 * - a function: says whether an address is a proxy.
 * - `true`: every hop is a proxy, so the left-most `X-Forwarded-For` entry is the client (only
 *   safe when the edge proxy overwrites the header).
 */
export type TrustProxy = boolean | number | readonly string[] | ((address: string) => boolean);

/** The id of requests whose address is missing or unreadable; they share one bucket, never a pass. */
export const UNKNOWN_CLIENT = 'unknown';

type Ip = { v: 4 | 6; n: bigint };

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIpv4(text: string): bigint | null {
  const n = parseIpv4Number(text);
  return n === null ? null : BigInt(n);
}

// Plain numbers rather than BigInt: this runs for every public request.
function parseIpv4Number(text: string): number | null {
  const m = IPV4.exec(text);
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = Number(m[i]);
    if (part > 255) return null;
    n = n * 256 + part;
  }
  return n;
}

function parseIpv6(text: string): bigint | null {
  let tail: bigint | null = null;
  let body = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // An embedded IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
    tail = parseIpv4(text.slice(lastColon + 1));
    if (tail === null) return null;
    body = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let n = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    n = (n << 16n) | BigInt(parseInt(group, 16));
  }
  if (tail !== null) n = (n & ~0xffffffffn) | tail;
  return n;
}

/**
 * Reads an IP address: IPv4, IPv6 (brackets and zone ids allowed), or IPv4 with a port as some
 * proxies write it. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) comes back as IPv4.
 */
function parseIp(raw: string): Ip | null {
  let text = raw.trim();
  if (text.startsWith('[')) text = text.slice(1, text.indexOf(']') < 0 ? undefined : text.indexOf(']'));
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const colon = text.indexOf(':');
  if (colon < 0 || (text.indexOf(':', colon + 1) < 0 && text.includes('.'))) {
    const v4 = parseIpv4(colon < 0 ? text : text.slice(0, colon));
    return v4 === null ? null : { v: 4, n: v4 };
  }
  const v6 = parseIpv6(text);
  if (v6 === null) return null;
  // Mapped IPv4 must count as that IPv4 address, not as one shared /64 (express-rate-limit CVE-2026-30827).
  if (v6 >> 32n === 0xffffn) return { v: 4, n: v6 & 0xffffffffn };
  return { v: 6, n: v6 };
}

function formatIpv4(n: bigint): string {
  return `${(n >> 24n) & 255n}.${(n >> 16n) & 255n}.${(n >> 8n) & 255n}.${n & 255n}`;
}

/**
 * The rate-limit identity of an address: IPv4 as is, IPv6 as its /64 prefix (one household or
 * host usually holds a whole /64, so counting single IPv6 addresses would be trivially evaded).
 * @param address - An IP address.
 * @returns `a.b.c.d`, `xxxx:xxxx:xxxx:xxxx::/64`, or {@link UNKNOWN_CLIENT}.
 */
export function toClientId(address: string | undefined): string {
  if (!address) return UNKNOWN_CLIENT;
  // Fast paths for what sockets report: plain IPv4, and IPv4 on a dual-stack socket.
  if (parseIpv4Number(address) !== null) return address;
  if (address.startsWith('::ffff:') && parseIpv4Number(address.slice(7)) !== null) return address.slice(7);
  const ip = parseIp(address);
  if (!ip) return UNKNOWN_CLIENT;
  if (ip.v === 4) return formatIpv4(ip.n);
  const groups: string[] = [];
  for (let shift = 112n; shift >= 64n; shift -= 16n) groups.push(((ip.n >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}

/**
 * Compiles a {@link TrustProxy} setting.
 * @param trust - The setting.
 * @returns A boolean or hop count as given, or a test of an address against the listed ranges.
 * @throws TypeError when an entry is not an IP address or CIDR range.
 */
export function compileTrust(trust: TrustProxy): ((address: string) => boolean) | number | boolean {
  if (typeof trust === 'boolean' || typeof trust === 'number' || typeof trust === 'function') return trust;
  const ranges = trust.map((entry) => {
    const slash = entry.indexOf('/');
    const ip = parseIp(slash < 0 ? entry : entry.slice(0, slash));
    if (!ip) throw new TypeError(`trustProxy: ${entry} is not an IP address or CIDR range`);
    const width = ip.v === 4 ? 32 : 128;
    const bits = slash < 0 ? width : Number(entry.slice(slash + 1));
    if (!Number.isInteger(bits) || bits < 0 || bits > width) throw new TypeError(`trustProxy: ${entry} has a bad prefix length`);
    const shift = BigInt(width - bits);
    return { v: ip.v, shift, prefix: ip.n >> shift };
  });
  return (address) => {
    const ip = parseIp(address);
    return ip !== null && ranges.some((r) => r.v === ip.v && ip.n >> r.shift === r.prefix);
  };
}

/**
 * Builds the function that finds a request's client id.
 * @param trustProxy - Which proxies may set `X-Forwarded-For`.
 * @returns From request to client id (see {@link toClientId}).
 * @throws TypeError when a `trustProxy` entry is not an address or CIDR range.
 */
export function createClientIdentifier(trustProxy: TrustProxy = false): (request: PlainRequest) => string {
  const trust = compileTrust(trustProxy);
  if (trust === false || trust === 0) return (request) => toClientId(request.clientAddress);
  return (request) => {
    const socket = request.clientAddress;
    const forwarded = request.header('x-forwarded-for');
    if (!socket || !forwarded) return toClientId(socket);
    const chain = forwarded.split(',').map((hop) => hop.trim()).filter((hop) => hop.length > 0);
    chain.push(socket);
    let i = chain.length - 1;
    if (trust === true) i = 0;
    else if (typeof trust === 'number') i = Math.max(0, i - trust);
    // Walk left past trusted proxies; the first untrusted hop is the client (it could forge anything further left).
    else while (i > 0 && trust(chain[i]!)) i--;
    return toClientId(chain[i]);
  };
}
