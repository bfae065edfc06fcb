import { describe, expect, it } from 'vitest';
import { REDIS_DEADLINE_MS } from '../../emulator/redis/redis-store.js';
import { testEmulator, until } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// Probe: with Redis stopped (SIGSTOP) for 20 s, publishes hung for the whole pause and health
// stayed 200, so a readiness probe kept sending traffic. Every Redis call has a deadline now
// (REDIS_DEADLINE_MS): past it the request answers 503 with Retry-After, later ones are refused at
// once, and health answers 503 until Redis answers again.

describe('Redis that stops answering', () => {
  const fleet = useFleet();

  it('answers 503 within the deadline, refuses at once meanwhile, reports it in health, and recovers', async () => {
    const replica = await testEmulator({ caches: ['cache'], store: fleet.redis().url, storePrefix: 'stall:' });
    fleet.running.push(replica);
    expect((await replica.publish('cache', 'paused', 'before')).status).toBe(204);
    fleet.redis().pause();
    try {
      let started = performance.now();
      const timedOut = await replica.publish('cache', 'paused', 'during');
      expect(timedOut.status).toBe(503);
      expect(timedOut.json.code).toBe('service_unavailable');
      expect(timedOut.headers.get('retry-after')).toBe('1');
      expect(performance.now() - started).toBeLessThan(REDIS_DEADLINE_MS + 2000);
      const health = await fetch(`${replica.url}/_emulator/health`);
      expect(health.status).toBe(503);
      started = performance.now();
      expect((await replica.publish('cache', 'paused', 'again')).status).toBe(503);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      fleet.redis().resume();
    }
    await until(() => replica.emulator.context.store.health().up, 'Redis to answer again', 10_000);
    expect((await fetch(`${replica.url}/_emulator/health`)).status).toBe(200);
    expect((await replica.publish('cache', 'paused', 'after')).status).toBe(204);
  });
});
