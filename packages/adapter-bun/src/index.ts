/**
 * Serve a catalogue-api app with `Bun.serve`.
 * @module @catalogue-api/adapter-bun
 */
import type { RequestContext } from '@catalogue-api/core';

/** What the adapter needs of an app: its Web-standard door. */
export interface BunServable {
  fetch(request: Request, context?: RequestContext): Promise<Response>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
  /** Aborting it closes the server gracefully. */
  signal?: AbortSignal;
}

/** A running server. */
export interface Server {
  /** The base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

interface BunServer {
  port: number;
  hostname: string;
  requestIP(request: Request): { address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    fetch(request: Request, server: BunServer): Promise<Response>;
  }): BunServer;
};

/**
 * Serves an app with `Bun.serve`; the client address comes from `server.requestIP`.
 * @param app - The app.
 * @param options - Port, hostname and an abort signal.
 * @returns The running server.
 * @example
 * ```ts
 * const server = await serve(app, { port: 3000 });
 * ```
 */
export async function serve(app: BunServable, options: ServeOptions = {}): Promise<Server> {
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.hostname ?? '127.0.0.1',
    fetch: (request, bun) => app.fetch(request, { clientAddress: bun.requestIP(request)?.address }),
  });
  let closing: Promise<void> | undefined;
  // stop(false) stops accepting and lets in-flight requests finish.
  const close = () => (closing ??= server.stop(false));
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://${server.hostname}:${server.port}`, close };
}
