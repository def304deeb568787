import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias },
  test: { name: 'testkit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
