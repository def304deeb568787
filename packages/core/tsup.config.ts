import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.js';

// The main entry point, and the subpaths `@catalogue-api/core/schemas`, `/store` and `/upstream`.
export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', schemas: 'src/entry-schemas.ts', store: 'src/entry-store.ts', upstream: 'src/entry-upstream.ts' },
});
