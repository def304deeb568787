/**
 * Starting the example servers in socket tests, and the tests every one of them shares: the Bun,
 * Deno and Node servers (each on its own port, catalogue and status API) and the Express and
 * Fastify backends (the catalogue mounted under `/catalogue`).
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { statusSnapshotSchema } from '@catalogue-api/core/schemas';
import { defineHttpContract, defineRequestTargetContract, spawnServer, type SpawnedServer } from '@catalogue-api/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The repository root, with a trailing slash; the example servers start from it. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** How each example server starts from the repository root, and the variables it always gets. */
const EXAMPLES = {
  // The `bun` and `deno` npm packages (devDependencies) install their binaries here. Both run the
  // example's source, whose imports resolve to the packages' built `dist/`.
  bun: { command: `${repoRoot}node_modules/.bin/bun`, args: ['examples/bun/server.ts'], env: {} },
  deno: {
    command: `${repoRoot}node_modules/.bin/deno`,
    args: ['run', '--allow-net', '--allow-env', '--allow-read', '--config', 'examples/deno/deno.json', 'examples/deno/server.ts'],
    env: { NO_COLOR: '1' },
  },
  // The Node example's build, which imports the packages' `dist/`. The memory store and gateway,
  // even when the test run has DATABASE_URL/REDIS_URL set for other suites.
  node: { command: process.execPath, args: ['examples/node/dist/server.js'], env: { DATABASE_URL: '', REDIS_URL: '' } },
} satisfies Record<string, { command: string; args: string[]; env: Record<string, string> }>;

/** An example server with a port of its own. */
export type ExampleRuntime = keyof typeof EXAMPLES;

/**
 * Starts an example server on a free port at 127.0.0.1.
 * @param runtime - Which example.
 * @param env - Variables on top of the ones it always gets.
 */
export function startExample(runtime: ExampleRuntime, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const { command, args, env: always } = EXAMPLES[runtime];
  // Seeding the demo data into PostgreSQL takes over 20 s on a loaded machine; the hooks allow 60 s.
  return spawnServer({ command, args, cwd: repoRoot, env: { HOST: '127.0.0.1', ...always, ...env }, timeoutMs: 50_000 });
}

/**
 * Runs an example server that is expected to stop by itself (a setting it refuses), to the end of
 * its output; `startExample` may settle on the exit before all of stderr has been read.
 * @param runtime - Which example.
 * @param env - Variables on top of the ones it always gets.
 * @returns Its exit code (0 when it ended normally), all it wrote, and what it wrote on stderr.
 */
export function runExample(runtime: ExampleRuntime, env: Record<string, string>): Promise<{ code: number; output: string; stderr: string }> {
  const { command, args, env: always } = EXAMPLES[runtime];
  return new Promise((resolve) => {
    execFile(command, args, { cwd: repoRoot, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...always, ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr, stderr }),
    );
  });
}

/** A TCP port that was free a moment ago at 127.0.0.1 (for a second listener a test names itself). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Defines the tests every example server passes: the status API beside the catalogue, the whole
 * HTTP contract, and the request-target contract with Server Keys and restricted routes.
 * @param runtime - Which example.
 * @returns The server the contract runs against (started before the file's tests), for more tests.
 */
export function defineExampleServerTests(runtime: ExampleRuntime): () => SpawnedServer {
  const name = `${runtime} (examples/${runtime})`;
  let server: SpawnedServer;
  // The contract sends a few hundred requests in seconds: no rate limit for it.
  beforeAll(async () => void (server = await startExample(runtime, { RATE_LIMIT: 'off' })));
  afterAll(() => server?.close());

  it('serves the status API at /api/status beside the catalogue', async () => {
    const res = await fetch(`${server.url}/api/status`);
    expect(res.status).toBe(200);
    const snapshot = statusSnapshotSchema.parse(await res.json());
    expect(snapshot.services.map((service) => service.id)).toContain('catalogue-api');
  });

  it('serves the status page at /status and the API reference with its files at /v1/docs', async () => {
    const page = await fetch(`${server.url}/status`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>catalogue-api status</title>');
    const docs = await fetch(`${server.url}/v1/docs`);
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const bundle = (await docs.text()).match(/src="(docs\/swagger-ui-bundle\.js[^"]*)"/)![1]!;
    const script = await fetch(`${server.url}/v1/${bundle}`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('SwaggerUIBundle');
  });

  defineHttpContract({ runtime: name, baseUrl: () => server.url });

  describe('with restricted routes', () => {
    let restricted: SpawnedServer;
    beforeAll(async () => {
      restricted = await startExample(runtime, { RATE_LIMIT: 'off', SERVER_KEYS: 'key-one', RESTRICTED_ROUTES: '/v1/top/*,/v1/anime/:id/full' });
    });
    afterAll(() => restricted?.close());

    defineRequestTargetContract({ runtime: name, baseUrl: () => restricted.url, serverKey: 'key-one' });
  });

  describe('one connection pipelining 100,000 requests and never reading', () => {
    let flooded: SpawnedServer;
    beforeAll(async () => void (flooded = await startExample(runtime, { RATE_LIMIT: 'off' })));
    afterAll(() => flooded?.close());

    it('has only as many answered as its client could take, while a probe on another connection is served', async () => {
      const port = Number(new URL(flooded.url).port);
      const flood = connect(port, '127.0.0.1', () => flood.write('GET /v1/anime/1 HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100_000)));
      flood.pause();
      flood.on('error', () => undefined);
      try {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const started = performance.now();
        const probe = await fetch(`${flooded.url}/healthz`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(10_000) });
        expect(probe.status).toBe(200);
        expect(performance.now() - started).toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        // The access log names each answered request: what the kernel's socket buffers took (a
        // few MB of 3 KB answers), not 100,000.
        const answered = flooded.output().split('\n').filter((line) => line.includes('"path":"/v1/anime/1"')).length;
        expect(answered).toBeLessThan(10_000);
      } finally {
        flood.destroy();
      }
    });
  });
  return () => server;
}

/**
 * Defines the tests of a backend example that mounts the catalogue under `/catalogue`: the
 * backend's own routes still answer, the catalogue answers under the mount only, and the whole
 * HTTP contract passes at the mount.
 * @param example - The example's folder under `examples/`; it runs its `server.ts` through tsx.
 * @param backend - The framework's name, for the suite's name.
 * @param moreTests - Tests of this backend alone, defined in the same suite.
 */
export function defineMountedExampleTests(example: string, backend: string, moreTests?: (server: () => SpawnedServer) => void): void {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer({
      command: process.execPath,
      args: ['--import', 'tsx', 'server.ts'],
      cwd: `${repoRoot}examples/${example}`,
      // The contract sends a few hundred requests in seconds: no rate limit for it.
      env: { HOST: '127.0.0.1', RATE_LIMIT: 'off' },
    });
  });
  afterAll(() => server?.close());

  describe(`the ${backend} backend around the library`, () => {
    it('keeps answering its own routes', async () => {
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    });

    it('serves the catalogue under the mount path only', async () => {
      expect((await fetch(`${server.url}/catalogue/v1/anime?limit=1`)).status).toBe(200);
      const outside = await fetch(`${server.url}/v1/anime?limit=1`);
      expect(outside.status).toBe(404);
      expect(outside.headers.get('access-control-allow-origin')).toBeNull();
    });

    moreTests?.(() => server);
  });

  defineHttpContract({ runtime: `${example} (examples/${example}, mounted at /catalogue)`, baseUrl: () => `${server.url}/catalogue` });
}
