import { spawn, spawnSync } from 'node:child_process';
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
  /** Holds every byte until `restore`, as a stalled Redis or network would (TCP delivers late, never loses). */
  stall(): void;
  /** Drops every byte; open connections stay silent for good (half-open), and after `restore` only new ones work. */
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let mode: 'pass' | 'stall' | 'drop' = 'pass';
  const held: [Socket, Buffer][] = [];
  // Connections that went half-open: they stay silent for good, as a real half-open connection does.
  const dead = new WeakSet<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((downstream) => {
        const upstream = connect(Number(targetPort || 6379), hostname);
        sockets.add(downstream).add(upstream);
        const forward = (from: Socket, to: Socket) =>
          from.on('data', (chunk: Buffer) => {
            if (dead.has(to)) return;
            if (mode === 'pass') to.write(chunk);
            else if (mode === 'stall') held.push([to, chunk]);
          });
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
    stall: () => {
      mode = 'stall';
    },
    blackhole: () => {
      mode = 'drop';
      for (const socket of sockets) dead.add(socket);
    },
    restore: async () => {
      mode = 'pass';
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
      if (!server) await listen();
    },
    close: stop,
  };
}

/** Whether a `redis-server` binary is on the PATH, for tests that start their own. */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;

/** A throwaway redis-server of a test's own, so that it may set `maxmemory` and its policy. */
export interface OwnRedis {
  url: string;
  /** A connected node-redis client, for INFO, CONFIG and reads on this server only. */
  client: {
    info(section: string): Promise<string>;
    configSet(name: string, value: string): Promise<unknown>;
    get(key: string): Promise<string | null>;
  };
  /** `used_memory` from `INFO memory`, in bytes. */
  usedMemory(): Promise<number>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `redis-server` on a random port, without persistence, with the given settings.
 * @param settings - Extra `--name value` settings, e.g. `{ 'maxmemory-policy': 'noeviction' }`.
 */
export async function startOwnRedis(settings: Record<string, string> = {}): Promise<OwnRedis> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    for (const [name, value] of Object.entries(settings)) args.push(`--${name}`, value);
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const started = await new Promise<boolean>((resolve) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false));
    });
    if (!started) {
      // Another process took the port between the probe and the start: try another.
      if (attempt < 5) continue;
      throw new Error('redis-server did not start');
    }
    const url = `redis://127.0.0.1:${port}`;
    const client = createClient({ url });
    await client.connect();
    return {
      url,
      client,
      usedMemory: async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]),
      stop: async () => {
        client.destroy();
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
}
