/**
 * Serve a catalogue-api app with `Bun.serve`. Bun's `Request` and `Response` are native and cheap,
 * so the adapter uses the app's Web-standard door and only adds the client address.
 * @module @catalogue-api/adapter-bun
 */
import type { RequestContext } from '@catalogue-api/core';

/** What the adapter needs of an app: its Web-standard door (`createCatalogueApp`, `combineApps`). */
export interface BunServable {
  /**
   * The app's Web-standard door, which the adapter calls for every request.
   * @param request - The request.
   * @param context - The client address, from the runtime.
   * @returns The response.
   */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
}

/** Options of {@link serve}; the same in the Node, Bun and Deno adapters. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
  /** Aborting it closes the server gracefully, like `close()`. */
  signal?: AbortSignal;
}

/** A running server. */
export interface Server {
  /** The base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

// The few members of Bun's API used here, so that no Bun types leak into the published .d.ts.
type BunServer = { url: URL; requestIP(request: Request): { address: string } | null; stop(force?: boolean): Promise<void> };
type BunHandler = (request: Request, server: BunServer) => Promise<Response>;
declare const Bun: { serve(options: { port: number; hostname: string; fetch: BunHandler }): BunServer };

/**
 * Serves an app with `Bun.serve`; the client address comes from `server.requestIP`.
 * @param app - The app.
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
export async function serve(app: BunServable, options: ServeOptions = {}): Promise<Server> {
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.hostname ?? '127.0.0.1',
    fetch: (request, bun) => app.fetch(request, { clientAddress: bun.requestIP(request)?.address }),
  });
  let closing: Promise<void> | undefined;
  // stop(false) stops listening at once, closes idle connections and lets in-flight requests finish.
  const close = () => (closing ??= server.stop(false));
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: server.url.origin, close };
}
