/**
 * `combineApps`: several apps on one server (the catalogue at `/v1` and the status API at `/api/status`).
 * @module
 */
import { fromWebRequest, toWebResponse, type PlainRequest, type PlainResponse, type RequestContext } from './http.js';
import { toCanonicalRequest } from './internal/request-target.js';

/** What {@link combineApps} needs of an app. */
export interface MountableApp {
  /**
   * The plain door.
   * @param request - The plain request.
   * @returns The plain response; never rejects.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * Whether a path belongs to this app.
   * @param path - A request path.
   */
  owns(path: string): boolean;
}

/** Apps combined into one, with the same doors. */
export interface CombinedApp {
  /**
   * The Web-standard door, for Bun, Deno, workers and tests.
   * @param request - The request.
   * @param context - The client address, from the host.
   * @returns The answer of the first app that owns the path, else the last app's; never rejects.
   */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /**
   * The plain door, for Node.
   * @param request - The plain request.
   * @returns The answer of the first app that owns the path, else the last app's; never rejects.
   */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * Whether any of the combined apps owns a path.
   * @param path - A request path.
   */
  owns(path: string): boolean;
}

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
export function combineApps(...apps: MountableApp[]): CombinedApp {
  const fallback = apps[apps.length - 1];
  if (!fallback) throw new RangeError('combineApps needs at least one app');
  const pick = (path: string) => apps.find((app) => app.owns(path)) ?? fallback;
  // Apps are picked by the canonical path, the one each app's pipeline then sees (`/v1/../api/status`
  // is the status API's); a target that is no path goes to the fallback, whose pipeline answers 400.
  const handle = (request: PlainRequest) => {
    const canonical = toCanonicalRequest(request);
    return canonical ? pick(canonical.path).handle(canonical) : fallback.handle(request);
  };
  return {
    handle,
    owns: (path) => apps.some((app) => app.owns(path)),
    fetch: async (request, context) => toWebResponse(await handle(fromWebRequest(request, context))),
  };
}
