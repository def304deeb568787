/**
 * Embedding in a Fastify backend under a sub-path. Shown in docs/embedding.md.
 * @module
 */
// #region fastify
import Fastify from 'fastify';
import { toNodeHandler } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const catalogue = toNodeHandler(createCatalogueApp({ store: createMemoryStore(demoData), mountPath: '/catalogue' }));
export const backend = Fastify();

backend.get('/health', async () => ({ ok: true }));
// Every method, so that the app itself answers OPTIONS (204) and POST (405). hijack() hands the raw
// response to the library; the mount path is stripped so that the app sees /v1/anime.
backend.all('/catalogue/*', (request, reply) => {
  reply.hijack();
  request.raw.url = request.raw.url!.slice('/catalogue'.length);
  catalogue(request.raw, reply.raw);
});
// #endregion fastify
