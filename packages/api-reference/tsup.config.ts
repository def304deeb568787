import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.js';

const require = createRequire(import.meta.url);

// `import text from 'pkg/file?raw'` becomes the file's text in the bundle (Vite's `?raw`, which the
// tests that run the sources use): the Swagger UI files ship inside dist/, so the app serves them
// from memory on every runtime, reading no file.
// Swagger UI is Apache-2.0: its license, notice and the licenses of what its bundle holds ship beside it.
const NOTICES = ['LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'];

export default defineConfig({
  ...base,
  async onSuccess() {
    const from = dirname(require.resolve('swagger-ui-dist/package.json'));
    await mkdir('dist/swagger-ui', { recursive: true });
    for (const file of NOTICES) await copyFile(join(from, file), join('dist/swagger-ui', file));
  },
  esbuildPlugins: [
    {
      name: 'raw',
      setup(build) {
        // The path keeps its `?raw`, so that tsup's own CSS loader (`.css$`) leaves a stylesheet alone.
        build.onResolve({ filter: /\?raw$/ }, (args) => ({ path: `${require.resolve(args.path.slice(0, -'?raw'.length))}?raw`, namespace: 'raw' }));
        build.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({ contents: await readFile(args.path.slice(0, -'?raw'.length), 'utf8'), loader: 'text' }));
      },
    },
  ],
});
