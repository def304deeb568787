import { defineProject } from 'vitest/config';
import { alias } from '../../vitest.shared.js';

// The packages as a user gets them: packed, linted, installed from their tarballs into a fresh
// project and run from there. Slow (npm pack, npm install, attw), hence its own project.
export default defineProject({
  resolve: { alias },
  test: { name: 'packaging', include: ['*.test.ts'], testTimeout: 300_000, hookTimeout: 900_000 },
});
