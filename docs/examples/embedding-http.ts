/**
 * Embedding in a plain `node:http` server next to your own routes. Shown in docs/embedding.md.
 * @module
 */
import type { AddressInfo } from 'node:net';
// #region http
import { createServer } from 'node:http';
import { toNodeHandler } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const catalogue = toNodeHandler(createCatalogueApp({ store: createMemoryStore(demoData) }));

const server = createServer((req, res) => {
  if (req.url === '/health') {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
    return;
  }
  // The handler answers /v1/… itself; with a `next` callback it passes every other path on.
  catalogue(req, res, () => {
    res.statusCode = 404;
    res.end('not here');
  });
});
// #endregion http

/** Listens on a free port; returns the base URL and a close function. */
export async function listen(): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
