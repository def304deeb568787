import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'docs/vitest.config.ts', 'test/packaging/vitest.config.ts', 'test/browser/vitest.config.ts'],
  },
});
