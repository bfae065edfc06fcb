import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// Redis restarted on the same port while two replicas run: both answer 503 while it is down and
// recover by themselves. With persistence the topics come back as they were and numbering goes on;
// without it they are gone, and every client holding a cursor is told so with a discontinuity.

type Entry = {
  item?: { topic_sequence_number: number; sequence_page: number; value: { text: string } };
  discontinuity?: { new_sequence_page: number; new_topic_sequence: number };
};
type Items = { items: Entry[] };

async function joining(fleet: ReturnType<typeof useFleet>, prefix: string): Promise<TestEmulator> {
  const replica = await testEmulator({ caches: ['cache'], store: fleet.redis().url, storePrefix: prefix });
  fleet.running.push(replica);
  return replica;
}

async function replicas(fleet: ReturnType<typeof useFleet>, prefix: string): Promise<[TestEmulator, TestEmulator]> {
  return [await joining(fleet, prefix), await joining(fleet, prefix)];
}

/** Restarts Redis, checking that every replica reports it lost and refuses service routes meanwhile. */
async function restartRedis(fleet: ReturnType<typeof useFleet>, all: TestEmulator[], topic: string): Promise<void> {
  await fleet.redis().kill();
  for (const replica of all) {
    await until(() => !replica.emulator.context.store.health().up, 'the store to be lost', 10_000);
    const health = await fetch(`${replica.url}/_emulator/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', store: { kind: 'redis', up: false } });
    const refused = await replica.publish('cache', topic, 'during');
    expect(refused.status).toBe(503);
    expect(refused.json.code).toBe('service_unavailable');
    const read = await replica.subscribe('cache', topic, { seq: 1 });
    expect(read.status).toBe(503);
    expect(read.json.code).toBe('service_unavailable');
  }
  await fleet.redis().restart();
  for (const replica of all) {
    await until(() => replica.emulator.context.store.health().up, 'the store to be back', 15_000);
    expect((await fetch(`${replica.url}/_emulator/health`)).status).toBe(200);
  }
}

/** The replica's topics, by name (a replica loading them from Redis lists them in the set's order). */
const contentsOf = (replica: TestEmulator) =>
  replica.emulator.context.store.contents().sort((x, y) => x.topic.localeCompare(y.topic));

describe('Redis restarted with persistence (append-only file)', () => {
  const fleet = useFleet({ persistence: true });

  it('topics, numbers, pages and retained messages survive; cursors resume with no discontinuity', async () => {
    const [a, b] = await replicas(fleet, 'kept:');
    for (const text of ['1', '2', '3']) expect((await a.publish('cache', 'kept', text)).status).toBe(204);
    expect((await b.publish('cache', 'other', 'x')).status).toBe(204);
    await until(() => contentsOf(a).length === 2 && contentsOf(b).length === 2, 'both replicas to hold both topics');
    const page = a.emulator.context.store.position('cache', 'kept')!.page;
    const read = (await b.subscribe('cache', 'kept', { seq: 1, page })).json as Items;
    expect(read.items.map((i) => i.item!.topic_sequence_number)).toEqual([1, 2, 3]);
    const before = contentsOf(a);
    expect(contentsOf(b)).toEqual(before);

    await restartRedis(fleet, [a, b], 'kept');

    expect(contentsOf(a)).toEqual(before);
    expect(contentsOf(b)).toEqual(before);
    // A replica started now loads them from Redis alone.
    expect(contentsOf(await joining(fleet, 'kept:'))).toEqual(before);
    expect((await a.publish('cache', 'kept', 'after')).status).toBe(204);
    const resumed = (await b.subscribe('cache', 'kept', { seq: 4, page })).json as Items;
    expect(resumed.items).toEqual([
      { item: expect.objectContaining({ topic_sequence_number: 4, sequence_page: page, value: { text: 'after' } }) },
    ]);
    expect((await b.publish('cache', 'kept', 'then')).status).toBe(204);
    const last = (await a.subscribe('cache', 'kept', { seq: 5, page })).json as Items;
    expect(last.items.map((i) => i.item)).toEqual([
      expect.objectContaining({ topic_sequence_number: 5, sequence_page: page, value: { text: 'then' } }),
    ]);
  });
});

describe('Redis restarted without persistence', () => {
  const fleet = useFleet();

  it('the topics are gone: every cursor gets a discontinuity to a greater page, never the new numbers', async () => {
    const prefix = 'gone:';
    const [a, b] = await replicas(fleet, prefix);
    for (const text of ['old 1', 'old 2']) expect((await a.publish('cache', 'gone', text)).status).toBe(204);
    const page = a.emulator.context.store.position('cache', 'gone')!.page;
    await until(() => b.emulator.context.store.position('cache', 'gone')?.next === 3, 'b to hold both');
    // Waiting on b for message 3 through the restart.
    const waiting = b.subscribe('cache', 'gone', { seq: 3, page });
    await until(() => b.emulator.context.waiting.size === 1, 'the subscribe to wait on b');

    await restartRedis(fleet, [a, b], 'gone');

    // Every replica, and one started now, holds the topic on one greater page with nothing in it.
    const joined = await joining(fleet, prefix);
    await until(
      () =>
        [a, b, joined].every((replica) => {
          const topic = replica.emulator.context.store.position('cache', 'gone');
          return topic !== undefined && topic.page === a.emulator.context.store.position('cache', 'gone')!.page;
        }),
      'the replicas to agree on the new page',
    );
    const renewed = contentsOf(a);
    expect(renewed).toEqual([
      { cache: 'cache', topic: 'gone', page: renewed[0]!.page, nextSequenceNumber: 1, messages: [] },
    ]);
    expect(renewed[0]!.page).toBeGreaterThan(page);
    expect(contentsOf(b)).toEqual(renewed);
    expect(contentsOf(joined)).toEqual(renewed);
    const probe = new Redis(fleet.redis().url);
    try {
      expect(Number(await probe.get(`${prefix}page-floor`))).toBeGreaterThanOrEqual(page);
    } finally {
      probe.disconnect();
    }

    for (const text of ['new 1', 'new 2', 'new 3']) expect((await a.publish('cache', 'gone', text)).status).toBe(204);
    const newPage = renewed[0]!.page;
    const discontinuity = { new_sequence_page: newPage, new_topic_sequence: 1 };
    const fromOne = ['new 1', 'new 2', 'new 3'].map((text, i) =>
      expect.objectContaining({ topic_sequence_number: i + 1, sequence_page: newPage, value: { text } }),
    );
    // The subscriber waiting through the restart, and old cursors resumed on any replica.
    const answers = [
      (await waiting).json as Items,
      ...(await Promise.all(
        [b, joined, a].map(async (replica, i) => (await replica.subscribe('cache', 'gone', { seq: i + 1, page })).json),
      )),
    ] as Items[];
    // (The waiting one is answered at the first publish: it may hold fewer.)
    for (const answer of answers) {
      expect(answer.items[0]!.discontinuity).toMatchObject(discontinuity);
      const items = answer.items.slice(1).map((i) => i.item);
      expect(items.length).toBeGreaterThan(0);
      expect(items).toEqual(fromOne.slice(0, items.length));
    }
    expect(answers.slice(1).map((answer) => answer.items.length)).toEqual([4, 4, 4]);
  });
});
