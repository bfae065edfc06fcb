import { randomUUID } from 'node:crypto';
import {
  CacheClient,
  CacheNotFoundError,
  Configurations,
  CreateCache,
  DeleteCache,
  MomentoErrorCode,
  TopicConfigurations,
  TopicPublishResponse,
  TopicSubscribeResponse,
  type TopicClient,
  type TopicSubscribe,
} from '@gomomento/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { momentoLocal, sdkTopicClient, startGrpcEmulator } from './harness.js';

// The cases of the provider's own topic-client integration tests (client-sdk-javascript,
// packages/common-integration-tests/src/topics/topic-client.ts), run against the emulator with the
// SDK unchanged: what an SDK user's suite, written against the live service, expects of it. Their
// fixed waits become waits on what the emulator says (its waiting subscribers) and on a second
// subscription that proves a message has gone out.

let emulator: RunningEmulator;
let topics: TopicClient;
let caches: CacheClient;
const open: TopicSubscribe.Subscription[] = [];

beforeAll(async () => {
  emulator = await startGrpcEmulator();
  topics = sdkTopicClient(emulator);
  caches = new CacheClient({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: momentoLocal(emulator),
    defaultTtlSeconds: 60,
  });
});
afterEach(() => {
  for (const subscription of open.splice(0)) subscription.unsubscribe();
});
afterAll(async () => {
  caches?.close();
  await emulator?.close();
});

const waitingOn = (topic: string) => emulator.state().waitingSubscribers.filter((w) => w.topic === topic).length;

async function subscribed(
  cache: string,
  topic: string,
  on: { items?: unknown[]; errors?: TopicSubscribe.Error[] } = {},
): Promise<TopicSubscribe.Subscription> {
  const response = await topics.subscribe(cache, topic, {
    onItem: (item) => on.items?.push(item.value()),
    onError: (error) => on.errors?.push(error),
  });
  expect(response.type, response.toString()).toBe(TopicSubscribeResponse.Subscription);
  const subscription = response as TopicSubscribe.Subscription;
  open.push(subscription);
  return subscription;
}

describe("the SDK's topic-client integration cases", () => {
  it('publish to a cache that does not exist: CACHE_NOT_FOUND_ERROR, with the SDK\'s "does not exist" message', async () => {
    const response = await topics.publish(randomUUID(), 'topic', 'value');
    expect(response.type).toBe(TopicPublishResponse.Error);
    const error = response as { errorCode(): MomentoErrorCode; message(): string };
    expect(error.errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
    expect(error.message()).toContain('A cache with the specified name does not exist.');
  });

  it('publish to a topic nobody has used: success', async () => {
    expect((await topics.publish('default-cache', randomUUID(), 'value')).type).toBe(TopicPublishResponse.Success);
  });

  it('subscribe to a cache that does not exist: CACHE_NOT_FOUND_ERROR', async () => {
    const response = await topics.subscribe(randomUUID(), 'topic', { onItem: () => {}, onError: () => {} });
    expect(response.type).toBe(TopicSubscribeResponse.Error);
    expect((response as TopicSubscribe.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('an empty cache or topic name: INVALID_ARGUMENT_ERROR', async () => {
    for (const [cache, topic] of [
      ['', 'topic'],
      ['default-cache', ''],
    ] as const) {
      const published = await topics.publish(cache, topic, 'value');
      expect((published as { errorCode(): MomentoErrorCode }).errorCode()).toBe(
        MomentoErrorCode.INVALID_ARGUMENT_ERROR,
      );
      const subscribe = await topics.subscribe(cache, topic, { onItem: () => {}, onError: () => {} });
      expect((subscribe as TopicSubscribe.Error).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    }
  });

  it('publishes strings and bytes and receives them, in order, on a subscription', async () => {
    const topic = randomUUID();
    const items: unknown[] = [];
    const errors: TopicSubscribe.Error[] = [];
    await subscribed('default-cache', topic, { items, errors });
    await vi.waitFor(() => expect(waitingOn(topic)).toBe(1), { timeout: 5000 });
    for (const value of ['value1', 'value2', new TextEncoder().encode('value3')])
      expect((await topics.publish('default-cache', topic, value)).type).toBe(TopicPublishResponse.Success);
    await vi.waitFor(() => expect(items).toHaveLength(3), { timeout: 5000 });
    expect(items).toEqual(['value1', 'value2', new TextEncoder().encode('value3')]);
    expect(errors).toEqual([]);
  });

  it('a subscription that was unsubscribed receives nothing more', async () => {
    const topic = randomUUID();
    const gone: unknown[] = [];
    const stays: unknown[] = [];
    const subscription = await subscribed('default-cache', topic, { items: gone });
    await subscribed('default-cache', topic, { items: stays });
    await vi.waitFor(() => expect(waitingOn(topic)).toBe(2), { timeout: 5000 });
    subscription.unsubscribe();
    await vi.waitFor(() => expect(waitingOn(topic)).toBe(1), { timeout: 5000 });
    await topics.publish('default-cache', topic, 'value');
    // The subscription still open has the message: it has gone out to every stream there was.
    await vi.waitFor(() => expect(stays).toEqual(['value']), { timeout: 5000 });
    expect(gone).toEqual([]);
  });

  it('a subscription whose cache is deleted ends with CACHE_NOT_FOUND_ERROR and is no longer subscribed', async () => {
    const cache = randomUUID();
    expect(await caches.createCache(cache)).toBeInstanceOf(CreateCache.Success);
    const errors: TopicSubscribe.Error[] = [];
    const items: unknown[] = [];
    const subscription = await subscribed(cache, 'topic', { items, errors });
    await vi.waitFor(() => expect(waitingOn('topic')).toBe(1), { timeout: 5000 });
    expect(await caches.deleteCache(cache)).toBeInstanceOf(DeleteCache.Success);
    await vi.waitFor(() => expect(errors.map((e) => e.errorCode())).toEqual([MomentoErrorCode.CACHE_NOT_FOUND_ERROR]), {
      timeout: 5000,
    });
    expect(subscription.isSubscribed).toBe(false);
    expect(items).toEqual([]);
  });

  it('a client configured to throw on errors throws CacheNotFoundError for a cache that does not exist', async () => {
    const throwing = sdkTopicClient(emulator, TopicConfigurations.Default.latest().withThrowOnErrors(true));
    await expect(throwing.publish(randomUUID(), 'topic', 'value')).rejects.toThrow(CacheNotFoundError);
  });
});
