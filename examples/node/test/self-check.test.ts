/**
 * The example's status API watches its own catalogue. The check must reach the store: a path the
 * gateway caches (for 24 hours by default) would keep reporting "up" from the cache while the
 * store is failing.
 */
import { serve, type Server } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createChecker, createMemoryStatusStore, createMemoryStore, selfService } from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { afterAll, beforeAll, expect, it } from 'vitest';

const failing = { now: false };
let server: Server;

beforeAll(async () => {
  const memory = createMemoryStore(demoData);
  const refuse = () => Promise.reject(new Error('database unreachable'));
  const store = new Proxy(memory, {
    get: (target, name, receiver) => {
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? (...args: unknown[]) => (failing.now ? refuse() : (value as (...a: unknown[]) => unknown).apply(target, args)) : value;
    },
  }) as CatalogueStore;
  // The gateway as the example runs it: limits, blocks and the response cache on.
  server = await serve(createCatalogueApp({ store, logger: { error: () => undefined } }), { port: 0, hostname: '127.0.0.1' });
});

afterAll(() => server?.close());

it('sees the catalogue fail once its store fails, whatever the gateway has cached', async () => {
  const checker = createChecker({ services: [selfService(server.url)], store: createMemoryStatusStore(), logger: { error: () => undefined } });
  expect((await checker.runOnce()).results).toEqual({ 'catalogue-api': 'up' });
  failing.now = true;
  expect((await checker.runOnce()).results).toEqual({ 'catalogue-api': 'fail' });
  failing.now = false;
  expect((await checker.runOnce()).results).toEqual({ 'catalogue-api': 'up' });
  await checker.stop();
});
