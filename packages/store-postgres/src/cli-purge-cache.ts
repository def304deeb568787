/**
 * `catalogue-api purge-cache`: drops the response cache that the servers share in Redis, so that
 * every instance answers from the store again at once (after an import or a delete, while the
 * cache would otherwise keep serving what it holds until its entries expire).
 *
 * ```
 * catalogue-api purge-cache [--redis-url URL] [--prefix catalogue-api:]
 * ```
 *
 * The servers keep their cache under `<prefix>{cache:public}` and `<prefix>{cache:server}` (see
 * `@catalogue-api/redis`); every key of the prefix that starts so is deleted, nothing else (rate
 * limits, blocks and Server Keys stay). A server's cache in memory (no `REDIS_URL`) is its own: restart
 * it, or run it with `CACHE=off`. Exit codes: 0 done; 2 usage error; 3 Redis failed.
 * @module
 */
import { parseArgs } from 'node:util';

/** The usage of `purge-cache`. */
export const PURGE_CACHE_USAGE = `usage: catalogue-api purge-cache [options]

  --redis-url U   Redis URL (default: $REDIS_URL)
  --prefix P      the servers' REDIS_PREFIX (default: $REDIS_PREFIX, else catalogue-api:)

Deletes the shared response cache (<prefix>{cache:public}, <prefix>{cache:server} and their
index keys); rate limits, blocks and Server Keys stay.
Exit codes: 0 done; 2 usage error; 3 Redis failed.`;

/** A Redis glob matching `text` literally (`*`, `?`, `[`, `]` and `\\` are special in MATCH). */
const literalGlob = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * Runs `catalogue-api purge-cache`.
 * @param argv - The arguments after `purge-cache`.
 * @returns The exit code.
 * @throws Error when Redis fails (the CLI says so, exit code 3).
 */
export async function runPurgeCache(argv: string[]): Promise<number> {
  let values: { 'redis-url'?: string; prefix?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { 'redis-url': { type: 'string' }, prefix: { type: 'string' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${PURGE_CACHE_USAGE}`);
    return 2;
  }
  const url = values['redis-url'] ?? process.env.REDIS_URL;
  if (!url || !/^rediss?:$/.test(URL.parse(url)?.protocol ?? '')) {
    console.error(`purge-cache needs --redis-url or REDIS_URL, a redis:// or rediss:// URL${url ? `, got "${url.replace(/:[^:@/]*@/, ':***@')}"` : ''}\n\n${PURGE_CACHE_USAGE}`);
    return 2;
  }
  const prefix = values.prefix ?? (process.env.REDIS_PREFIX || 'catalogue-api:');
  let createClient: typeof import('redis').createClient;
  try {
    // Not a dependency of this package: installed with @catalogue-api/redis, which the servers use for REDIS_URL.
    ({ createClient } = await import('redis'));
  } catch {
    console.error('catalogue-api: purge-cache needs the redis package installed (npm install redis, or @catalogue-api/redis)');
    return 3;
  }
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let deleted = 0;
    for await (const keys of client.scanIterator({ MATCH: `${literalGlob(prefix)}{cache:*`, COUNT: 500 })) {
      if (keys.length > 0) deleted += await client.unlink(keys);
    }
    console.error(`response cache purged: ${deleted} Redis keys deleted under ${prefix}{cache:…}`);
    return 0;
  } finally {
    client.destroy();
  }
}
