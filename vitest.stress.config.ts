import { defineConfig } from 'vitest/config';

// `npm run test:stress`: the reliability suites of test/reliability/ at their long sizes
// (test/stress/). Minutes, not seconds, so it stays out of `npm test`; one file at a time, so
// the figures are not measured against each other's load.
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
