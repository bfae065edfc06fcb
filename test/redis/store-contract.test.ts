import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../emulator/clock.js';
import { createLogger } from '../../emulator/logging.js';
import { RedisTopicStore } from '../../emulator/redis/redis-store.js';
import { InMemoryTopicStore, type TopicStore } from '../../emulator/topics/store.js';
import type { ReadAnswer } from '../../emulator/topics/subscriber.js';
import type { TopicSettings } from '../../emulator/topics/topic.js';
import { startRedis, type RedisServer } from './redis-server.js';

// The one contract every store keeps, run against each: the same tests, the same expectations.

const settings: TopicSettings = { retention: 3, maxBatch: 100, firstSubscribe: 'next', discontinuity: 'with-item' };

let redis: RedisServer;
let prefixes = 0;
const opened: TopicStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.release();
});

const stores: Record<string, () => Promise<TopicStore>> = {
  memory: async () => new InMemoryTopicStore(['cache'], settings, new Clock()),
  redis: async () => {
    const store = await RedisTopicStore.open(
      ['cache'],
      settings,
      new Clock(),
      undefined,
      redis.url,
      `contract-${++prefixes}:`,
      createLogger('silent'),
    );
    opened.push(store);
    return store;
  },
};

const texts = (read: ReadAnswer | undefined) =>
  (JSON.parse(read!.body) as { items: { item?: { value: { text: string } } }[] }).items.map((i) => i.item?.value.text);

async function publishAll(store: TopicStore, topic: string, values: string[]): Promise<number[]> {
  const numbers: number[] = [];
  for (const text of values) numbers.push(await store.publish('cache', topic, { text }));
  return numbers;
}

/** The changes a store tells its listener of, as lines. */
function heard(store: TopicStore): string[] {
  const lines: string[] = [];
  store.listen({
    topicChanged: (cache, topic, published) => lines.push(`${cache}/${topic} ${published ?? 'page'}`),
    clearedElsewhere: () => lines.push('cleared elsewhere'),
    cacheChangedElsewhere: (operationId, cache) => lines.push(`${operationId} ${cache} elsewhere`),
  });
  return lines;
}

describe.each(Object.keys(stores))('the %s store', (kind) => {
  const open = stores[kind]!;

  it('numbers from 1, in order, and reads back by cursor', async () => {
    const store = await open();
    expect(await publishAll(store, 't', ['a', 'b', 'c', 'd'])).toEqual([1, 2, 3, 4]);
    const { page } = store.position('cache', 't')!;
    const read = store.read('cache', 't', { sequenceNumber: 3, sequencePage: page });
    expect(read).toMatchObject({ from: 3, items: 2, page });
    expect(texts(read)).toEqual(['c', 'd']);
    expect(store.delivered('cache', 't', read!).map((m) => m.sequenceNumber)).toEqual([3, 4]);
    expect(store.read('cache', 't', { sequenceNumber: 5, sequencePage: page })).toBeUndefined();
    expect(store.read('cache', 'unused', { sequenceNumber: 0, sequencePage: 0 })).toBeUndefined();
    expect(store.position('cache', 'unused')).toBeUndefined();
  });

  it('retains only the newest messages: an older cursor gets a discontinuity', async () => {
    const store = await open();
    await publishAll(store, 't', ['1', '2', '3', '4', '5']);
    const { page } = store.position('cache', 't')!;
    expect(store.content('cache', 't')!.messages.map((m) => m.sequenceNumber)).toEqual([3, 4, 5]);
    const read = store.read('cache', 't', { sequenceNumber: 1, sequencePage: page });
    expect(read).toMatchObject({ from: 3, items: 3, discontinuity: { last_topic_sequence: 0, new_topic_sequence: 3 } });
  });

  it('a page change gives a greater page and numbering from 1', async () => {
    const store = await open();
    await publishAll(store, 't', ['a', 'b']);
    const before = store.position('cache', 't')!.page;
    const page = store.changePage('cache', 't');
    expect(page).toBeGreaterThan(before);
    expect(await publishAll(store, 't', ['c'])).toEqual([1]);
    expect(store.position('cache', 't')!.page).toBe(page);
    expect(texts(store.read('cache', 't', { sequenceNumber: 1, sequencePage: page }))).toEqual(['c']);
  });

  it('tells its listener of each message numbered and each page change, once it holds them', async () => {
    const store = await open();
    const lines = heard(store);
    const { page } = store.use('cache', 'waiting');
    expect(await publishAll(store, 'waiting', ['x', 'y'])).toEqual([1, 2]);
    expect(lines).toContain('cache/waiting 1');
    expect(lines).toContain('cache/waiting 2');
    // Told as the message is held: a read then has it.
    expect(texts(store.read('cache', 'waiting', { sequenceNumber: 1, sequencePage: page }))).toEqual(['x', 'y']);
    store.changePage('cache', 'waiting');
    expect(lines.at(-1)).toBe('cache/waiting page');
    expect(lines.filter((line) => line.includes('elsewhere'))).toEqual([]);
  });

  it('a topic created by a subscribe keeps its page for its first publish', async () => {
    const store = await open();
    const { page, next } = store.use('cache', 'fresh');
    expect(next).toBe(1);
    await publishAll(store, 'fresh', ['x']);
    expect(store.position('cache', 'fresh')!.page).toBe(page);
  });

  it('clear forgets every topic; a topic made again gets a greater page', async () => {
    const store = await open();
    await publishAll(store, 't', ['a']);
    const before = store.position('cache', 't')!.page;
    store.clear();
    expect(store.snapshot()).toEqual([]);
    expect(store.position('cache', 't')).toBeUndefined();
    await publishAll(store, 't', ['b']);
    expect(store.position('cache', 't')!.page).toBeGreaterThan(before);
    expect(store.contents()[0]!.messages.map((m) => m.sequenceNumber)).toEqual([1]);
  });

  it('restore holds exactly the given topics, and numbering goes on from them', async () => {
    const store = await open();
    await publishAll(store, 'gone', ['a']);
    store.restore(
      [
        {
          cache: 'cache',
          topic: 'kept',
          page: 7,
          nextSequenceNumber: 3,
          messages: [{ sequenceNumber: 2, value: { text: 'two' } }],
        },
      ],
      9,
    );
    expect(store.contents()).toEqual([
      {
        cache: 'cache',
        topic: 'kept',
        page: 7,
        nextSequenceNumber: 3,
        messages: [{ sequenceNumber: 2, value: { text: 'two' } }],
      },
    ]);
    expect(await publishAll(store, 'kept', ['three'])).toEqual([3]);
    expect(store.changePage('cache', 'kept')).toBeGreaterThan(9);
  });
});
