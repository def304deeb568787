import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias },
  // Vitest empties CSS files unless told otherwise, `?raw` imports included: the stylesheet is served.
  test: { name: 'api-reference', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], css: true },
});
