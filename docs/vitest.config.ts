import { defineProject } from 'vitest/config';
import { alias } from '../vitest.shared.js';

// The docs' code examples: type-checked, run, and kept identical to the snippets in the pages.
export default defineProject({
  resolve: { alias },
  test: { name: 'docs', include: ['examples/**/*.test.ts'], testTimeout: 60_000 },
});
