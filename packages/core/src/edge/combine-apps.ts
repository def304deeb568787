/**
 * `combineApps`: several apps on one server (the catalogue at `/v1` and the status API at `/api/status`).
 * @module
 */
import { canonicalOwnerOf, toApp, type App, type PlainRequest } from './http.js';
import { isCanonicalised, toCanonicalRequest } from './request-target.js';

/**
 * Combines apps: each request goes to the first app that owns its path; a path none owns goes to
 * the last app, whose 404 envelope answers it.
 * @param apps - The apps, at least one; the last is the fallback.
 * @returns An app with `fetch`, `handle` and `owns`, for any adapter.
 * @throws {RangeError} when no app is given.
 * @example
 * ```ts
 * const server = await serve(combineApps(statusApp, catalogueApp), { port: 3000 });
 * // GET /api/status → status app; GET /v1/anime → catalogue app
 * ```
 */
export function combineApps(...apps: Array<Pick<App, 'handle' | 'owns'>>): App {
  const fallback = apps[apps.length - 1];
  if (!fallback) throw new RangeError('combineApps needs at least one app');
  // Apps are picked by the canonical path, the one each app's pipeline then sees (`/v1/../api/status`
  // is the status API's): canonicalised here, once, and remembered as canonical, so that neither
  // the apps' `owns` nor their pipelines canonicalise it again. A target that is no path goes to
  // the fallback, whose pipeline answers 400.
  const owners = apps.map(canonicalOwnerOf);
  const handle = (request: PlainRequest) => {
    const canonical = isCanonicalised(request) ? request : toCanonicalRequest(request, true);
    if (!canonical) return fallback.handle(request);
    const path = canonical.path;
    for (let i = 0; i < owners.length; i++) if (owners[i]!(path)) return apps[i]!.handle(canonical);
    return fallback.handle(canonical);
  };
  return toApp(
    handle,
    (path) => apps.some((app) => app.owns(path)),
    undefined,
    (path) => owners.some((owns) => owns(path)),
  );
}
