import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias },
  // The dataset tests rebuild and cross-check every collection: seconds of CPU, more on a loaded machine.
  test: { name: 'demo-data', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
