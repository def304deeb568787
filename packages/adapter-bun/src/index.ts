/**
 * Serve a catalogue-api app with `Bun.serve`. Bun's `Request` and `Response` are native, so the
 * adapter uses the app's Web-standard door and only adds the client address.
 * @module @catalogue-api/adapter-bun
 */
import { internalErrorResponse, toWebResponse, type App, type RequestContext, type ServeOptions, type Server } from '@catalogue-api/core';

export type { ServeOptions, Server } from '@catalogue-api/core';

const failed = (request: Request): Response => toWebResponse(internalErrorResponse(new URL(request.url).pathname));

// The few members of Bun's API used here, so that no Bun types leak into the published .d.ts.
type BunServer = { url: URL; requestIP(request: Request): { address: string } | null; stop(force?: boolean): Promise<void> };
type BunHandler = (request: Request, server: BunServer) => Promise<Response>;
declare const Bun: { serve(options: { port: number; hostname: string; fetch: BunHandler }): BunServer };

/**
 * Serves an app with `Bun.serve`; the client address comes from `server.requestIP`.
 * @param app - The app (`createCatalogueApp`, `combineApps`, `createObservedApp`…).
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
export async function serve(app: Pick<App, 'fetch'>, options: ServeOptions = {}): Promise<Server> {
  // `requestIP` (~1.5 µs a call in Bun 1.4) is asked only when the app reads the address, and once.
  const context = (request: Request, bun: BunServer): RequestContext => {
    let address: string | null | undefined = null;
    return {
      get clientAddress() {
        if (address === null) address = bun.requestIP(request)?.address;
        return address;
      },
    };
  };
  // An answer that cannot become a Response (a header value Fetch refuses, from a misconfigured
  // app) gets the 500 envelope, not Bun's own error page, which shows the stack outside production.
  const fetch: BunHandler = (request, bun) => app.fetch(request, context(request, bun)).catch(() => failed(request));
  const server = Bun.serve({ port: options.port ?? 3000, hostname: options.hostname ?? '127.0.0.1', fetch });
  let closing: Promise<void> | undefined;
  // stop(false) stops listening at once, closes idle connections and lets in-flight requests finish.
  const close = () => (closing ??= server.stop(false));
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: server.url.origin, close };
}
