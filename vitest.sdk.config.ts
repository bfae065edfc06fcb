import { defineConfig } from 'vitest/config';

// `npm run test:sdk`: the cases of the provider's SDK suites written for momento-local, rewritten
// as the project's own, against one `topics-emulator --grpc-port P --test-admin-port A` started by
// the CLI (test/sdk-suites/emulator.ts). One file at a time: a blocked test-admin port is the
// whole emulator's, as on momento-local.
export default defineConfig({
  test: {
    include: ['test/sdk-suites/**/*.test.ts'],
    globalSetup: ['test/sdk-suites/emulator.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    restoreMocks: true,
  },
});
