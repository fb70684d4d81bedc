// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Layers may only depend downward: core and sim are pure (no vscode, no network). */
const pureLayerImports = {
  patterns: [
    { group: ['vscode'], message: 'core/ and sim/ must not import vscode.' },
    { group: ['http', 'https', 'net', 'node:http', 'node:https', 'node:net', '@kubernetes/client-node'], message: 'core/ and sim/ must not touch the network.' },
    { group: ['**/extension/**', '**/server/**', '**/cluster/**', '**/cli/**'], message: 'core/ and sim/ must not depend on upper layers.' },
  ],
};

export default tseslint.config(
  { ignores: ['**/dist/**', 'media/**', '**/node_modules/**', '.vscode-test/**', 'bin/**', '.e2e/**', '.tools/**', 'test/e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/sim/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', pureLayerImports] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...pureLayerImports.patterns, { group: ['**/sim/**'], message: 'core/ must not depend on the simulator.' }] }],
    },
  },
);
