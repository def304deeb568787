/**
 * Per-connection bounds of `serve` over real sockets: pipelined requests in progress, answer bytes
 * waiting to be written, the send timeout, and a stalled connection making room past
 * `maxConnections`.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Server } from '../src/index.js';

/** What the adapter serves: an app's plain door, and `owns` when it has one. */
type Servable = Parameters<typeof serve>[0];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(app: Servable, options: Parameters<typeof serve>[1]): Promise<Server> {
  const server = await serve(app, { port: 0, ...options });
  servers.push(server);
  return server;
}

/** An app whose answers take a millisecond (or none), counting how many it works on at once. */
function countingApp(body: string, delayMs = 1) {
  const seen = { handled: 0, inProgress: 0, most: 0 };
  const app: Servable = {
    async handle(request) {
      seen.handled++;
      seen.most = Math.max(seen.most, ++seen.inProgress);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      seen.inProgress--;
      return { status: 200, headers: { 'content-type': 'text/plain', 'x-path': request.path }, body };
    },
  };
  return { app, seen };
}

/** A client socket that writes `bytes` once connected and never reads; resolves with the server's side. */
async function nonReading(server: Server, bytes: string): Promise<{ client: Socket; serverSide: Socket }> {
  const accepted = new Promise<Socket>((resolve) => server.node.once('connection', resolve));
  const client = connect(Number(new URL(server.url).port), '127.0.0.1', () => client.write(bytes));
  client.pause();
  client.on('error', () => undefined);
  return { client, serverSide: await accepted };
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));
const pipelined = (count: number, path = '/x') => Array.from({ length: count }, (_, i) => `GET ${path}${i} HTTP/1.1\r\nhost: x\r\n\r\n`).join('');

describe('pipelined requests', () => {
  it('works on at most maxPipelinedRequests of one connection at once, and answers all of them in order', async () => {
    const { app, seen } = countingApp('ok');
    const server = await start(app, { maxPipelinedRequests: 4 });
    const received = await new Promise<string>((resolve, reject) => {
      const client = connect(Number(new URL(server.url).port), '127.0.0.1', () => client.write(pipelined(300) + 'GET /last HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'));
      let text = '';
      client.setEncoding('latin1');
      client.on('data', (chunk: string) => (text += chunk));
      client.on('close', () => resolve(text));
      client.on('error', reject);
    });
    const paths = [...received.matchAll(/x-path: (\S+)/g)].map((match) => match[1]);
    expect(paths).toEqual([...Array.from({ length: 300 }, (_, i) => `/x${i}`), '/last']);
    expect(seen.most).toBeLessThanOrEqual(4);
  });

  it('stops building answers for a client that does not read them', async () => {
    const { app, seen } = countingApp('y'.repeat(100_000));
    const server = await start(app, { maxPipelinedRequests: 8, maxQueuedBytes: 200_000, sendTimeoutMs: 60_000 });
    const { client } = await nonReading(server, pipelined(2000));
    // Long enough for every request to have been answered had nothing held them back.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // What the kernel's buffers took (a few MB on loopback), plus the bound: far fewer than 2000.
    const settled = seen.handled;
    expect(settled).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.handled).toBe(settled);
    client.destroy();
  });
});

describe('queued bytes', () => {
  /** Answers the app has built for a non-reading client that are not yet written out, once the kernel's buffers are full. */
  async function unwritten(maxQueuedBytes: number): Promise<number> {
    // Answered at once, so that answers are written (and counted) before the next is dispatched.
    const { app, seen } = countingApp('q'.repeat(100_000), 0);
    const server = await start(app, { maxPipelinedRequests: 64, maxQueuedBytes, sendTimeoutMs: 60_000 });
    let finished = 0;
    server.node.on('request', (_req, res: import('node:http').ServerResponse) => res.once('finish', () => finished++));
    const { client } = await nonReading(server, pipelined(2000));
    await new Promise((resolve) => setTimeout(resolve, 600));
    client.destroy();
    return seen.handled - finished;
  }

  it('dispatches no further request of a connection while maxQueuedBytes of its answers wait unwritten', async () => {
    // Without the bound, each answer the kernel takes lets another request in, and 64 stay in
    // progress; with it, none is dispatched while 300 KB or more of answers wait.
    const bounded = await unwritten(300_000);
    const unbounded = await unwritten(1_000_000_000);
    expect(unbounded).toBe(64);
    expect(bounded).toBeLessThan(64);
  });
});

describe('send timeout', () => {
  it('closes a connection whose client leaves its answer unread for sendTimeoutMs', async () => {
    const { app } = countingApp('z'.repeat(200_000));
    const server = await start(app, { sendTimeoutMs: 200 });
    const { client, serverSide } = await nonReading(server, pipelined(500));
    const start_ = performance.now();
    await closed(serverSide);
    // Node checks the timeout at its interval: one to two intervals after the last progress.
    expect(performance.now() - start_).toBeLessThan(5_000);
    client.destroy();
    // The server still answers others.
    expect((await fetch(`${server.url}/v1`)).status).toBe(200);
  });

  it('keeps a connection whose answer the app takes longer than sendTimeoutMs to build', async () => {
    const slow: Servable = {
      async handle() {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { status: 200, headers: {}, body: 'late' };
      },
    };
    const server = await start(slow, { sendTimeoutMs: 100 });
    const res = await fetch(`${server.url}/slow`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('late');
  });
});

describe('maxConnections', () => {
  it('makes room for a new client by closing a connection whose client has stopped reading', async () => {
    const { app } = countingApp('w'.repeat(200_000));
    const server = await start(app, { maxConnections: 2, sendTimeoutMs: 60_000 });
    const stuck = [await nonReading(server, pipelined(300)), await nonReading(server, pipelined(300))];
    // Both have a full write buffer for more than a second.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(stuck.map(({ serverSide }) => serverSide.writableLength > 0)).toEqual([true, true]);
    const res = await fetch(`${server.url}/fresh`, { headers: { connection: 'close' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await closed(stuck[0]!.serverSide);
    expect(stuck[1]!.serverSide.destroyed).toBe(false);
    for (const { client } of stuck) client.destroy();
  });
});

describe('options', () => {
  it.each([['maxPipelinedRequests', 0], ['maxQueuedBytes', -1], ['sendTimeoutMs', 1.5]] as const)('refuses %s = %d with a RangeError naming it', async (name, value) => {
    await expect(serve({ handle: async () => ({ status: 204, headers: {}, body: null }) }, { port: 0, [name]: value })).rejects.toThrow(new RegExp(`^${name} must be a positive integer`));
  });
});
