// ESLint: typescript-eslint's type-checked recommendations over src/; the plain ones over tests,
// benches and scripts (their fixtures and fakes are loosely typed on purpose).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TYPED = ['src/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'completions/**', '**/*.d.ts', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async method that implements a Promise-returning interface need not await.
      '@typescript-eslint/require-await': 'off',
      // A caught value is rethrown as it came (it may not be an Error: it is not ours to wrap).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true, allowRethrowing: true },
      ],
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Node's event APIs (servers, child processes, timers) are given async handlers that catch their own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    // Tests read loosely typed JSON answers on purpose.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      // Control characters are what the terminal and XML sanitisers look for.
      'no-control-regex': 'off',
      // Prettier breaks a long call chain before `[Symbol.asyncIterator]()`; there is no ASI hazard in it.
      'no-unexpected-multiline': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
);
