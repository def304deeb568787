import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

// The pages people open, in headless Chromium (Debian's `chromium`, driven by playwright-core). The
// suites skip, saying why, where /usr/bin/chromium is missing. `css: true`: the API reference's
// stylesheet is a `?raw` import, which Vitest would otherwise empty.
export default defineProject({
  resolve: { alias },
  test: { name: 'browser', include: ['*.test.ts'], css: true, testTimeout: 60_000, hookTimeout: 120_000 },
});
