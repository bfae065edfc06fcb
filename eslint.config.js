// ESLint (flat config): typescript-eslint's type-checked rules over every TypeScript file;
// Prettier owns the layout (eslint-config-prettier turns off the rules it would fight).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const REDIS_ONLY_FROM_BACKEND = {
  group: ['**/redis/*'],
  message: 'only backend/open.ts loads redis/ (lazily, for --store redis://)',
};

const GRPC_ONLY_IN_GRPC = {
  group: ['@grpc/grpc-js', '@gomomento/generated-types', '@gomomento/generated-types/**'],
  message: "the provider's gRPC code is the gRPC door's alone (emulator/grpc/)",
};

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
  // The layering (ARCHITECTURE.md), so a wrong import fails `npm run lint`. Redis is loaded by
  // backend/open.ts alone, and only for --store redis:// (the blocks below say it again, as a
  // later block's rule replaces an earlier one's for the files both match).
  {
    files: ['emulator/**/*.ts'],
    ignores: ['emulator/backend/open.ts', 'emulator/redis/**', 'emulator/grpc/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [REDIS_ONLY_FROM_BACKEND, GRPC_ONLY_IN_GRPC] }],
    },
  },
  // The HTTP door translates; it takes nothing from the gRPC doors (start.ts wires gRPC-web onto its port).
  {
    files: ['emulator/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/grpc/*'], message: 'the HTTP door imports nothing from grpc/' },
            REDIS_ONLY_FROM_BACKEND,
            GRPC_ONLY_IN_GRPC,
          ],
        },
      ],
    },
  },
  // What decides and what stores knows no door: no fastify, no gRPC, nothing of http/ or grpc/.
  {
    files: [
      'emulator/core.ts',
      'emulator/cache/**/*.ts',
      'emulator/service/**/*.ts',
      'emulator/faults/**/*.ts',
      'emulator/snapshot/**/*.ts',
      'emulator/scenario/**/*.ts',
      'emulator/metrics/**/*.ts',
      'emulator/live/**/*.ts',
      'emulator/auth/**/*.ts',
      'emulator/security/**/*.ts',
      'emulator/limits/**/*.ts',
      'emulator/topics/**/*.ts',
      'emulator/backend/backend.ts',
      'emulator/backend/replica-link.ts',
      'emulator/redis/**/*.ts',
      'emulator/journal/**/*.ts',
      'emulator/admission.ts',
      'emulator/context.ts',
      'emulator/control/controls.ts',
      'emulator/control/state-view.ts',
      'emulator/control/journal-reads.ts',
      'emulator/control/replication.ts',
      'emulator/control/token-withdrawals.ts',
      'emulator/waiting.ts',
      'emulator/recording.ts',
      'emulator/requests.ts',
    ],
    // Their HTTP glue: the metrics scrape's route and the CORS plugin's registration.
    ignores: ['emulator/metrics/handler.ts', 'emulator/security/cors.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'fastify', message: 'the deciders and the store know no HTTP framework (use logging.ts Log)' },
            { name: '@grpc/grpc-js', message: 'the deciders and the store know no gRPC' },
          ],
          patterns: [
            { group: ['**/http/*', '**/grpc/*'], message: 'the deciders and the store know neither door' },
            REDIS_ONLY_FROM_BACKEND,
            GRPC_ONLY_IN_GRPC,
          ],
        },
      ],
    },
  },
  // The gRPC door translates; it takes nothing from the HTTP door (gRPC-web, on the HTTP port, is HTTP's).
  {
    files: ['emulator/grpc/**/*.ts'],
    ignores: ['emulator/grpc/web.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http/*'], message: 'the gRPC door imports nothing from http/' },
            REDIS_ONLY_FROM_BACKEND,
          ],
        },
      ],
    },
  },
  // The dashboard runs in a browser: of the emulator it takes types (the event stream's and the
  // journal's), and one function shared so it filters the journal as the server does.
  {
    files: ['dashboard/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/emulator/(?!journal/query\\.js$)',
              allowTypeImports: true,
              message: 'the dashboard takes only types from the emulator (and journal/query.js, the shared matcher)',
            },
            { group: ['node:*'], message: 'the dashboard runs in a browser' },
          ],
        },
      ],
    },
  },
  // The vitest helpers use the emulator as users do, through its public API.
  {
    files: ['testing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/emulator/**', '!**/emulator/index.js'],
              message: 'the vitest helpers use the emulator through its public API (emulator/index.ts)',
            },
          ],
        },
      ],
    },
  },
  // The testcontainers module talks to the image over HTTP: no emulator code at all.
  {
    files: ['testcontainers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/emulator/**'], message: 'the testcontainers module talks to the image over HTTP' }],
        },
      ],
    },
  },
  // What judges any endpoint or client, and the typed client, import nothing of the emulator.
  {
    files: ['conformance/**/*.ts', 'judge/**/*.ts', 'client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/emulator/*', '**/emulator/**'], message: 'imports nothing of the emulator' }] },
      ],
    },
  },
  // The plain JavaScript here (this file, scripts/executable-bins.mjs) runs on Node.
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', URL: 'readonly' } } },
  // The example clients the exam judges (fixtures/clients/) and the SDK programs the SDK suites run
  // (test/sdk-suites/programs/) use Node's web globals.
  {
    files: ['fixtures/clients/*.mjs', 'test/sdk-suites/programs/*.mjs'],
    languageOptions: {
      globals: {
        fetch: 'readonly',
        AbortController: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        console: 'readonly',
      },
    },
  },
  prettier,
);
