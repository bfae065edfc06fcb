import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { clientOf, itemsOf, numbersOf, publishMany, start, waitForWaiting } from './helpers.js';

// The account limits profile (service-facts "Limits") and seeded chaos.

let emulator: RunningEmulator;
afterEach(() => emulator.close());

describe('account limits', () => {
  it('are off by default and say so', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    const limits = await (await client.control('GET', '/limits')).json();
    expect(limits).toMatchObject({
      enabled: false,
      operationsPerSecond: 100,
      concurrentSubscriptions: 100,
      payloadBytes: 4096,
    });
    await publishMany(emulator, 't', 120);
  });

  it("follow the quotas page's plans: account (the default plan) 100, basic 1,000, pro 10,000; flags override", async () => {
    for (const [limits, figure] of [
      ['account', 100],
      ['basic', 1000],
      ['pro', 10_000],
    ] as const) {
      emulator = await start({ limits });
      expect(emulator.limits()).toMatchObject({
        enabled: true,
        operationsPerSecond: figure,
        concurrentSubscriptions: figure,
      });
      await emulator.close();
    }
    emulator = await start({ limits: 'basic', limitOperationsPerSecond: 7 });
    expect(emulator.limits()).toMatchObject({ enabled: true, operationsPerSecond: 7, concurrentSubscriptions: 1000 });
  });

  it('are counted per cache, as the quotas page counts them per namespace', async () => {
    emulator = await start({
      caches: ['a', 'b'],
      limits: 'account',
      limitOperationsPerSecond: 2,
      limitConcurrentSubscriptions: 1,
    });
    emulator.setClock({ mode: 'virtual' });
    const headers = { authorization: emulator.apiKey, 'content-type': 'text/plain' };
    const publish = async (cache: string) =>
      (await fetch(`${emulator.url}/topics/${cache}/t`, { method: 'POST', headers, body: 'm' })).status;
    expect([await publish('a'), await publish('a'), await publish('a')]).toEqual([204, 204, 429]);
    expect(await publish('b')).toBe(204);
    const subscribe = (cache: string) => fetch(`${emulator.url}/topics/${cache}/w`, { headers });
    const waiting = [subscribe('b')];
    await waitForWaiting(emulator, 1);
    expect((await subscribe('b')).status).toBe(429); // b's one connection is taken
    emulator.advanceClock(1000); // a new window for a
    waiting.push(subscribe('a')); // a's connection is its own
    await waitForWaiting(emulator, 2);
    expect(emulator.limits().usage).toMatchObject({ subscriptions: 2 });
    await clientOf(emulator).control('POST', '/reset');
    await Promise.all(waiting);
  });

  it('the default plan answers 429 past 100 operations in a second', async () => {
    emulator = await start({ limits: 'account' });
    emulator.setClock({ mode: 'virtual' });
    await publishMany(emulator, 't', 100);
    expect((await clientOf(emulator).publish('t')).status).toBe(429);
  });

  it('429 limit_exceeded with Retry-After past 10 operations in a second, then recovery once the clock moves on', async () => {
    emulator = await start({ limits: 'account', limitOperationsPerSecond: 10 });
    const client = clientOf(emulator);
    emulator.setClock({ setTo: Date.UTC(2030, 0, 1, 0, 0, 0, 250) });
    await publishMany(emulator, 't', 10);
    const refused = await client.publish('t');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      code: 'limit_exceeded',
      message: 'Account limits were exceeded: 10 operations in this second (limit 10 per second).',
    });
    emulator.advanceClock(749); // still the same second
    expect((await client.publish('t')).status).toBe(429);
    emulator.advanceClock(1); // Retry-After has passed: a new window
    expect((await client.publish('t')).status).toBe(204);
    expect(emulator.state().topics[0]!.lastSequenceNumber).toBe(11);
  });

  it('each delivered item is one more operation', async () => {
    emulator = await start({ limits: 'account', limitOperationsPerSecond: 10 });
    const client = clientOf(emulator);
    emulator.setClock({ mode: 'virtual' });
    await publishMany(emulator, 't', 4); // 4 operations
    expect(numbersOf(await itemsOf(await client.subscribe('t', { seq: 1 })))).toEqual([1, 2, 3, 4]); // 8
    expect(emulator.limits().usage.operations).toBe(8);
    await publishMany(emulator, 't', 2); // 10
    expect((await client.subscribe('t', { seq: 5 })).status).toBe(429); // the window is used up
    expect((await client.publish('t')).status).toBe(429);
  });

  it('a subscription beyond the concurrent limit gets 429; one ending frees a place', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    const set = await client.control('PUT', '/limits', { enabled: true, concurrentSubscriptions: 2 });
    expect(await set.json()).toMatchObject({ enabled: true, concurrentSubscriptions: 2, operationsPerSecond: 100 });
    const waiting = [client.subscribe('a'), client.subscribe('b')];
    await waitForWaiting(emulator, 2);
    const refused = await client.subscribe('c');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    expect(((await refused.json()) as { message: string }).message).toMatch(/2 concurrent subscriptions \(limit 2\)/);
    await publishMany(emulator, 'a', 1);
    expect(numbersOf(await itemsOf(await waiting[0]!))).toEqual([1]);
    await waitForWaiting(emulator, 1);
    expect(emulator.limits().usage.subscriptions).toBe(1);
    const third = client.subscribe('c');
    await waitForWaiting(emulator, 2);
    await client.control('POST', '/reset');
    await Promise.all([third, waiting[1]]);
  });

  it('tuning refuses bad values with 400 invalid_body', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    for (const body of [{}, { operationsPerSecond: 0 }, { enabled: 'yes' }, { payloadBytes: 10 }]) {
      const response = await client.control('PUT', '/limits', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid_body');
    }
  });
});

describe('seeded chaos', () => {
  async function run(seed: number): Promise<string[]> {
    const client = clientOf(emulator);
    emulator.reset();
    const started = await client.control('PUT', '/chaos', {
      seed,
      rate: 0.5,
      kinds: ['throttle', 'error', 'outage', 'pageChange'],
      topic: 'events',
    });
    expect(started.status).toBe(200);
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await client.publish('events', `e${i}`);
      outcomes.push(
        `${response.status}${response.headers.get('retry-after') ? `/${response.headers.get('retry-after')}` : ''}`,
      );
    }
    outcomes.push(`page changes: ${emulator.state().topics[0]!.page}`);
    return outcomes;
  }

  it('injects a mix of faults that replays exactly with the same seed', async () => {
    emulator = await start();
    const first = await run(42);
    const statuses = new Set(first.slice(0, -1));
    expect(statuses).toContain('204');
    expect([...statuses].filter((s) => s !== '204').length).toBeGreaterThanOrEqual(2);
    const chaos = emulator.chaos();
    expect(chaos).toMatchObject({ enabled: true, seed: 42, rate: 0.5, draws: 30 });
    expect(chaos.injected).toBeGreaterThan(0);
    const again = await run(42);
    expect(again.slice(0, -1)).toEqual(first.slice(0, -1));
    expect(await run(43)).not.toEqual(first);
  });

  it('touches only what it matches, and stops', async () => {
    emulator = await start();
    const client = clientOf(emulator);
    emulator.startChaos({ seed: 1, rate: 1, kinds: ['error'], topic: 'events' });
    expect((await client.publish('events')).status).toBe(500);
    expect((await client.publish('other')).status).toBe(204);
    const stopped = await (await client.control('DELETE', '/chaos')).json();
    expect(stopped).toMatchObject({ enabled: false, seed: 1, injected: 1 });
    expect((await client.publish('events')).status).toBe(204);
  });

  it('starts from --chaos-seed and restarts on reset, so the draws replay', async () => {
    // Seed 2's first draws hold no (real-time) delay, which keeps this test quick.
    emulator = await start({ chaosSeed: 2, chaosRate: 0.5 });
    const client = clientOf(emulator);
    expect(emulator.chaos()).toMatchObject({ enabled: true, seed: 2, rate: 0.5, draws: 0 });
    const outcomes = async () => {
      const out: (number | string)[] = [];
      for (let i = 0; i < 12; i++)
        out.push(
          await client.publish('t').then(
            (r) => r.status,
            () => 'dropped',
          ),
        );
      return out;
    };
    const first = await outcomes();
    expect(emulator.chaos().injected).toBeGreaterThan(0);
    emulator.stopChaos();
    emulator.reset();
    expect(emulator.chaos()).toMatchObject({ enabled: true, seed: 2, draws: 0 });
    expect(await outcomes()).toEqual(first);
  });
});
