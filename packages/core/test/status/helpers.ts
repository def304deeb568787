/**
 * Test helpers for the status API: a clock to move by hand, local HTTP targets to switch up, slow
 * and down, and timers fired on demand.
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Timers } from '../../src/status/checker.js';

/** A clock the test moves. */
export interface TestClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function createTestClock(start: number): TestClock {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

/** How a target answers: 200 at once, 200 after `slowMs` of clock time, 503, or never. */
export type TargetMode = 'up' | 'slow' | 'down' | 'limited' | 'hang';

/** A local HTTP service to monitor. */
export interface Target {
  url: string;
  mode: TargetMode;
  requests: number;
  close(): Promise<void>;
}

/**
 * Starts a target on a free port. `slow` moves the injected clock instead of sleeping, so the
 * checker measures a long latency without the test waiting for it.
 */
export async function startTarget(clock: TestClock, slowMs = 3_000): Promise<Target> {
  const hanging = new Set<() => void>();
  const target: Target = { url: '', mode: 'up', requests: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    target.requests += 1;
    switch (target.mode) {
      case 'up':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      case 'slow':
        clock.advance(slowMs);
        return void res.writeHead(200).end('{"ok":true}');
      case 'down':
        return void res.writeHead(503).end('{"status":503}');
      case 'limited':
        return void res.writeHead(429).end('{"status":429}');
      case 'hang':
        hanging.add(() => res.destroy());
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  target.close = () =>
    new Promise<void>((resolve) => {
      for (const end of hanging) end();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return target;
}

/** Timers that fire only when the test says so. */
export interface ManualTimers extends Timers {
  /** Pending callbacks with their delays. */
  pending(): { ms: number }[];
  /** Fires every pending callback with this delay (all when omitted). */
  fire(ms?: number): void;
}

export function createManualTimers(): ManualTimers {
  let next = 1;
  const queue = new Map<number, { callback: () => void; ms: number }>();
  return {
    setTimeout(callback, ms) {
      const id = next++;
      queue.set(id, { callback, ms });
      return id;
    },
    clearTimeout(handle) {
      queue.delete(handle as number);
    },
    pending: () => [...queue.values()].map(({ ms }) => ({ ms })),
    fire(ms) {
      for (const [id, entry] of [...queue]) {
        if (ms !== undefined && entry.ms !== ms) continue;
        queue.delete(id);
        entry.callback();
      }
    },
  };
}

export const MINUTE = 60_000;
