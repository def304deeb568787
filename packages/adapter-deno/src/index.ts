/**
 * Serve a catalogue-api app with `Deno.serve`.
 * @module @catalogue-api/adapter-deno
 */
import type { RequestContext } from '@catalogue-api/core';

/** What the adapter needs of an app: its Web-standard door. */
export interface DenoServable {
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

interface DenoHttpServer {
  addr: { hostname: string; port: number };
  finished: Promise<void>;
  shutdown(): Promise<void>;
}
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: () => void; signal?: AbortSignal },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): DenoHttpServer;
};

/**
 * Serves an app with `Deno.serve`; the client address comes from `info.remoteAddr`.
 * @param app - The app.
 * @param options - Port, hostname and an abort signal.
 * @returns The running server.
 * @example
 * ```ts
 * const server = await serve(app, { port: 3000 });
 * ```
 */
export async function serve(app: DenoServable, options: ServeOptions = {}): Promise<Server> {
  const server = Deno.serve(
    { port: options.port ?? 3000, hostname: options.hostname ?? '127.0.0.1', onListen: () => {} },
    (request, info) => app.fetch(request, { clientAddress: info.remoteAddr.hostname }),
  );
  let closing: Promise<void> | undefined;
  // shutdown() stops accepting and waits for in-flight requests.
  const close = () => (closing ??= server.shutdown());
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://${server.addr.hostname}:${server.addr.port}`, close };
}
