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

function toDate(name: string, value: Date | number | string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${name} must be a date (ISO 8601, e.g. 2027-01-31T00:00:00Z), not "${String(value)}"`);
  return date;
}

function toLink(name: string, url: string, rel: string): string {
  // A `Link` target is a URI reference in angle brackets (RFC 8288 §3): no spaces, quotes or brackets.
  if (!/^https?:\/\/[^\s<>"]+$/.test(url)) throw new RangeError(`${name} must be an absolute http(s) URL, not "${url}"`);
  return `<${url}>; rel="${rel}"`;
}

/**
 * The headers every answer of a deprecated version carries.
 * @param options - The dates and links; none given means no headers.
 * @returns Lower-case header names and their values (empty when nothing is configured).
 * @throws {RangeError} when a date is unreadable, the sunset precedes the deprecation, or a URL is not absolute.
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
