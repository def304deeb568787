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
