// ESLint: typed rules that catch lost promises, plus the layering rule that keeps side effects in providers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'libs/db/src/generated/**', '.jest-cache/**', 'scratch/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      // Another lib, app or the test support is reached through its package alias (#contracts, #fetch/…), never by path.
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./){2,}', message: 'Import another lib through its alias (#lib), not ../../' }, { regex: '^(\\.\\./)+(libs|apps|test)/', message: 'Import through the package alias (#lib, #apps/…, #test/…)' }] }],
    },
  },
  {
    // Services hold logic; only providers (repositories, clients, pools) touch Prisma, BullMQ, Playwright or undici.
    files: ['apps/gateway/src/**/*.service.ts', 'libs/billing/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['bullmq', 'playwright-core', 'undici', 'pg', '@prisma/client'],
          patterns: [
            { group: ['**/generated/prisma/**'] },
            { regex: '^(\\.\\./){2,}', message: 'Import another lib through its alias (#lib), not ../../' },
          ],
        },
      ],
    },
  },
);
