/**
 * What the adapters' fixture servers share (each runs under its own runtime: Node with tsx, Bun,
 * Deno): an echo app answering the path and client address, with a `/slow?ms=` route that the
 * graceful-close tests hold open, and the fixture's life: serve on a free port, print the URL, and
 * close through the abort signal on SIGTERM. Web-standard APIs only, so that every runtime loads it.
 */

/**
 * Logs that a slow request started (the tests wait for this line), then waits.
 * @param ms - How long the request takes.
 */
export async function slowRequest(ms: number): Promise<void> {
  console.log('slow request started');
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** An app with only the Web-standard door: it answers `{ path, clientAddress }`. */
export const echoWebApp = {
  async fetch(request: Request, context?: { clientAddress?: string | undefined }): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/slow') await slowRequest(Number(url.searchParams.get('ms')));
    // A header value Fetch refuses (not a byte string), as a misconfigured app might send: the Response cannot be made.
    if (url.pathname === '/unsendable') return new Response('x', { headers: { link: '<https://example.org/\u65e5>' } });
    return Response.json({ path: url.pathname, clientAddress: context?.clientAddress ?? null });
  },
};

type Serve<App> = (app: App, options: { port: number; hostname: string; signal: AbortSignal }) => Promise<{ url: string; close(): Promise<void> }>;

/**
 * Serves the app at 127.0.0.1 on a free port and prints `listening on <url>`.
 * @param serve - The adapter's `serve`.
 * @param app - The app.
 * @returns What to run on SIGTERM: aborts the signal and awaits `close()`, printing `closing` and `closed`.
 */
export async function startFixture<App>(serve: Serve<App>, app: App): Promise<() => Promise<void>> {
  const controller = new AbortController();
  const server = await serve(app, { port: 0, hostname: '127.0.0.1', signal: controller.signal });
  console.log(`listening on ${server.url}`);
  return async () => {
    controller.abort();
    console.log('closing');
    await server.close();
    console.log('closed');
  };
}
