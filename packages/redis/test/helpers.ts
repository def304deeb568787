import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
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

/** The shared TCP proxy (`test/support/tcp-proxy.ts`) in front of Redis, with its `redis://` URL. */
export interface RedisProxy extends TcpProxy {
  url: string;
}

export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port } = new URL(target);
  const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
  return Object.assign(proxy, { url: `redis://127.0.0.1:${proxy.port}` });
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
