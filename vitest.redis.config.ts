import { defineConfig } from 'vitest/config';

// `npm run test:redis`: the store contract suite against both stores, and several replicas on one
// real redis-server (test/redis/setup.sh installs Debian's package when it is missing). Each
// file starts its own redis-server on an ephemeral port, so they stay out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/redis/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    fileParallelism: false,
  },
});
