/**
 * Serve a catalogue-api app with `Bun.serve`. Bun's `Request` and `Response` are native and cheap:
 * the adapter reads the request through the app's plain door when it has one and builds the one
 * `Response` itself, with large bodies remembered as `Blob`s (see `toBody`); apps with only a
 * `fetch` are served through it.
 * @module @catalogue-api/adapter-bun
 */
import { createBodyMemo, fromWebRequest, internalErrorResponse, toWebResponse, type App, type RequestContext, type ServeOptions, type Server } from '@catalogue-api/core';

// String bodies at least this long are sent as remembered Blobs; shorter ones as they are.
const LARGE_BODY_CHARS = 4096;
const toBlob = createBodyMemo((text) => new Blob([text]), (blob) => blob.size, { minChars: LARGE_BODY_CHARS });

/**
 * The body as the Response gets it. Bun copies a `Uint8Array` body into every Response (~6 µs for
 * a 30 KB page, about a cache hit's whole work) and encodes a string body at every send, but
 * shares a `Blob`'s bytes. A gateway cache hit returns the same string, so its Blob is found with
 * one comparison; recent large bodies are kept, newest first, at most 8 MiB.
 */
function toBody(body: string | Uint8Array | null): string | Uint8Array | Blob | null {
  return typeof body === 'string' && body.length >= LARGE_BODY_CHARS ? toBlob(body) : body;
}

export type { ServeOptions, Server } from '@catalogue-api/core';

const failed = (request: Request): Response => toWebResponse(internalErrorResponse(new URL(request.url).pathname));

// The few members of Bun's API used here, so that no Bun types leak into the published .d.ts.
type BunServer = { url: URL; requestIP(request: Request): { address: string } | null; stop(force?: boolean): Promise<void> };
type BunHandler = (request: Request, server: BunServer) => Promise<Response>;
declare const Bun: { serve(options: { port: number; hostname: string; fetch: BunHandler }): BunServer };

/**
 * Serves an app with `Bun.serve`; the client address comes from `server.requestIP`.
 * @param app - The app (`createCatalogueApp`, `combineApps`…). Its plain door is used when it has
 *   one (the adapter then builds the `Response` itself), else its Web-standard door.
 * @param options - Port, hostname and an abort signal.
 * @returns The running server, once it listens.
 * @example
 * ```ts
 * import { serve } from '@catalogue-api/adapter-bun';
 *
 * const server = await serve(createCatalogueApp({ store }), { port: 3000 });
 * console.log(`${server.url}/v1`);
 * ```
 */
export async function serve(app: Pick<App, 'fetch'> & Partial<App>, options: ServeOptions = {}): Promise<Server> {
  const plain = app.handle?.bind(app);
  // `requestIP` is asked only when the app reads the address (see `fromWebRequest`).
  const context = (request: Request, bun: BunServer): RequestContext => ({
    get clientAddress() {
      return bun.requestIP(request)?.address;
    },
  });
  // An answer that cannot become a Response (a header value Fetch refuses, from a misconfigured
  // app) gets the 500 envelope, not Bun's own error page, which shows the stack outside production.
  const fetch: BunHandler = plain
    ? async (request, bun) => {
        try {
          const response = await plain(fromWebRequest(request, context(request, bun)));
          return new Response(toBody(response.body) as BodyInit | null, { status: response.status, headers: response.headers });
        } catch {
          return failed(request);
        }
      }
    : (request, bun) => app.fetch(request, context(request, bun)).catch(() => failed(request));
  const server = Bun.serve({ port: options.port ?? 3000, hostname: options.hostname ?? '127.0.0.1', fetch });
  let closing: Promise<void> | undefined;
  // stop(false) stops listening at once, closes idle connections and lets in-flight requests finish.
  const close = () => (closing ??= server.stop(false));
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: server.url.origin, close };
}
