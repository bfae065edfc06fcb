import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { EmulatorSettings } from '../../emulator/index.js';
import { baseUrlOf, runCli } from '../helpers/cli.js';
import { testEmulator, until, type Reply, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// The account limits of replicas on one Redis are the whole emulator's: one operations window
// per cache (a delivered item counting too), following the shared emulator clock, and the
// concurrent subscriptions of every replica counted together.

const fleet = useFleet();
let prefixes = 0;

async function pair(options: Partial<EmulatorSettings>): Promise<[TestEmulator, TestEmulator, string]> {
  const prefix = `limits-${++prefixes}:`;
  const start = async () => {
    const settings = { caches: ['cache'], store: fleet.redis().url, storePrefix: prefix, limits: 'account' as const };
    const replica = await testEmulator({ ...settings, ...options });
    fleet.running.push(replica);
    return replica;
  };
  return [await start(), await start(), prefix];
}

/** Both replicas on one frozen reading of the virtual clock. */
async function freeze(a: TestEmulator, b: TestEmulator, at: string): Promise<void> {
  a.emulator.setClock({ mode: 'virtual', setTo: at });
  await until(() => b.emulator.clock().now === at, 'b to follow the clock');
}

/** Advances the clock on `a` and waits until `b` reads the same. */
async function advance(a: TestEmulator, b: TestEmulator, ms: number): Promise<void> {
  a.emulator.advanceClock(ms);
  const now = a.emulator.clock().now;
  await until(() => b.emulator.clock().now === now, 'b to follow the advance');
}

/** `count` publishes, one at a time, alternating between the replicas (a first). */
async function alternate(a: TestEmulator, b: TestEmulator, topic: string, count: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < count; i++) replies.push(await (i % 2 ? b : a).publish('cache', topic, `m${i}`));
  return replies;
}

const statuses = (replies: Reply[]) => replies.map((r) => r.status);

describe('account limits across replicas', () => {
  it('operations: one window for both replicas, 429 with Retry-After beyond it, admitted again in the next second', async () => {
    const [a, b] = await pair({ limitOperationsPerSecond: 10 });
    await freeze(a, b, '2030-01-01T00:00:00.250Z');
    const replies = await alternate(a, b, 'counted', 14);
    expect(statuses(replies)).toEqual([...Array(10).fill(204), ...Array(4).fill(429)]);
    for (const refused of replies.slice(10)) {
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.json).toEqual({
        code: 'limit_exceeded',
        message: 'Account limits were exceeded: 10 operations in this second (limit 10 per second).',
      });
    }
    await until(() => a.emulator.context.store.position('cache', 'counted')?.next === 11, 'a to hold 10 messages');
    await advance(a, b, 749); // the same second
    expect((await b.publish('cache', 'counted', 'still')).status).toBe(429);
    await advance(b, a, 1); // the next second, advanced through the other replica
    expect(statuses(await alternate(b, a, 'counted', 11))).toEqual([...Array(10).fill(204), 429]);
    // a took 7 + 5 of these publishes, each admitted or refused in one round trip.
    const metrics = await (await fetch(`${a.url}/_emulator/metrics`)).text();
    expect(metrics).toMatch(/^topics_emulator_store_round_trip_seconds_count\{script="admitLimit"\} 12$/m);
  });

  it('operations admitted at once on both replicas never exceed the limit', async () => {
    const [a, b] = await pair({ limitOperationsPerSecond: 25 });
    await freeze(a, b, '2030-01-01T00:00:00.000Z');
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).publish('cache', 'race', 'x')),
    );
    expect(replies.filter((r) => r.status === 204)).toHaveLength(25);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(35);
  });

  it('an item delivered by one replica is an operation of the window the other counts in', async () => {
    const [a, b] = await pair({ limitOperationsPerSecond: 10 });
    await freeze(a, b, '2030-01-01T00:00:00.000Z');
    expect(statuses(await alternate(a, b, 'read', 4))).toEqual([204, 204, 204, 204]);
    await until(() => b.emulator.context.store.position('cache', 'read')?.next === 5, 'b to hold 4 messages');
    const read = await b.subscribe('cache', 'read', { seq: 1 });
    expect(read.json.items).toHaveLength(4); // 8 operations
    await until(() => b.emulator.limits().usage.operations === 8, 'the delivery to be counted');
    expect(statuses(await alternate(a, b, 'read', 3))).toEqual([204, 204, 429]);
    expect((await a.subscribe('cache', 'read', { seq: 7 })).status).toBe(429); // the window is used up
  });

  it('a reset on one replica opens the shared window again', async () => {
    const [a, b, prefix] = await pair({ limitOperationsPerSecond: 3 });
    await freeze(a, b, '2030-01-01T00:00:00.000Z');
    expect(statuses(await alternate(a, b, 'reset', 4))).toEqual([204, 204, 204, 429]);
    const redis = new Redis(fleet.redis().url);
    try {
      let resetOnB = false;
      const stop = b.emulator.context.events.on((event) => {
        if (event.kind === 'control' && event.operationId === 'reset') resetOnB = true;
      });
      a.emulator.reset();
      await until(() => resetOnB, 'b to apply the reset');
      stop();
      // Deleted by a before it passed the reset on (b does not delete it again).
      expect(await redis.exists(`${prefix}ops:"cache"`)).toBe(0);
      expect((await b.publish('cache', 'reset', 'again')).status).toBe(204);
    } finally {
      redis.disconnect();
    }
  });

  it('subscriptions waiting on both replicas count together against concurrentSubscriptions', async () => {
    const [a, b] = await pair({ limitConcurrentSubscriptions: 2 });
    const onA = a.subscribe('cache', 'wait-a');
    const onB = b.subscribe('cache', 'wait-b');
    await until(() => a.emulator.context.waiting.size === 1 && b.emulator.context.waiting.size === 1, 'both to wait');
    for (const replica of [a, b]) {
      const refused = await replica.subscribe('cache', 'third');
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
      expect(refused.json.message).toMatch(/2 concurrent subscriptions \(limit 2\)/);
    }
    // One ends: a place is free (a's release goes before a's next admission on its one connection).
    expect((await b.publish('cache', 'wait-a', 'wake')).status).toBe(204);
    expect((await onA).json.items).toHaveLength(1);
    await until(() => a.emulator.limits().usage.subscriptions === 0, 'a to release its subscription');
    const third = a.subscribe('cache', 'third');
    await until(() => a.emulator.context.waiting.size === 1, 'the third to wait');
    expect((await b.subscribe('cache', 'fourth')).status).toBe(429);
    a.emulator.reset();
    await Promise.all([onB, third]);
  });

  it("GET and PUT /_emulator/limits and GET /_emulator/state on either replica show every replica's usage", async () => {
    const [a, b] = await pair({ limitOperationsPerSecond: 50, limitConcurrentSubscriptions: 10 });
    await freeze(a, b, '2030-01-01T00:00:00.000Z');
    expect(statuses(await alternate(a, b, 'used', 5))).toEqual([204, 204, 204, 204, 204]);
    const onA = a.subscribe('cache', 'wait-a');
    const onB = [b.subscribe('cache', 'wait-b'), b.subscribe('cache', 'wait-b')];
    await until(() => a.emulator.context.waiting.size === 1 && b.emulator.context.waiting.size === 2, 'three to wait');
    const usageOf = async (replica: TestEmulator, path: string) => {
      const response = await fetch(`${replica.url}/_emulator/${path}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { usage?: object; limits?: { usage: object } };
      return body.usage ?? body.limits!.usage;
    };
    // 5 publishes over both replicas in the frozen second (a subscribe's operations are the items it delivers:
    // none yet), and 3 subscribes waiting on them.
    const whole = { windowStartedAt: '2030-01-01T00:00:00.000Z', operations: 5, subscriptions: 3 };
    for (const replica of [a, b]) {
      expect(await usageOf(replica, 'limits')).toEqual(whole);
      expect(await usageOf(replica, 'state')).toEqual(whole);
    }
    const put = await fetch(`${a.url}/_emulator/limits`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operationsPerSecond: 50 }),
    });
    expect(((await put.json()) as { usage: object }).usage).toEqual(whole);
    // In process, a replica's own view: its subscriptions only.
    expect(a.emulator.limits().usage.subscriptions).toBe(1);
    a.emulator.reset();
    await Promise.all([onA, ...onB]);
  });

  it("a replica's subscriptions count while it is alive (the alive sorted set); a dead replica's are dropped", async () => {
    const [a, , prefix] = await pair({ limitConcurrentSubscriptions: 2 });
    const redis = new Redis(fleet.redis().url);
    try {
      const subscriptions = `${prefix}subs:"cache"`;
      // A replica killed with SIGKILL: its count stays, it is no longer in the alive set.
      await redis.hset(subscriptions, 'dead-replica', 5);
      const admitted = a.subscribe('cache', 'alive');
      await until(() => a.emulator.context.waiting.size === 1, 'the subscribe to wait');
      expect(await redis.hget(subscriptions, 'dead-replica')).toBeNull();
      // A replica alive elsewhere: its one subscription counts.
      await redis.hset(subscriptions, 'live-replica', 1);
      const [seconds] = await redis.time();
      await redis.zadd(`${prefix}alive`, Number(seconds) * 1000 + 60_000, 'live-replica');
      expect((await a.subscribe('cache', 'refused')).status).toBe(429);
      a.emulator.reset();
      await admitted;
    } finally {
      redis.disconnect();
    }
  });

  it('a replica killed with SIGKILL: its subscriptions count until its time in the alive set is up (at most 10 s), then not', async () => {
    const [a, , prefix] = await pair({ limitConcurrentSubscriptions: 2 });
    const redis = new Redis(fleet.redis().url);
    try {
      const cli = ['--port', '0', '--store', fleet.redis().url, '--store-prefix', prefix, '--cache', 'cache'];
      const child = runCli([...cli, '--limits', 'account', '--limit-subscriptions', '2', '--log-level', 'warn']);
      fleet.children.push(child);
      const url = await baseUrlOf(child);
      const onChild = fetch(`${url}/topics/cache/on-child`, { headers: { authorization: a.key } }).catch(() => null);
      // Admitted (and counted) before its handler creates the topic, which a then sees.
      await until(
        () => a.emulator.context.store.position('cache', 'on-child') !== undefined,
        'the child to wait',
        10_000,
      );
      const [childReplica] = await redis.hkeys(`${prefix}subs:"cache"`);
      const onA = a.subscribe('cache', 'on-a');
      await until(() => a.emulator.context.waiting.size === 1, 'a subscribe to wait on a');
      expect((await a.subscribe('cache', 'third')).status).toBe(429);
      child.child.kill('SIGKILL');
      await child.exited;
      expect(await onChild).toBeNull();
      // Nothing refreshes the dead replica's entry: its time is up within 10 s, and it counts until then.
      const alive = `${prefix}alive`;
      const [seconds, micros] = await redis.time();
      const left = Number(await redis.zscore(alive, childReplica!)) - (Number(seconds) * 1000 + Number(micros) / 1000);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(10_000);
      expect((await a.subscribe('cache', 'third')).status).toBe(429);
      await redis.zadd(alive, 0, childReplica!); // its time up, without waiting the seconds left
      const third = a.subscribe('cache', 'third');
      await until(() => a.emulator.context.waiting.size === 2, 'the third to wait');
      expect(await redis.hget(`${prefix}subs:"cache"`, childReplica!)).toBeNull();
      a.emulator.reset();
      await Promise.all([onA, third]);
    } finally {
      redis.disconnect();
    }
  });

  it("with Redis out of reach, GET /_emulator/limits answers 503 and a PUT is made and answered with this replica's usage", async () => {
    const [a] = await pair({});
    await fleet.redis().kill();
    try {
      await until(() => !a.emulator.context.store.health().up, 'the store to be lost', 10_000);
      const read = await fetch(`${a.url}/_emulator/limits`);
      expect(read.status).toBe(503);
      expect(await read.json()).toMatchObject({ code: 'service_unavailable' });
      const put = await fetch(`${a.url}/_emulator/limits`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operationsPerSecond: 7 }),
      });
      expect(put.status).toBe(200);
      expect(await put.json()).toMatchObject({ operationsPerSecond: 7, usage: { operations: 0, subscriptions: 0 } });
      expect(a.emulator.limits().operationsPerSecond).toBe(7);
    } finally {
      await fleet.redis().restart();
    }
  });
});
