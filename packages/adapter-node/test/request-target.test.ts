/**
 * One canonical path for every stage, over real sockets on Node: `serve()`, and `toNodeHandler`
 * mounted in Express under a prefix (with `mountPath`, so that envelopes and the OpenAPI
 * document name the mounted paths).
 */
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogueApp, createMemoryStore, type CatalogueAppOptions } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { defineRequestTargetContract } from '@catalogue-api/testkit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, toNodeHandler, type Server } from '../src/index.js';

const options: CatalogueAppOptions = {
  store: createMemoryStore(demoData),
  gateway: { keys: ['key-one'], restrictedRoutes: ['/v1/top/*', '/v1/anime/:id/full'], rateLimit: false },
};

describe('serve()', () => {
  let server: Server;
  beforeAll(async () => {
    server = await serve(createCatalogueApp(options), { port: 0 });
  });
  afterAll(() => server.close());

  defineRequestTargetContract({ runtime: 'node adapter', baseUrl: () => server.url, serverKey: 'key-one' });
});

describe('toNodeHandler in Express, mounted at /catalogue', () => {
  let close: () => Promise<void>;
  let base = '';
  beforeAll(async () => {
    const backend = express();
    backend.use('/catalogue', toNodeHandler(createCatalogueApp({ ...options, mountPath: '/catalogue' })));
    const listener = backend.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => (listener.close(() => resolve()), listener.closeAllConnections()));
  });
  afterAll(() => close());

  defineRequestTargetContract({ runtime: 'express', baseUrl: () => `${base}/catalogue`, serverKey: 'key-one' });

  it('names the mounted path in error envelopes and points to the mounted OpenAPI document', async () => {
    const res = await fetch(`${base}/catalogue/v1/nope`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { path: string; error: string };
    expect(body.path).toBe('/catalogue/v1/nope');
    expect(body.error).toContain('/catalogue/v1/openapi.json');
  });

  it('gives the mount path as the OpenAPI server, so that Swagger UI calls the mounted paths', async () => {
    const document = (await (await fetch(`${base}/catalogue/v1/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(document.servers).toEqual([{ url: '/catalogue' }]);
  });

  it('passes a path that resolves outside the app on to Express', async () => {
    // node:http sends the path as given; fetch would resolve the dot segment first.
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${base}/catalogue/v1/../health`, { path: '/catalogue/v1/../health' }, resolve).on('error', reject).end();
    });
    answer.resume();
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
  });
});
