/**
 * The canonical request target: the one path and query that every stage of a request sees (the
 * gateway's restricted routes, rate limits and cache key, the router, the error envelope's `path`).
 *
 * A path is resolved the way the WHATWG URL parser resolves it (https://url.spec.whatwg.org/#path-state):
 * dot segments are removed as in RFC 3986 §5.2.4, `%2e` (any case) counts as a dot, and `\` as `/`.
 * Trailing slashes are then dropped, as the router ignores them. Bun resolves the path the same
 * way before the app sees it; Node and Deno hand over the raw target, so this is done here, once,
 * at the entry of the pipeline. See docs/configuration.md, "Request paths".
 * @module
 */
import type { PlainRequest } from './http.js';

// A path the URL parser leaves as it is: no percent-encoding, backslash or other character it
// rewrites; with no dot segment and no trailing slash, it is already canonical.
const PLAIN_PATH = /^\/[\w\-.~/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
// The URL parser drops a fragment, strips tabs and newlines, and trims trailing controls and spaces.
const PLAIN_QUERY = /[#\t\n\r]|[\0-\x20]$/;
const TRAILING_SLASHES = /\/+$/;

function isCanonical(path: string, query: string): boolean {
  return PLAIN_PATH.test(path) && path.charCodeAt(path.length - 1) !== 47 /* '/' */ && !DOT_SEGMENT.test(path) && !PLAIN_QUERY.test(query);
}

/**
 * Resolves a request target.
 * @param path - The path as received (`/v1/./anime`).
 * @param query - The raw query, without `?`.
 * @returns The canonical path and query, or `undefined` when the path does not start with `/`
 *   (`*`, `host:443`, or an absolute-form target the host could not read, such as `http://[::1`).
 */
function resolve(path: string, query: string): { path: string; query: string } | undefined {
  if (path.charCodeAt(0) !== 47 /* '/' */) return undefined;
  // Behind `http://x`, the path cannot reach the authority: the URL parser only resolves it.
  const url = new URL(query ? `http://x${path}?${query}` : `http://x${path}`);
  const pathname = url.pathname.replace(TRAILING_SLASHES, '');
  return { path: pathname || '/', query: url.search.slice(1) };
}

/**
 * The canonical form of a request path.
 * @param path - A request path, as received.
 * @returns The canonical path, or `undefined` when it is not a URL path.
 */
export function toCanonicalPath(path: string): string | undefined {
  return isCanonical(path, '') ? path : resolve(path, '')?.path;
}

/**
 * The request {@link toCanonicalRequest} last returned with `remember`. Its caller (`combineApps`)
 * hands it to an app at once, whose pipeline asks {@link isCanonicalised} before anything else can
 * run, so one slot is enough; a `WeakSet` of every such request cost ~0.6 µs a request on Node 20.
 * An earlier request asked about again is only canonicalised again, which changes nothing.
 */
let remembered: PlainRequest | undefined;

/**
 * Whether a request is the one that {@link toCanonicalRequest} last returned with `remember`: the
 * pipeline of an app inside `combineApps` then takes its path as it is, without canonicalising it again.
 * @param request - A request.
 */
export function isCanonicalised(request: PlainRequest): boolean {
  return request === remembered;
}

/**
 * The request with its canonical path and query. The common case (a plain path, as every real
 * client sends) is checked with three regular expressions and costs no `new URL`.
 * @param request - The request, as the host gave it.
 * @param remember - Whether to remember the result as canonical (see {@link isCanonicalised}).
 * @returns The request itself when already canonical, a request with the resolved path and query
 *   otherwise, or `undefined` when its target is not a URL path (the caller answers 400).
 */
export function toCanonicalRequest(request: PlainRequest, remember = false): PlainRequest | undefined {
  const canonical = canonicalOf(request);
  if (remember && canonical) remembered = canonical;
  return canonical;
}

function canonicalOf(request: PlainRequest): PlainRequest | undefined {
  if (isCanonical(request.path, request.query)) return request;
  const resolved = resolve(request.path, request.query);
  if (!resolved) return undefined;
  return {
    method: request.method,
    path: resolved.path,
    query: resolved.query,
    header: request.header,
    // A getter, so that a host's costly address lookup still happens only when asked for.
    get clientAddress() {
      return request.clientAddress;
    },
    // The same trace object, so that what the stages note reaches the observer of the received request.
    trace: request.trace,
    internalClient: request.internalClient,
    malformed: request.malformed,
  };
}
