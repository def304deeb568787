import { createServer, connect, type Server, type Socket } from 'node:net';
import { createClient } from 'redis';

export const REDIS_URL = process.env.REDIS_URL;

/** A key prefix no other test run uses (others share this Redis). */
export function uniquePrefix(name: string): string {
  return `catalogue-api-test:${name}:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
}

/** Deletes every key under a prefix. */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}

/**
 * A TCP proxy between the client and Redis that a test can cut (connections refused), blackhole
 * (connections open, nothing forwarded) and restore, without touching the Redis others use.
 */
export interface RedisProxy {
  port: number;
  url: string;
  cut(): Promise<void>;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let silent = false;
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((downstream) => {
        const upstream = connect(Number(targetPort || 6379), hostname);
        sockets.add(downstream).add(upstream);
        const forward = (from: Socket, to: Socket) => from.on('data', (chunk) => void (silent || to.write(chunk)));
        forward(downstream, upstream);
        forward(upstream, downstream);
        const end = () => {
          downstream.destroy();
          upstream.destroy();
          sockets.delete(downstream);
          sockets.delete(upstream);
        };
        downstream.on('close', end).on('error', end);
        upstream.on('close', end).on('error', end);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server) server.close(() => resolve());
      else resolve();
      server = undefined;
    });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    cut: stop,
    blackhole: () => {
      silent = true;
    },
    restore: async () => {
      silent = false;
      if (!server) await listen();
    },
    close: stop,
  };
}
