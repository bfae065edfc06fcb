import { defineConfig } from 'vitest/config';

// `npm run test:cli`: the command-line programs (topics-emulator, topics-conformance and its
// history checker, exam, the gRPC flags) run as a user runs them, each a child process. Their own
// script keeps `npm test` within its five minutes; `.ci/run` runs it on every Node it tests.
export const CLI_SUITES = [
  'test/emulator/cli.test.ts',
  'test/exam/cli.test.ts',
  'test/conformance/cli.test.ts',
  'test/conformance/history-cli.test.ts',
  'test/grpc/cli.test.ts',
];

export default defineConfig({
  test: {
    include: CLI_SUITES,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    restoreMocks: true,
  },
});
