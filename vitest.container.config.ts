import { defineConfig } from 'vitest/config';

// `npm run test:container` (docker/test-container.sh): needs a Docker engine and the image
// topics-emulator:test, both prepared by that script. Stays out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
