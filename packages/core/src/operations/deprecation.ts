/**
 * The headers that announce an API version's end: `Deprecation` (RFC 9745), `Sunset` (RFC 8594)
 * and `Link` to the successor version and to the notice.
 * @module
 */

/** When an API version is deprecated and withdrawn, and where its successor is. */
export interface DeprecationOptions {
  /**
   * When the version is (or will be) deprecated: a `Date`, milliseconds since the epoch, or an ISO
   * 8601 text. A date in the future announces the deprecation ahead (RFC 9745).
   */
  deprecatedAt?: Date | number | string | undefined;
  /** When the version stops answering (RFC 8594); not before `deprecatedAt`. */
  sunsetAt?: Date | number | string | undefined;
  /** The successor version's base URL, sent as `Link: <…>; rel="successor-version"` (RFC 5829). */
  successorUrl?: string | undefined;
  /** A page explaining the deprecation, sent as `Link: <…>; rel="deprecation"` (RFC 9745). */
  noticeUrl?: string | undefined;
}

// RFC 3339's ISO 8601 profile: a date (midnight UTC), or a date and time with its offset; a time
// without one would be the server's local time, which an announced date must not depend on.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|([+-])(\d{2}):(\d{2})))?$/i;

// Years an HTTP date can carry (RFC 9110 §5.6.7: four digits), from the epoch.
const FIRST = Date.UTC(1970, 0, 1);
const LAST = Date.UTC(10_000, 0, 1) - 1000;

/**
 * Reads an ISO 8601 date (`2027-01-31`, `2027-01-31T00:00:00Z`, `2027-01-31T09:00+09:00`), as
 * RFC 3339 profiles it; days that do not exist (`2027-06-31`) and other forms `Date.parse` would
 * take (`12/31/2027`, `1`) are not dates here.
 * @param text - The text.
 * @returns Milliseconds since the epoch, or undefined.
 */
export function parseIsoDate(text: string): number | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const utc = Date.UTC(year!, month! - 1, day!, hour, minute, second, Math.floor(Number(match[7] ?? 0) * 1000));
  const date = new Date(utc);
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour <= 23 && minute <= 59 && second <= 59;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  if (!real || offsetHours > 23 || offsetMinutes > 59) return undefined;
  return utc - (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
}

function toDate(name: string, value: Date | number | string): Date {
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : parseIsoDate(value);
  if (time === undefined || !(time >= FIRST && time <= LAST)) {
    throw new RangeError(`${name} must be a date from 1970 to 9999 (ISO 8601, e.g. 2027-01-31T00:00:00Z), not "${String(value)}"`);
  }
  return new Date(time);
}

function toLink(name: string, url: string, rel: string): string {
  // A `Link` target is a URI reference in angle brackets (RFC 8288 §3): no spaces, quotes, brackets
  // or control characters. It is sent as the URL parser writes it, non-ASCII characters
  // percent-encoded and the host in Punycode (RFC 3987 §3.1), which a header value can hold.
  let href: string | undefined;
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !/[\s<>"\x00-\x1f\x7f]/.test(url)) href = parsed.href;
  } catch {
    // Not a URL.
  }
  if (href === undefined || !/^[\x21-\x7e]+$/.test(href)) throw new RangeError(`${name} must be an absolute http(s) URL, not "${url}"`);
  return `<${href}>; rel="${rel}"`;
}

/**
 * The headers every answer of a deprecated version carries.
 * @param options - The dates and links; none given means no headers.
 * @returns Lower-case header names and their values (empty when nothing is configured).
 * @throws {RangeError} when a date is unreadable or outside 1970–9999, the sunset precedes the deprecation, or a URL is not absolute.
 * @example
 * ```ts
 * toDeprecationHeaders({ deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successorUrl: 'https://api.example.org/v2' });
 * // { deprecation: '@1798761600', sunset: 'Thu, 01 Jul 2027 00:00:00 GMT', link: '<https://api.example.org/v2>; rel="successor-version"' }
 * ```
 */
export function toDeprecationHeaders(options: DeprecationOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  const deprecated = options.deprecatedAt === undefined ? undefined : toDate('deprecatedAt', options.deprecatedAt);
  const sunset = options.sunsetAt === undefined ? undefined : toDate('sunsetAt', options.sunsetAt);
  // RFC 9745: a structured-field Item of type Date, whole seconds since the epoch.
  if (deprecated) headers.deprecation = `@${Math.floor(deprecated.getTime() / 1000)}`;
  if (sunset) {
    if (deprecated && sunset.getTime() < deprecated.getTime()) throw new RangeError('sunsetAt must not be before deprecatedAt (RFC 9745)');
    headers.sunset = sunset.toUTCString();
  }
  const links: string[] = [];
  if (options.successorUrl) links.push(toLink('successorUrl', options.successorUrl, 'successor-version'));
  if (options.noticeUrl) links.push(toLink('noticeUrl', options.noticeUrl, 'deprecation'));
  if (links.length > 0) headers.link = links.join(', ');
  return headers;
}
