/**
 * `import text from 'some-package/file?raw'` as the file's text, for `npm start`, which runs the
 * workspace sources with tsx: `@catalogue-api/api-reference` imports Swagger UI's files that way,
 * as Vite does, and its tsup build inlines them (`packages/api-reference/tsup.config.ts`); tsx has
 * no such loader. Registered after tsx (`node --import tsx --import ./examples/node/raw-imports.mjs`),
 * so that these hooks see a `?raw` specifier first (Node runs the last registered hooks first:
 * https://nodejs.org/docs/latest-v20.x/api/module.html#customization-hooks).
 */
import { register } from 'node:module';

register('./raw-imports-hooks.mjs', import.meta.url);
