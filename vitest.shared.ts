import { fileURLToPath } from 'node:url';

const packages = ['core', 'adapter-node', 'adapter-bun', 'adapter-deno', 'demo-data', 'testkit', 'redis', 'store-postgres', 'api-reference'];

/** Tests run against the sources; the example servers that socket tests spawn run the built packages. */
export const alias = Object.fromEntries([
  // Core's subpaths first: an alias also takes the paths below it, and the first that matches wins.
  ...['schemas', 'store', 'upstream'].map((entry) => [
    `@catalogue-api/core/${entry}`,
    fileURLToPath(new URL(`./packages/core/src/entry-${entry}.ts`, import.meta.url)),
  ]),
  ...packages.map((name) => [
    `@catalogue-api/${name}`,
    fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
  ]),
]);
