import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the dashboard in a real browser (Debian's chromium, driven by
// puppeteer-core), after test/browser/setup.sh made sure there is one and the dashboard is built.
// Outside `npm test`: it needs a browser and takes a while.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    restoreMocks: true,
  },
});
