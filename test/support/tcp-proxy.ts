import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between a client and a server (Redis, PostgreSQL…) that a test can cut (connections
 * refused), stall or blackhole (connections open, nothing forwarded) and restore, without touching
 * the server others use.
 */
export interface TcpProxy {
  /** The port the proxy listens on, at 127.0.0.1. */
  port: number;
  /** Closes every connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  /** Holds every byte until `restore`, as a stalled server or network would (TCP delivers late, never loses). */
  stall(): void;
  /** Drops every byte; open connections stay silent for good (half-open), and after `restore` only new ones work. */
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a random port of 127.0.0.1.
 * @param target - Where to forward: the server's host and port.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
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
        const upstream = connect(target.port, target.host);
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
