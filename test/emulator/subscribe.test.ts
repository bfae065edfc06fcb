import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator({ retention: 5, maxBatch: 3 });
});
afterAll(() => t.close());

const C = 'default-cache';
let n = 0;
const fresh = () => `subscribe-${++n}`;
const store = () => t.emulator.context.store;
const waitingOn = (topic: string) => t.emulator.context.parking.count(C, topic);
const numbers = (items: any[]) => items.map((e) => e.item?.topic_sequence_number);

async function publishAll(topic: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) expect((await t.publish(C, topic, `m${i}`)).status).toBe(204);
}

describe('subscribe', () => {
  it('numbers messages from 1, contiguous, all on one page', async () => {
    const topic = fresh();
    await publishAll(topic, 3);
    const { json } = await t.subscribe(C, topic, { seq: 1, page: 0 });
    expect(numbers(json.items)).toEqual([1, 2, 3]);
    const pages = new Set(json.items.map((e: any) => e.item.sequence_page));
    expect(pages.size).toBe(1);
    expect([...pages][0]).toBeGreaterThan(0);
  });

  it('a first request (0, 0) waits for the next message, never answering one published before it', async () => {
    const topic = fresh();
    await publishAll(topic, 3);
    const pending = t.subscribe(C, topic, { seq: 0, page: 0 });
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    await t.publish(C, topic, 'm4');
    const { json } = await pending;
    expect(json.items).toHaveLength(1);
    expect(json.items[0].item).toMatchObject({ topic_sequence_number: 4, value: { text: 'm4' } });
  });

  it('a first request without any query behaves like (0, 0)', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    const pending = t.subscribe(C, topic);
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    await t.publish(C, topic, 'm3');
    expect(numbers((await pending).json.items)).toEqual([3]);
  });

  it('with --first-subscribe latest, a first request answers the latest retained message at once', async () => {
    const latest = await testEmulator({ firstSubscribe: 'latest' });
    try {
      for (const text of ['a', 'b', 'c']) await latest.publish(C, 'latest', text);
      const { json } = await latest.subscribe(C, 'latest', { seq: 0, page: 0 });
      expect(json.items).toHaveLength(1);
      expect(json.items[0].item).toMatchObject({ topic_sequence_number: 3, value: { text: 'c' } });
    } finally {
      await latest.close();
    }
  });

  it('sequence_number=1 with page 0 reads the current page from its start', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    expect(numbers((await t.subscribe(C, topic, { seq: 1, page: 0 })).json.items)).toEqual([1, 2]);
  });

  it('a first request on an empty topic blocks until a publish, then answers it', async () => {
    const topic = fresh();
    const pending = t.subscribe(C, topic, { seq: 0, page: 0 });
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    await t.publish(C, topic, 'first');
    const { json } = await pending;
    expect(json.items).toEqual([
      { item: { sequence_page: expect.any(Number), topic_sequence_number: 1, value: { text: 'first' } } },
    ]);
  });

  it('resumes at n, including n, capped by the batch size; advancing with last + 1 loses nothing', async () => {
    const topic = fresh();
    await publishAll(topic, 5);
    const first = await t.subscribe(C, topic, { seq: 2, page: 0 });
    expect(numbers(first.json.items)).toEqual([2, 3, 4]);
    const page = first.json.items[0].item.sequence_page;
    const second = await t.subscribe(C, topic, { seq: 5, page });
    expect(numbers(second.json.items)).toEqual([5]);
  });

  it('a resume at the next number waits for the publish, then answers exactly it', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    const page = store().position(C, topic)!.page;
    const pending = t.subscribe(C, topic, { seq: 3, page });
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    await t.publish(C, topic, 'm3');
    expect((await pending).json.items).toEqual([
      { item: { sequence_page: page, topic_sequence_number: 3, value: { text: 'm3' } } },
    ]);
  });

  it('a resume older than the retained range gets a same-page discontinuity, then the retained items', async () => {
    const topic = fresh();
    await publishAll(topic, 8); // retention 5: 4..8 retained
    const page = store().position(C, topic)!.page;
    const { json } = await t.subscribe(C, topic, { seq: 2, page });
    expect(json.items[0]).toEqual({
      discontinuity: { last_topic_sequence: 1, new_topic_sequence: 4, new_sequence_page: page },
    });
    expect(numbers(json.items.slice(1))).toEqual([4, 5, 6]);
  });

  it('a resume ahead of the stream waits, then answers a discontinuity to the next number with its item', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    const page = store().position(C, topic)!.page;
    const pending = t.subscribe(C, topic, { seq: 10, page });
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    await t.publish(C, topic, 'm3');
    expect((await pending).json.items).toEqual([
      { discontinuity: { last_topic_sequence: 9, new_topic_sequence: 3, new_sequence_page: page } },
      { item: { sequence_page: page, topic_sequence_number: 3, value: { text: 'm3' } } },
    ]);
  });

  it('with --discontinuity alone, a resume ahead of the stream answers the discontinuity alone, at once', async () => {
    const alone = await testEmulator({ discontinuity: 'alone' });
    try {
      await alone.publish(C, 'ahead', 'm1');
      const page = alone.emulator.context.store.position(C, 'ahead')!.page;
      const { json } = await alone.subscribe(C, 'ahead', { seq: 10, page });
      expect(json.items).toEqual([
        { discontinuity: { last_topic_sequence: 9, new_topic_sequence: 2, new_sequence_page: page } },
      ]);
    } finally {
      await alone.close();
    }
  });

  it('a stale or unknown page answers a discontinuity to the current page, then its messages', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    const page = store().position(C, topic)!.page;
    const { json } = await t.subscribe(C, topic, { seq: 300, page: 5435435 });
    expect(json.items[0]).toEqual({
      discontinuity: { last_topic_sequence: 299, new_topic_sequence: 1, new_sequence_page: page },
    });
    expect(numbers(json.items.slice(1))).toEqual([1, 2]);
  });

  it('after a page change, a waiting subscriber keeps waiting, then gets the discontinuity with item 1 of the new page', async () => {
    const topic = fresh();
    await publishAll(topic, 2);
    const oldPage = store().position(C, topic)!.page;
    const pending = t.subscribe(C, topic, { seq: 3, page: oldPage });
    await until(() => waitingOn(topic) === 1, 'the subscriber to wait');
    const newPage = store().changePage(C, topic);
    expect(newPage).toBeGreaterThan(oldPage);
    expect(waitingOn(topic)).toBe(1);
    await t.publish(C, topic, 'after reset');
    expect((await pending).json.items).toEqual([
      { discontinuity: { last_topic_sequence: 2, new_topic_sequence: 1, new_sequence_page: newPage } },
      { item: { sequence_page: newPage, topic_sequence_number: 1, value: { text: 'after reset' } } },
    ]);
  });

  it('delivers binary as base64 of the exact bytes', async () => {
    const topic = fresh();
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await t.publish(C, topic, bytes);
    const value = (await t.subscribe(C, topic, { seq: 1 })).json.items[0].item.value;
    expect(Object.keys(value)).toEqual(['binary']);
    expect(new Uint8Array(Buffer.from(value.binary, 'base64'))).toEqual(bytes);
  });

  it('wakes every waiting subscriber on a publish; all see the same message with the same number', async () => {
    const topic = fresh();
    await publishAll(topic, 1);
    const page = store().position(C, topic)!.page;
    const pending = [
      ...Array.from({ length: 5 }, () => t.subscribe(C, topic, { seq: 2, page })),
      ...Array.from({ length: 5 }, () => t.subscribe(C, topic, { seq: 2, page: 0 })),
    ];
    await until(() => waitingOn(topic) === 10, 'ten subscribers to wait');
    await t.publish(C, topic, 'fan-out');
    const bodies = (await Promise.all(pending)).map((r) => r.json);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].items[0].item).toMatchObject({ topic_sequence_number: 2, value: { text: 'fan-out' } });
    expect(waitingOn(topic)).toBe(0);
  });

  it('answers a few waiting subscribers within the publish', async () => {
    const topic = fresh();
    const pending = Array.from({ length: 3 }, () => t.subscribe(C, topic, { seq: 0, page: 0 }));
    await until(() => waitingOn(topic) === 3, 'three subscribers to wait');
    expect(store().publish(C, topic, { text: 'one' })).toBe(1);
    expect(waitingOn(topic)).toBe(0);
    for (const reply of await Promise.all(pending))
      expect(reply.json.items.map((e: any) => e.item.value.text)).toEqual(['one']);
  });

  it('answers many waiting subscribers after the publish returns, with every message of that turn in one response', async () => {
    const topic = fresh();
    const pending = Array.from({ length: 10 }, () => t.subscribe(C, topic, { seq: 0, page: 0 }));
    await until(() => waitingOn(topic) === 10, 'ten subscribers to wait');
    expect(store().publish(C, topic, { text: 'one' })).toBe(1);
    expect(waitingOn(topic)).toBe(10); // the publisher returned before any subscriber was answered
    expect(store().publish(C, topic, { text: 'two' })).toBe(2);
    for (const reply of await Promise.all(pending))
      expect(reply.json.items.map((e: any) => e.item.value.text)).toEqual(['one', 'two']);
  });

  it('a long-poll that sees nothing until the timeout answers 200 with empty items (virtual clock)', async () => {
    const local = await testEmulator({ longPollTimeoutMs: 30_000 });
    try {
      local.emulator.context.clock.freeze();
      const pending = local.subscribe(C, 'quiet', { seq: 0, page: 0 });
      await until(() => local.emulator.context.parking.count(C, 'quiet') === 1, 'the subscriber to wait');
      local.emulator.context.clock.advance(29_999);
      expect(local.emulator.context.parking.count(C, 'quiet')).toBe(1);
      local.emulator.context.clock.advance(1);
      const reply = await pending;
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ items: [] });
      expect(local.emulator.context.parking.count(C, 'quiet')).toBe(0);
    } finally {
      await local.close();
    }
  });

  it('a client that disconnects while waiting leaves nothing behind', async () => {
    const topic = fresh();
    const controllers = Array.from({ length: 20 }, () => new AbortController());
    const pending = controllers.map((c) =>
      t.subscribe(C, topic, { seq: 0 }, { signal: c.signal }).catch((e: Error) => e),
    );
    await until(() => waitingOn(topic) === 20, 'twenty subscribers to wait');
    const timersBefore = t.emulator.context.clock.state().pendingTimers;
    for (const c of controllers) c.abort();
    await Promise.all(pending);
    await until(() => waitingOn(topic) === 0, 'the aborted subscribers to be forgotten');
    expect(t.emulator.context.clock.state().pendingTimers).toBe(timersBefore - 20);
    // The topic still works for the next subscriber.
    await t.publish(C, topic, 'after');
    expect(numbers((await t.subscribe(C, topic, { seq: 1 })).json.items)).toEqual([1]);
  });

  it('answers 429 with Retry-After beyond the cap on waiting subscribers; answers within it are unaffected', async () => {
    const local = await testEmulator({ maxWaitingSubscribers: 3 });
    try {
      const waiting = Array.from({ length: 3 }, (_, i) => local.subscribe(C, `capped-${i}`, { seq: 0 }));
      await until(() => local.emulator.context.waiting.size === 3, 'three subscribers to wait');
      const over = await local.subscribe(C, 'capped-x', { seq: 0 });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('1');
      expect(over.json.code).toBe('limit_exceeded');
      // A subscribe that is answered at once does not need a place.
      await local.publish(C, 'ready', 'now');
      expect((await local.subscribe(C, 'ready', { seq: 1 })).status).toBe(200);
      await local.publish(C, 'capped-0', 'free a place');
      expect((await waiting[0]!).status).toBe(200);
      expect(local.emulator.context.waiting.size).toBe(2);
      const again = local.subscribe(C, 'capped-x', { seq: 0 });
      await until(() => local.emulator.context.waiting.size === 3, 'the place to be taken again');
      await local.close();
      expect((await again).json).toEqual({ items: [] });
      for (const reply of await Promise.all(waiting.slice(1))) expect(reply.json).toEqual({ items: [] });
    } finally {
      await local.close();
    }
  });

  it('answers 400 for malformed query numbers', async () => {
    for (const query of [
      'sequence_number=-1',
      'sequence_number=abc',
      'sequence_page=1.5',
      'sequence_number=1&sequence_number=2',
      `sequence_number=${2 ** 53}`,
    ]) {
      const reply = await t.subscribe(C, 'q', {}, { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json.code).toBe('invalid_parameter');
    }
  });

  it('answers 404 for a cache that does not exist', async () => {
    const reply = await t.subscribe('no-such-cache', 'x', { seq: 0 });
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe('cache_not_found');
  });

  it('drain answers every waiting subscriber once their answers have left, and keeps serving', async () => {
    const local = await testEmulator();
    try {
      const pending = Array.from({ length: 3 }, () => local.subscribe(C, 'drained', { seq: 0 }));
      await until(() => local.emulator.context.waiting.size === 3, 'three subscribers to wait');
      await local.emulator.drain();
      expect(local.emulator.context.waiting.size).toBe(0);
      for (const reply of await Promise.all(pending)) expect(reply.json).toEqual({ items: [] });
      expect((await local.publish(C, 'after-drain', 'still listening')).status).toBe(204);
    } finally {
      await local.close();
    }
  });

  it('closing the emulator answers every waiting subscriber with empty items', async () => {
    const local = await testEmulator();
    const pending = Array.from({ length: 3 }, () => local.subscribe(C, 'shutdown', { seq: 0 }));
    await until(() => local.emulator.context.parking.count(C, 'shutdown') === 3, 'three subscribers to wait');
    await local.close();
    for (const reply of await Promise.all(pending)) expect(reply.json).toEqual({ items: [] });
  });
});
