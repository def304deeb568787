import type { Options } from 'tsup';

/** One build for every package: ESM + CJS with declarations (honojs/middleware style). */
export const base: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  treeshake: true,
};
