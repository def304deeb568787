import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias },
  test: { name: 'adapter-node', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
