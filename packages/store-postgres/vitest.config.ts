import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias },
  test: { name: 'store-postgres', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
