/**
 * An API reference page for catalogue-api: Swagger UI over the OpenAPI document the catalogue app
 * serves (`/v1/openapi.json`), at `/v1/docs`, with "Try it out" against the same server. Swagger
 * UI's files are bundled into this package at build time and served from memory, so the page makes
 * no request beyond its own origin and the app reads no file: it runs on Node, Bun, Deno and
 * workers alike. A separate package, so that an app without the page does not carry its ~2 MB.
 * @module @catalogue-api/api-reference
 */
import { ALLOWED_METHODS, ApiError, cacheControl, errorResponse, toApp, type App, type PlainRequest, type PlainResponse } from '@catalogue-api/core';
import { version } from 'swagger-ui-dist/package.json';
import bundle from 'swagger-ui-dist/swagger-ui-bundle.js?raw';
import bundleLicenses from 'swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt?raw';
import css from 'swagger-ui-dist/swagger-ui.css?raw';

/** The version of Swagger UI bundled into this package; the page's file URLs carry it, so caches never mix two. */
export const SWAGGER_UI_VERSION: string = version;

/** Where the page is served by default, beside the document at `/v1/openapi.json`. */
export const API_REFERENCE_PATH = '/v1/docs';

/** Options of {@link createApiReferenceApp}. */
export interface ApiReferenceOptions {
  /** Where the page is served; its files are under `${path}/`. @default '/v1/docs' */
  path?: string;
  /**
   * The OpenAPI document's URL, relative to the page (or absolute on the same origin: the page's
   * Content-Security-Policy allows requests to its own origin only). @default 'openapi.json'
   */
  documentUrl?: string;
  /** The page's `<title>` (Swagger UI shows the document's own title in the page). @default 'catalogue-api reference' */
  title?: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

// Static, so that the page's CSP needs no 'unsafe-inline' script; the document's URL comes from
// the page (data-url). No validator badge (it would load an image from validator.swagger.io).
const INIT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.url,
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const PAGE_CSS = `body{margin:0}.noscript{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}`;

/**
 * The page's own origin only, nothing inline: Swagger UI (React) sets element styles from script,
 * which a `style-src` without `'unsafe-inline'` allows; `data:` images are its stylesheet's icons.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface File {
  type: string;
  body: string;
  cacheControl: string;
  /** The body's length in bytes, for HEAD's `Content-Length`. */
  length?: number;
}

/**
 * Creates the API reference app: `GET /v1/docs` is Swagger UI's page over `/v1/openapi.json`;
 * `/v1/docs/swagger-ui-bundle.js`, `/v1/docs/swagger-ui.css`, `/v1/docs/page.css` and
 * `/v1/docs/init.js` are its files, versioned by query so that a day's caching never mixes two
 * Swagger UI versions. HEAD and OPTIONS as in the catalogue; other methods get the 405 envelope,
 * other paths under the page the 404 envelope. The app has no gateway: loading the page costs none
 * of a client's rate limit, while the document and "Try it out" calls go to the catalogue, through
 * its gateway, like any client's.
 * @param options - Path, document URL and title.
 * @returns The app.
 * @example
 * ```ts
 * import { createApiReferenceApp } from '@catalogue-api/api-reference';
 * import { combineApps, createCatalogueApp } from '@catalogue-api/core';
 *
 * const app = combineApps(createApiReferenceApp(), createCatalogueApp());
 * // GET /v1/docs → the page; GET /v1/anime → the catalogue
 * ```
 */
export function createApiReferenceApp(options: ApiReferenceOptions = {}): App {
  const path = (options.path ?? API_REFERENCE_PATH).replace(/\/+$/, '');
  if (!path.startsWith('/') || path === '') throw new RangeError(`path must start with / and name a page, got "${options.path}"`);
  // Relative to the page (`/v1/docs` → `docs/…`), so a host that mounts the app under a prefix needs no setting.
  const own = path.slice(path.lastIndexOf('/') + 1);
  const v = `?v=${encodeURIComponent(SWAGGER_UI_VERSION)}`;
  const documentUrl = options.documentUrl ?? 'openapi.json';
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title ?? 'catalogue-api reference')}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${own}/swagger-ui.css${v}">
<link rel="stylesheet" href="${own}/page.css${v}">
</head>
<body>
<main id="swagger-ui" data-url="${escapeHtml(documentUrl)}"></main>
<noscript><p class="noscript">This reference needs JavaScript. The API is described by its OpenAPI document: <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a>.</p></noscript>
<script src="${own}/swagger-ui-bundle.js${v}"></script>
<script src="${own}/init.js${v}"></script>
</body>
</html>
`;
  const day = cacheControl({ scope: 'public', maxAge: 86_400 });
  const files = new Map<string, File>([
    [path, { type: 'text/html; charset=utf-8', body: page, cacheControl: cacheControl({ scope: 'public', maxAge: 300 }) }],
    [`${path}/swagger-ui-bundle.js`, { type: 'text/javascript; charset=utf-8', body: bundle, cacheControl: day }],
    [`${path}/swagger-ui.css`, { type: 'text/css; charset=utf-8', body: css, cacheControl: day }],
    [`${path}/page.css`, { type: 'text/css; charset=utf-8', body: PAGE_CSS, cacheControl: day }],
    [`${path}/init.js`, { type: 'text/javascript; charset=utf-8', body: INIT, cacheControl: day }],
    // The bundle's first line points here for the licenses of what it holds.
    [`${path}/swagger-ui-bundle.js.LICENSE.txt`, { type: 'text/plain; charset=utf-8', body: bundleLicenses, cacheControl: day }],
  ]);
  const owns = (p: string) => p === path || p.startsWith(`${path}/`);

  async function handle(request: PlainRequest): Promise<PlainResponse> {
    const file = files.get(request.path);
    if (request.trace) request.trace.route = file ? request.path : undefined;
    if (request.method === 'OPTIONS') {
      return { status: 204, headers: { allow: ALLOWED_METHODS, 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-allow-origin': '*' }, body: null };
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(new ApiError(405, `Method ${request.method} is not allowed`, 'Only GET, HEAD and OPTIONS are supported.', { allow: ALLOWED_METHODS }), request.path);
    }
    if (!file) {
      const response = errorResponse(new ApiError(404, `No endpoint at ${request.path}`, `The API reference is at ${path}.`), request.path);
      return request.method === 'HEAD' ? { ...response, body: null } : response;
    }
    const headers: Record<string, string> = {
      'content-type': file.type,
      'cache-control': file.cacheControl,
      'x-content-type-options': 'nosniff',
    };
    if (file.body === page) headers['content-security-policy'] = CSP;
    if (request.method === 'HEAD') headers['content-length'] = String((file.length ??= new TextEncoder().encode(file.body).byteLength));
    return { status: 200, headers, body: request.method === 'HEAD' ? null : file.body };
  }

  return toApp(handle, owns);
}
