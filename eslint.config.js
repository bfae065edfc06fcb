// ESLint (flat config): typescript-eslint's type-checked rules over every TypeScript file;
// Prettier owns the layout (eslint-config-prettier turns off the rules it would fight).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.tmp/', 'coverage/', 'node_modules/', 'emulator/generated/', 'openapi/generated/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // fastify tells an async hook from a callback hook by its returning a promise, and
      // testcontainers' hooks are async methods: an async function without await is the idiom.
      '@typescript-eslint/require-await': 'off',
      // As tsc's noUnusedParameters: a leading underscore marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read answers as parsed JSON (`any`) and let expect() judge their shape; the
    // no-unsafe-* rules guard the shipped code. Every other type-aware rule applies to tests.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // The plain JavaScript here (this file, scripts/executable-bins.mjs) runs on Node.
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', URL: 'readonly' } } },
  prettier,
);
