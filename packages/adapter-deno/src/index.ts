/**
 * Serve a catalogue-api app with `Deno.serve`. Deno's `Request` and `Response` are native, so the
 * adapter uses the app's Web-standard door and only adds the client address.
 * @module @catalogue-api/adapter-deno
 */
import { internalErrorResponse, toWebResponse, type App, type ServeOptions, type Server } from '@catalogue-api/core';

export type { ServeOptions, Server } from '@catalogue-api/core';

const failed = (request: Request): Response => toWebResponse(internalErrorResponse(new URL(request.url).pathname));

// The few members of Deno's API used here, so that no Deno types leak into the published .d.ts.
type DenoServer = { addr: { hostname: string; port: number }; shutdown(): Promise<void> };
type DenoHandler = (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>;
declare const Deno: { serve(options: { port: number; hostname: string; onListen(): void }, handler: DenoHandler): DenoServer };

/**
 * Serves an app with `Deno.serve`; the client address comes from `info.remoteAddr`.
 * @param app - The app.
 * @param options - Port, hostname and an abort signal.
 * @returns The running server, once it listens.
 * @example
 * ```ts
 * import { serve } from '@catalogue-api/adapter-deno';
 *
 * const server = await serve(createCatalogueApp({ store }), { port: 3000 });
 * console.log(`${server.url}/v1`);
 * ```
 */
export async function serve(app: Pick<App, 'fetch'>, options: ServeOptions = {}): Promise<Server> {
  const { port = 3000, hostname = '127.0.0.1' } = options;
  // onListen: the caller prints the URL it wants; Deno's own "Listening on" line would be noise.
  // An answer that cannot become a Response (a header value Fetch refuses, from a misconfigured
  // app) gets the 500 envelope rather than Deno's plain-text 500.
  const handler: DenoHandler = (request, info) => app.fetch(request, { clientAddress: info.remoteAddr.hostname }).catch(() => failed(request));
  const server = Deno.serve({ port, hostname, onListen() {} }, handler);
  let closing: Promise<void> | undefined;
  // shutdown() stops accepting at once and resolves when the requests in flight have finished.
  const close = () => (closing ??= server.shutdown());
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  const { hostname: host, port: bound } = server.addr;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, close };
}
