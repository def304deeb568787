/**
 * The adapter behaviours that only a real runtime can show, shared by the Bun and Deno suites:
 * the client address reaches the app, and `close()` (here through the abort signal) stops
 * accepting connections but lets a request in flight finish.
 */
import { spawnServer, type SpawnedServer, type SpawnServerOptions } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Defines the suite for one adapter.
 * @param runtime - Shown in the suite name.
 * @param spawn - How to start `fixture.ts` under that runtime.
 */
export function defineAdapterSuite(runtime: string, spawn: SpawnServerOptions): void {
  describe(`adapter on ${runtime}`, () => {
    let server: SpawnedServer;
    beforeAll(async () => {
      server = await spawnServer(spawn);
    });
    afterAll(() => server?.close());

    it('passes the socket address of the client to the app', async () => {
      expect(await (await fetch(`${server.url}/echo`)).json()).toEqual({ path: '/echo', clientAddress: '127.0.0.1' });
    });

    it('answers 500 with the envelope when an answer cannot become a Response, and keeps serving', async () => {
      const res = await fetch(`${server.url}/unsendable`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        status: 500,
        type: 'InternalServerErrorException',
        message: 'Internal server error',
        error: 'Unexpected server failure. Please try again later.',
        path: '/unsendable',
      });
      expect((await fetch(`${server.url}/echo`)).status).toBe(200);
    });

    it('on abort, refuses new connections, finishes the request in flight, then resolves close()', async () => {
      // An idle keep-alive connection must not hold close() open.
      await (await fetch(`${server.url}/echo`)).arrayBuffer();
      const inFlight = fetch(`${server.url}/slow?ms=1500`).then((res) => res.json());
      await until(() => server.output().includes('slow request started'));
      server.process.kill('SIGTERM');
      await until(() => server.output().includes('closing'));
      await expect(fetch(`${server.url}/echo`, { headers: { connection: 'close' } })).rejects.toThrow();
      expect(await inFlight).toEqual({ path: '/slow', clientAddress: '127.0.0.1' });
      await until(() => server.output().includes('closed'));
    });
  });
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the server');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
