import { defineConfig } from 'vitest/config';

// `npm run test:docs`: every shell and code example of the README and docs/, run as printed
// (test/docs/examples.test.ts; each against an emulator of its own on free ports). Its own script:
// the conformance suite and the history checker among them take half a minute of CPU.
export default defineConfig({
  test: {
    include: ['test/docs/examples.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 30_000,
    restoreMocks: true,
  },
});
