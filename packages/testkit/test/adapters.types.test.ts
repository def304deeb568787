/**
 * docs/runtimes.md: the three adapters export the same `serve(app, { port, hostname, signal? })` returning
 * `Promise<{ url, close() }>`, so that moving a service between runtimes changes one import.
 */
import { serve as serveBun } from '@catalogue-api/adapter-bun';
import { serve as serveDeno } from '@catalogue-api/adapter-deno';
import { serve as serveNode } from '@catalogue-api/adapter-node';
import { createCatalogueApp } from '@catalogue-api/core';
import { describe, expectTypeOf, it } from 'vitest';

describe('serve() of the Node, Bun and Deno adapters', () => {
  it('takes the same options and returns the same server', () => {
    type Options = { port?: number; hostname?: string; signal?: AbortSignal };
    type Server = { url: string; close(): Promise<void> };
    // Node owns its sockets (Bun and Deno own theirs): it adds connection and pipelining bounds and timeouts, all optional numbers.
    type NodeOptions = NonNullable<Parameters<typeof serveNode>[1]>;
    type NodeOnly = 'maxConnections' | 'headersTimeoutMs' | 'idleTimeoutMs' | 'maxPipelinedRequests' | 'maxQueuedBytes' | 'sendTimeoutMs';
    expectTypeOf<Exclude<keyof NodeOptions, keyof Options>>().toEqualTypeOf<NodeOnly>();
    expectTypeOf<Omit<NodeOptions, NodeOnly>>().toEqualTypeOf<Options>();
    expectTypeOf<Pick<NodeOptions, NodeOnly>>().toEqualTypeOf<Partial<Record<NodeOnly, number>>>();
    expectTypeOf(serveBun).parameter(1).toEqualTypeOf<Options | undefined>();
    expectTypeOf(serveDeno).parameter(1).toEqualTypeOf<Options | undefined>();
    // Node's server also carries the underlying `node:http` server; the shared part is the same.
    expectTypeOf(serveNode).returns.resolves.toExtend<Server>();
    expectTypeOf(serveBun).returns.resolves.toEqualTypeOf<Server>();
    expectTypeOf(serveDeno).returns.resolves.toEqualTypeOf<Server>();
  });

  it('accepts a catalogue app on every runtime', () => {
    const app = createCatalogueApp();
    expectTypeOf(app).toExtend<Parameters<typeof serveNode>[0]>();
    expectTypeOf(app).toExtend<Parameters<typeof serveBun>[0]>();
    expectTypeOf(app).toExtend<Parameters<typeof serveDeno>[0]>();
  });
});
