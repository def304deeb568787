import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'docs/api/**', 'bench/.data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // A function a reader can hold in view: long ones are split into named parts.
    files: ['packages/*/src/**/*.ts'],
    // A test file's describe blocks are lists of cases, not functions to read at once.
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Core runs on every runtime: Web-standard APIs only (docs/runtimes.md).
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'bun', 'bun:*', 'deno', 'npm:*', 'jsr:*'], message: 'packages/core uses Web-standard APIs only.' }] },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'Bun', 'Deno', 'require', '__dirname'],
    },
  },
);
