import { defineConfig } from 'vitest/config';

// `npm run test:package`: packs the repository, installs the tarball into a fresh project and
// runs it from there. Slow (a build and a registry install), so it stays out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
