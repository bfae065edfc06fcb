import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startGrpcEmulator } from '../grpc/harness.js';
import { until } from '../helpers/emulator.js';
import { DOORS, doorOf, STATUS, type Door } from './doors.js';

// One core, every door: each behaviour is written once and asserted through the HTTP API, the
// gRPC port (the provider's SDK) and gRPC-web. Each case once drifted between the doors: the
// limits counted deliveries to HTTP long-polls only, the metrics missed SDK publishes, a reset
// did not end an SDK publish held by a delay.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startGrpcEmulator({ caches: ['default-cache', 'doomed'] });
});
afterAll(async () => {
  await emulator?.close();
});
afterEach(() => {
  emulator.reset();
  emulator.setClock({ mode: 'real' });
});

const waitingOn = (topic: string) => [...emulator.context.waiting].filter((w) => w.facts.topic === topic).length;
const untilWaiting = (topic: string, n: number) =>
  until(() => waitingOn(topic) === n, `${n} waiting on ${topic}`, 10_000);
let serial = 0;
const fresh = (what: string) => `${what}-${++serial}`;

describe.each(DOORS)('through the %s door', (name) => {
  let door: Door;
  beforeAll(() => {
    door = doorOf(name, emulator);
  });
  afterAll(() => door.close());

  it('a message delivered to five waiting subscribers is 6 operations of the account limits', async () => {
    emulator.setLimits({ enabled: true, operationsPerSecond: 1_000_000 });
    // The clock stands still, so that the limits' one-second window cannot roll over mid-count on a busy machine.
    emulator.setClock({ mode: 'virtual' });
    const topic = fresh('fan-out');
    const waiting = Array.from({ length: 5 }, () => door.subscribe(topic));
    await untilWaiting(topic, 5);
    const before = emulator.limits().usage.operations;
    expect(await door.publish(topic, 'one')).toEqual({ kind: 'ended' });
    for (const w of waiting) expect(await w.outcome).toEqual({ kind: 'items', values: ['one'] });
    expect(emulator.limits().usage.operations - before).toBe(6);
  });

  it('a publish moves topics_emulator_publishes_total by one', async () => {
    const count = async () => {
      const text = (await emulator.app.inject({ url: '/_emulator/metrics' })).body;
      return Number(/^topics_emulator_publishes_total (\d+)/m.exec(text)?.[1]);
    };
    const before = await count();
    expect(await door.publish(fresh('counted'), 'x')).toEqual({ kind: 'ended' });
    expect(await count()).toBe(before + 1);
  });

  it("a fault's delay is held with the shared delays: a reset ends it", async () => {
    emulator.addFault({ operation: 'publish', delayMs: 60_000, status: 500 });
    const published = door.publish(fresh('held'), 'x');
    await until(() => emulator.context.faults.delays.size === 1, 'the publish held', 10_000);
    emulator.reset();
    expect(emulator.context.faults.delays.size).toBe(0);
    // Ended by the reset (the SDK may retry once the rule is gone): it settles long before 60 s.
    await expect(published).resolves.toBeDefined();
  });

  it("a fault's delay ends when its client leaves", async () => {
    const topic = fresh('left');
    emulator.addFault({ operation: 'subscribe', topic, delayMs: 60_000, status: 500 });
    const waiting = door.subscribe(topic);
    await until(() => emulator.context.faults.delays.size === 1, 'the subscribe held', 10_000);
    waiting.leave();
    await until(() => emulator.context.faults.delays.size === 0, 'the hold ended', 10_000);
  });

  it('a "while waiting" rule ends a waiting subscription with its status', async () => {
    const topic = fresh('interrupted');
    emulator.addFault({ operation: 'subscribe', topic, whileWaiting: true, waitedMs: 0, status: 500 });
    const waiting = door.subscribe(topic);
    expect(await waiting.outcome).toEqual({ kind: 'error', status: STATUS.INTERNAL });
    expect(waitingOn(topic)).toBe(0);
  });

  it('an "after N items" rule lets N items through, then answers with its status', async () => {
    const topic = fresh('counted-items');
    emulator.addFault({ operation: 'subscribe', topic, afterItems: 1, status: 503 });
    const first = door.subscribe(topic);
    await untilWaiting(topic, 1);
    await door.publish(topic, 'a');
    expect(await first.outcome).toEqual({ kind: 'items', values: ['a'] });
    await until(() => waitingOn(topic) === 0, 'the first subscription gone', 10_000);
    // Armed: the next matching subscribe gets the rule's answer.
    expect(await door.subscribe(topic).outcome).toEqual({ kind: 'error', status: STATUS.UNAVAILABLE });
  });

  it('a deleted cache ends its waiting subscriptions (an empty answer, a stream ended)', async () => {
    emulator.createCache('doomed');
    const topic = fresh('doomed');
    const waiting = door.subscribe(topic, 'doomed');
    await untilWaiting(topic, 1);
    expect(emulator.deleteCache('doomed')).toBe(true);
    expect(await waiting.outcome).toEqual({ kind: 'ended' });
    expect(waitingOn(topic)).toBe(0);
  });

  it.each(['expireToken', 'revokeToken'] as const)(
    'a token withdrawn (%s) ends the subscriptions it opened with 401 / UNAUTHENTICATED',
    async (withdraw) => {
      const tokenId = fresh('withdrawn');
      const { token } = await emulator.issueToken({
        permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
        tokenId,
      });
      const topic = fresh('withdrawn-topic');
      const waiting = door.subscribe(topic, 'default-cache', token);
      await untilWaiting(topic, 1);
      emulator[withdraw](tokenId);
      expect(await waiting.outcome).toEqual({ kind: 'error', status: STATUS.UNAUTHENTICATED });
      expect(waitingOn(topic)).toBe(0);
      const entry = async () => (await emulator.requests({ topic, operation: 'subscribe' })).entries[0];
      await until(() => true, 'a turn');
      for (let i = 0; i < 200 && (await entry()) === undefined; i++) await new Promise((r) => setImmediate(r));
      expect((await entry())?.decidedBy).toEqual({ kind: 'token' });
    },
  );

  it("a token expiring on the emulator's clock ends the subscriptions it opened", async () => {
    emulator.setClock({ mode: 'virtual' });
    try {
      const { token } = await emulator.issueToken({
        permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
        ttlSeconds: 60,
      });
      const topic = fresh('expiring');
      const waiting = door.subscribe(topic, 'default-cache', token);
      await untilWaiting(topic, 1);
      emulator.advanceClock(59_000);
      expect(waitingOn(topic)).toBe(1);
      emulator.advanceClock(1_000);
      expect(await waiting.outcome).toEqual({ kind: 'error', status: STATUS.UNAUTHENTICATED });
    } finally {
      emulator.setClock({ mode: 'real' });
    }
  });

  it('journals each operation with the same facts, its protocol aside', async () => {
    const topic = fresh('journalled');
    const waiting = door.subscribe(topic);
    await untilWaiting(topic, 1);
    await door.publish(topic, 'x');
    await waiting.outcome;
    await until(() => emulator.context.waiting.size === 0, 'the subscription ended', 10_000);
    const entries = async () => (await emulator.requests({ topic })).entries;
    for (let i = 0; i < 200 && (await entries()).length < 2; i++) await new Promise((r) => setImmediate(r));
    const facts = (await entries()).map((e) => ({
      protocol: e.protocol,
      operation: e.operation,
      cache: e.cache,
      topic: e.topic,
      page: e.page === null ? null : 'a page',
      items: e.items,
    }));
    expect(facts.sort((a, b) => a.operation!.localeCompare(b.operation!))).toEqual([
      { protocol: door.protocol, operation: 'publish', cache: 'default-cache', topic, page: null, items: [] },
      { protocol: door.protocol, operation: 'subscribe', cache: 'default-cache', topic, page: 'a page', items: [1] },
    ]);
  });
});
