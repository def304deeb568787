import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

// Socket tests: they spawn the example backend, which imports the built packages (root `pretest` builds).
export default defineProject({
  resolve: { alias },
  test: { name: 'example-express', include: ['test/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 60_000 },
});
