import { defineConfig } from 'vitest/config';
import { CLI_SUITES } from './vitest.cli.config.js';

// The default suite: everything `npm test` runs, bounded to stay well under five minutes.
// Heavy suites (container, package, stress) live under their own folders and configs; the exam of
// the example clients and the conformance suite against the emulator run in `npm run test:load`
// (beside six CPU-bound processes), which CI runs too; the docs' examples in `npm run test:docs`;
// the command-line programs as child processes in `npm run test:cli`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/container/**',
      'test/package/**',
      'test/stress/**',
      'test/browser/**',
      'test/redis/**',
      'test/load/**',
      'test/sdk-suites/**',
      'test/exam/clients.test.ts',
      'test/conformance/emulator.test.ts',
      'test/docs/examples.test.ts',
      ...CLI_SUITES,
      'node_modules/**',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    restoreMocks: true,
  },
});
