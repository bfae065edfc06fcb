import { describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { startEmulator } from '../../emulator/index.js';
import type { RedisReplicas } from '../../emulator/redis/replicas.js';
import { baseUrlOf, printed, runCli } from '../helpers/cli.js';
import { testEmulator, until, type TestEmulator } from '../helpers/emulator.js';
import { openStream } from '../helpers/sse.js';
import { useFleet } from './fleet.js';

// Several replicas on one real redis-server serve one emulator: numbering, delivery across
// replicas, page changes, reset, a restart, and Redis lost and back.

const fleet = useFleet();
const { running } = fleet;
let prefixes = 0;

async function replica(prefix: string, options: Record<string, unknown> = {}): Promise<TestEmulator> {
  const started = await testEmulator({ caches: ['cache'], store: fleet.redis().url, storePrefix: prefix, ...options });
  running.push(started);
  return started;
}

async function replicas(options: Record<string, unknown> = {}): Promise<[TestEmulator, TestEmulator, string]> {
  const prefix = `replicas-${++prefixes}:`;
  return [await replica(prefix, options), await replica(prefix, options), prefix];
}

type Item = { item?: { topic_sequence_number: number; sequence_page: number; value: { text: string } } };
type Items = { items: (Item & { discontinuity?: { new_sequence_page: number; new_topic_sequence: number } })[] };
const numbers = (body: Items) => body.items.flatMap((i) => (i.item ? [i.item.topic_sequence_number] : []));

describe('replicas on one Redis', () => {
  it('a publish on one replica wakes a subscriber waiting on the other, with the same number and page', async () => {
    const [a, b] = await replicas();
    const waiting = b.subscribe('cache', 'news');
    await until(() => b.emulator.context.waiting.size === 1, 'the subscribe to wait on b');
    expect((await a.publish('cache', 'news', 'hello')).status).toBe(204);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const [first] = (answer.json as Items).items;
    expect(first!.item).toMatchObject({ topic_sequence_number: 1, value: { text: 'hello' } });
    expect(first!.item!.sequence_page).toBe(a.emulator.context.store.position('cache', 'news')!.page);
  });

  it('concurrent publishes through both replicas are numbered once each, with no gap', async () => {
    const [a, b] = await replicas();
    const sent = Array.from({ length: 60 }, (_, i) => `m${i}`);
    const statuses = await Promise.all(sent.map((text, i) => (i % 2 ? a : b).publish('cache', 'busy', text)));
    expect(statuses.map((r) => r.status)).toEqual(sent.map(() => 204));
    for (const replica of [a, b]) {
      const read = (await replica.subscribe('cache', 'busy', { seq: 1 })).json as Items;
      expect(numbers(read)).toEqual(sent.map((_, i) => i + 1));
      expect(read.items.map((i) => i.item!.value.text).sort()).toEqual([...sent].sort());
    }
  });

  it('a page change on one replica is a discontinuity on the other', async () => {
    const [a, b] = await replicas();
    await a.publish('cache', 'paged', 'before');
    const page = a.emulator.context.store.position('cache', 'paged')!.page;
    await until(() => b.emulator.context.store.position('cache', 'paged')?.next === 2, 'b to hold message 1');
    const waiting = b.subscribe('cache', 'paged', { seq: 2, page });
    await until(() => b.emulator.context.waiting.size === 1, 'the subscribe to wait on b');
    const reset = a.emulator.resetTopic('cache', 'paged');
    expect(reset.page).toBeGreaterThan(page);
    await a.publish('cache', 'paged', 'after');
    const answer = (await waiting).json as Items;
    expect(answer.items[0]!.discontinuity).toMatchObject({ new_sequence_page: reset.page, new_topic_sequence: 1 });
    expect(answer.items[1]!.item).toMatchObject({ topic_sequence_number: 1, sequence_page: reset.page });
  });

  it('a reset on one replica answers the waiting subscribers of the other and forgets every topic', async () => {
    const [a, b] = await replicas();
    await a.publish('cache', 'old', 'x');
    const waiting = b.subscribe('cache', 'quiet');
    await until(() => b.emulator.context.waiting.size === 1, 'the subscribe to wait on b');
    // Its topic created in Redis before the reset (a hears of it): one created after would be kept, rightly.
    await until(() => a.emulator.context.store.position('cache', 'quiet') !== undefined, 'a to hear of the topic');
    a.emulator.reset();
    expect((await waiting).json).toEqual({ items: [] });
    await until(() => b.emulator.context.store.snapshot().length === 0, 'b to forget its topics');
  });

  it('a reset forgets in Redis a topic this replica has not heard of yet (its keys declared once named)', async () => {
    const [a, , prefix] = await replicas();
    await a.publish('cache', 'known', 'x');
    const redis = new Redis(fleet.redis().url);
    try {
      // A topic another replica made a moment ago, not yet announced here.
      const ghost = JSON.stringify(['cache', 'ghost']);
      await redis.sadd(`${prefix}topics`, ghost);
      await redis.hset(`${prefix}t:${ghost}`, 'page', 1, 'next', 2);
      await redis.xadd(`${prefix}s:${ghost}`, '1-1', 'v', '"old"');
      a.emulator.reset();
      await vi.waitFor(async () => expect(await redis.exists(`${prefix}t:${ghost}`, `${prefix}s:${ghost}`)).toBe(0), {
        timeout: 5000,
      });
      expect(await redis.smembers(`${prefix}topics`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('a replica started again finds the topics, trimmed to the retention, where Redis kept them', async () => {
    const prefix = `restart-${++prefixes}:`;
    const first = await replica(prefix, { retention: 3 });
    for (const text of ['1', '2', '3', '4', '5']) await first.publish('cache', 'kept', text);
    const page = first.emulator.context.store.position('cache', 'kept')!.page;
    await first.close();
    running.splice(running.indexOf(first), 1);
    const again = await replica(prefix, { retention: 3 });
    expect(again.emulator.context.store.contents()).toEqual([
      {
        cache: 'cache',
        topic: 'kept',
        page,
        nextSequenceNumber: 6,
        messages: ['3', '4', '5'].map((text, i) => ({ sequenceNumber: i + 3, value: { text } })),
      },
    ]);
    expect(numbers((await again.subscribe('cache', 'kept', { seq: 3, page })).json as Items)).toEqual([3, 4, 5]);
  });

  it('a replica in a child process serves the same topics as one in this process', async () => {
    const [a, , prefix] = await replicas();
    const { url } = await fleet.child(prefix);
    const waiting = fetch(`${url}/topics/cache/across`, { headers: { authorization: a.key } });
    await until(
      () => a.emulator.context.store.position('cache', 'across') !== undefined,
      'the child to create the topic',
      10_000,
    );
    // The child's subscribe waits there; this process publishes.
    const published = await a.publish('cache', 'across', 'from a');
    expect(published.status).toBe(204);
    const answer = (await (await waiting).json()) as Items;
    expect(answer.items[0]!.item).toMatchObject({ topic_sequence_number: 1, value: { text: 'from a' } });
  });

  it('Redis lost: health and the service routes answer 503, then recover by themselves', async () => {
    const [a] = await replicas();
    await a.publish('cache', 'lost', 'before');
    const page = a.emulator.context.store.position('cache', 'lost')!.page;
    await fleet.redis().kill();
    await until(() => !a.emulator.context.store.health().up, 'the store to be lost', 10_000);
    const health = await fetch(`${a.url}/_emulator/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', store: { kind: 'redis', up: false } });
    const refused = await a.publish('cache', 'lost', 'during');
    expect(refused.status).toBe(503);
    expect(refused.json.code).toBe('service_unavailable');
    expect((await a.subscribe('cache', 'lost', { seq: 1, page })).status).toBe(503);
    await fleet.redis().restart();
    await until(() => a.emulator.context.store.health().up, 'the store to be back', 15_000);
    expect((await fetch(`${a.url}/_emulator/health`)).status).toBe(200);
    // Redis came back empty (no persistence): the topic is new, on a greater page, numbered from 1.
    expect((await a.publish('cache', 'lost', 'after')).status).toBe(204);
    const read = (await a.subscribe('cache', 'lost', { seq: 2, page })).json as Items;
    expect(read.items[0]!.discontinuity!.new_sequence_page).toBeGreaterThan(page);
    expect(read.items[1]!.item).toMatchObject({ topic_sequence_number: 1, value: { text: 'after' } });
  });

  it('metrics: store round trips by script and the store up, then down while Redis is lost', async () => {
    const [a] = await replicas();
    const scrape = async () => {
      const response = await fetch(`${a.url}/_emulator/metrics`);
      expect(response.status).toBe(200);
      return response.text();
    };
    for (const text of ['1', '2', '3']) expect((await a.publish('cache', 'timed', text)).status).toBe(204);
    const name = 'topics_emulator_store_round_trip_seconds';
    const before = await scrape();
    expect(before).toMatch(/^topics_emulator_store_up 1$/m);
    expect(before).toMatch(new RegExp(`^${name}_count\\{script="publish"\\} 3$`, 'm'));
    expect(before).toMatch(new RegExp(`^${name}_bucket\\{script="publish",le="\\+Inf"\\} 3$`, 'm'));
    const sum = Number(new RegExp(`^${name}_sum\\{script="publish"\\} (\\S+)$`, 'm').exec(before)![1]);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(5);
    await fleet.redis().kill();
    await until(() => !a.emulator.context.store.health().up, 'the store to be lost', 10_000);
    expect(await scrape()).toMatch(/^topics_emulator_store_up 0$/m);
    await fleet.redis().restart();
    await until(() => a.emulator.context.store.health().up, 'the store to be back', 15_000);
    expect(await scrape()).toMatch(/^topics_emulator_store_up 1$/m);
  });

  it("ignores what is not a replica's message on the channels it listens to (not JSON, not an object, another shape), and goes on working", async () => {
    const [a, b, prefix] = await replicas();
    const replicasOf = (replica: TestEmulator) => replica.emulator.context.shared?.replicas as RedisReplicas;
    // A reader on a: b passes its events on, and a listens on the relay's channel.
    const stream = await openStream(a.url);
    const probe = new Redis(fleet.redis().url);
    try {
      await stream.next((frame) => frame.event === 'hello');
      await until(() => replicasOf(b).relay.relaying, 'b to pass its events on');
      const channels = [
        `${prefix}events`,
        `${prefix}relayed-events`,
        `${prefix}event-readers`,
        `${prefix}replica:${replicasOf(a).id}`,
        `${prefix}replica:${replicasOf(b).id}`,
      ];
      for (const channel of channels)
        for (const text of ['not JSON {', 'null', '42', '[1,2]', '"text"', '{"k":"n"}', '{"k":"p","id":5,"page":"x"}'])
          await probe.publish(channel, text);

      // Each replica still holds what the other publishes, answers the other's questions, passes events on.
      expect((await a.publish('cache', 'after-noise', 'one')).status).toBe(204);
      const read = await b.subscribe('cache', 'after-noise', { seq: 1 });
      expect(numbers(read.json as Items)).toEqual([1]);
      const state = await fetch(`${a.url}/_emulator/state`);
      expect(state.status).toBe(200);
      expect((await b.publish('cache', 'after-noise', 'two')).status).toBe(204);
      await stream.next(
        (frame) =>
          frame.event === 'request' && (JSON.parse(frame.data!) as { replica?: string }).replica === replicasOf(b).id,
      );
    } finally {
      stream.close();
      probe.disconnect();
    }
  });

  it("the CLI with a Redis store leaves V8's inlining budget alone (it widens it only with topics in memory)", async () => {
    const run = runCli([
      '--port',
      '0',
      '--store',
      fleet.redis().url,
      '--store-prefix',
      'budget:',
      '--log-level',
      'debug',
    ]);
    fleet.children.push(run);
    await baseUrlOf(run);
    expect(await printed(run, /V8's inlining budget[^"]*/)).toBe("V8's inlining budget: left as Node has it");
  });

  it('keys live under the prefix only', async () => {
    const [a, , prefix] = await replicas();
    await a.publish('cache', 'keys', 'x');
    const probe = new Redis(fleet.redis().url);
    try {
      const keys = await probe.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => key.startsWith(prefix))).toContain(`${prefix}topics`);
      expect(await probe.xlen(`${prefix}s:["cache","keys"]`)).toBe(1);
    } finally {
      probe.disconnect();
    }
  });

  it('a snapshot loaded into one replica replaces the topics of every replica', async () => {
    const [a, b] = await replicas();
    await a.publish('cache', 'before', 'x');
    const snapshot = a.emulator.snapshot();
    snapshot.topics = [
      {
        cache: 'cache',
        topic: 'loaded',
        page: 5,
        nextSequenceNumber: 3,
        messages: [{ sequenceNumber: 2, value: { text: 'two' } }],
      },
    ];
    a.emulator.restore(snapshot);
    await until(() => b.emulator.context.store.position('cache', 'loaded') !== undefined, 'b to load the snapshot');
    expect(b.emulator.context.store.contents()).toEqual(snapshot.topics);
    expect(b.emulator.context.store.snapshot().map((t) => t.topic)).toEqual(['loaded']);
    expect((await b.publish('cache', 'loaded', 'three')).status).toBe(204);
    // b's 204 says b holds it; a holds it once the announcement reaches it.
    await until(() => a.emulator.context.store.position('cache', 'loaded')?.next === 4, 'a to hold message 3');
    expect(numbers((await a.subscribe('cache', 'loaded', { seq: 2, page: 5 })).json as Items)).toEqual([2, 3]);
  });

  it('health reports the store; what needs the in-memory store is refused with Redis', async () => {
    const [a] = await replicas();
    expect(await (await fetch(`${a.url}/_emulator/health`)).json()).toMatchObject({
      status: 'ok',
      store: { kind: 'redis', up: true },
    });
    expect(() =>
      a.emulator.applyScenario({ topics: [{ cache: 'cache', topic: 't', messages: [{ text: 'x' }] }] }),
    ).toThrow(/seeding topics needs the in-memory store/);
    await expect(
      startEmulator({ port: 0, store: fleet.redis().url, stateFile: '/tmp/never-written.json' }),
    ).rejects.toThrow(/stateFile/);
    const memory = await testEmulator();
    running.push(memory);
    expect(await (await fetch(`${memory.url}/_emulator/health`)).json()).toMatchObject({
      status: 'ok',
      store: { kind: 'memory', up: true },
    });
  });
});
