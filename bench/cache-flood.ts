/**
 * The example Node server under a flood of unique long URLs: what the response cache lets it keep.
 * Starts `examples/node/server.ts` from the sources (as `npm start` does) with `RATE_LIMIT=off`, so
 * that the flood gets through, on a random port; sends `--count` GET requests for unique URLs whose
 * query is `--length` characters long, `--concurrency` at a time; and prints the server's resident
 * set size (`ps -o rss`) before and after, as JSON on the last line.
 *
 * Usage:
 *
 *     npx tsx bench/cache-flood.ts                                  # 50,000 × 15 KB on /v1/anime/1/moreinfo
 *     npx tsx bench/cache-flood.ts --count 10000 --length 1500 --target /v1/anime
 *     REDIS_URL=redis://127.0.0.1:6379 REDIS_PREFIX=flood: npx tsx bench/cache-flood.ts   # the Redis back end
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50000' },
    length: { type: 'string', default: '15000' },
    concurrency: { type: 'string', default: '16' },
    target: { type: 'string', default: '/v1/anime/1/moreinfo' },
  },
});
const count = Number(values.count);
const length = Number(values.length);
const concurrency = Number(values.concurrency);

const rssMiB = (pid: number) => Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;

const server = spawn(process.execPath, ['--import', 'tsx', '--import', './examples/node/raw-imports.mjs', 'examples/node/server.ts'], {
  cwd: root,
  env: { ...process.env, PORT: '0', RATE_LIMIT: 'off', TSX_TSCONFIG_PATH: 'examples/node/tsconfig.json' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<URL>((resolve, reject) => {
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const match = /listening on (http:\/\/\S+?)\/v1/.exec(output);
    if (match) resolve(new URL(match[1]!));
  });
  server.once('exit', (code) => reject(new Error(`the example server exited (${code})`)));
});

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const get = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });

async function flood(total: number, pathOf: (i: number) => string): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const status = await get(pathOf(next++));
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const separator = values.target.includes('?') ? '&' : '?';
const filler = 'q'.repeat(Math.max(0, length - 10));
// Warm up: the routes and the first allocations are not the cache's.
await flood(1_000, (i) => `${values.target}${separator}w=${i}`);
const before = rssMiB(server.pid!);
process.stderr.write(`flooding ${count} unique URLs of ~${length} characters on ${values.target}…\n`);
const statuses = await flood(count, (i) => `${values.target}${separator}x=${i.toString(36).padStart(8, '0')}${filler}`);
const after = rssMiB(server.pid!);
agent.destroy();
server.kill('SIGTERM');
console.log(JSON.stringify({ count, length, target: values.target, statuses, rssBeforeMiB: Math.round(before), rssAfterMiB: Math.round(after) }));
