import { defineConfig } from 'vitest/config';

// `npm run test:load`: verdicts under real conditions. Six CPU-bound processes run beside the
// suites the whole time (test/load/hogs.ts); the conformance suite runs behind a latency proxy
// (test/load/), and the project's own exam and conformance tests run as they are. One file at
// a time: the load is the hogs', not the suites' against each other.
export default defineConfig({
  test: {
    include: ['test/load/**/*.test.ts', 'test/exam/clients.test.ts', 'test/conformance/emulator.test.ts'],
    globalSetup: ['test/load/hogs.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    restoreMocks: true,
  },
});
