import { afterAll, afterEach, beforeAll } from 'vitest';
import type { EmulatorSettings } from '../../emulator/index.js';
import { baseUrlOf, runCli, type CliRun } from '../helpers/cli.js';
import { testEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startRedis, type RedisOptions, type RedisServer } from './redis-server.js';

/**
 * One redis-server for a test file (or a describe block), and the replicas and child processes a
 * test starts on it, closed (or SIGKILLed) after each test. Call at the top level of the file or block.
 */
export function useFleet(options: RedisOptions = {}): {
  redis: () => RedisServer;
  running: TestEmulator[];
  children: CliRun[];
  /** A replica on `prefix` in a child process (the CLI, cache `cache`), killed after the test; with its base URL. */
  child: (prefix: string) => Promise<{ run: CliRun; url: string }>;
  /** Starts replicas in this process (cache `cache`, and `options`) on a prefix of their own, `<name>-<n>:`, closed after the test. */
  starter: (name: string, options?: Partial<EmulatorSettings>) => () => Promise<TestEmulator>;
} {
  let redis: RedisServer | undefined;
  const running: TestEmulator[] = [];
  const children: CliRun[] = [];
  let prefixes = 0;
  beforeAll(async () => {
    redis = await startRedis(options);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((replica) => replica.close()));
    for (const child of children.splice(0)) {
      child.child.kill('SIGKILL');
      await child.exited;
    }
  });
  return {
    redis: () => {
      if (!redis) throw new Error('redis-server is not started yet');
      return redis;
    },
    running,
    children,
    starter(name, options = {}) {
      const prefix = `${name}-${++prefixes}:`;
      return async () => {
        if (!redis) throw new Error('redis-server is not started yet');
        const replica = await testEmulator({ caches: ['cache'], store: redis.url, storePrefix: prefix, ...options });
        running.push(replica);
        return replica;
      };
    },
    async child(prefix) {
      if (!redis) throw new Error('redis-server is not started yet');
      const run = runCli([
        '--port',
        '0',
        '--store',
        redis.url,
        '--store-prefix',
        prefix,
        '--cache',
        'cache',
        '--log-level',
        'warn',
      ]);
      children.push(run);
      return { run, url: await baseUrlOf(run) };
    },
  };
}
