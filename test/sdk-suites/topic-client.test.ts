import { randomUUID } from 'node:crypto';
import {
  CacheClient,
  CacheNotFoundError,
  Configurations,
  CreateCache,
  DeleteCache,
  MomentoErrorCode,
  TopicClient,
  TopicConfigurations,
  TopicPublish,
  TopicSubscribe,
  type SubscribeCallOptions,
} from '@gomomento/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../helpers/emulator.js';
import { momentoLocal, waitingOn } from './sdk.js';

// The cases of the provider's shared topic-client suite (client-sdk-javascript,
// packages/common-integration-tests/src/topics/topic-client.ts, run by the Node SDK's
// test/integration/shared/topics/topic-client.test.ts), rewritten: what an SDK user's suite,
// written against the live service, expects. Its fixed waits become waits on what the emulator
// says (its waiting subscribers) and on a second subscription that proves a message has gone out.

const CACHE = 'default-cache';
const topics = new TopicClient({
  configuration: TopicConfigurations.Default.latest(),
  credentialProvider: momentoLocal(),
});
const throwing = new TopicClient({
  configuration: TopicConfigurations.Default.latest().withThrowOnErrors(true),
  credentialProvider: momentoLocal(),
});
let caches: CacheClient;
const open: TopicSubscribe.Subscription[] = [];

beforeAll(async () => {
  caches = await CacheClient.create({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: momentoLocal(),
    defaultTtlSeconds: 60,
  });
});
afterEach(() => {
  for (const subscription of open.splice(0)) subscription.unsubscribe();
});
afterAll(() => caches?.close());

const trivial: SubscribeCallOptions = { onItem: () => {}, onError: () => {} };

function expectInvalid(response: unknown, message: string) {
  const error = response as TopicPublish.Error;
  expect(error.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  expect(error.message()).toBe(`Invalid argument passed to Momento client: ${message}`);
}

async function subscribed(cache: string, topic: string, options: SubscribeCallOptions) {
  const response = await topics.subscribe(cache, topic, options);
  expect(response, response.toString()).toBeInstanceOf(TopicSubscribe.Subscription);
  open.push(response as TopicSubscribe.Subscription);
  return response as TopicSubscribe.Subscription;
}

const untilWaiting = (cache: string, topic: string, count: number) =>
  vi.waitFor(async () => expect(await waitingOn(cache, topic)).toBe(count), { timeout: 10_000, interval: 20 });

describe('#publish', () => {
  it('validates its cache name', async () => {
    expectInvalid(await topics.publish('   ', 'topic', 'value'), 'cache name must not be empty');
  });

  it('validates its topic name', async () => {
    expectInvalid(await topics.publish('cache', '   ', 'value'), 'topic name must not be empty');
  });

  it('should error when publishing to a cache that does not exist', async () => {
    const response = await topics.publish(randomUUID(), 'topic', 'value');
    expect((response as TopicPublish.Error).errorCode(), response.toString()).toBe(
      MomentoErrorCode.CACHE_NOT_FOUND_ERROR,
    );
    expect((response as TopicPublish.Error).message()).toContain('A cache with the specified name does not exist.');
  });

  it('should not error when publishing to a topic that does not exist', async () => {
    expect(await topics.publish(CACHE, randomUUID(), 'value')).toBeInstanceOf(TopicPublish.Success);
  });
});

describe('#subscribe', () => {
  it('validates its cache name', async () => {
    expectInvalid(await topics.subscribe('   ', 'topic', trivial), 'cache name must not be empty');
  });

  it('validates its topic name', async () => {
    expectInvalid(await topics.subscribe('cache', '   ', trivial), 'topic name must not be empty');
  });

  it('should error when subscribing to a cache that does not exist and unsubscribe from the error handler', async () => {
    const response = await topics.subscribe(randomUUID(), 'topic', trivial);
    expect((response as TopicSubscribe.Error).errorCode(), response.toString()).toBe(
      MomentoErrorCode.CACHE_NOT_FOUND_ERROR,
    );
  });
});

describe('subscribe and publish', () => {
  it('should publish strings and bytes and receive them on a subscription', async () => {
    const topic = randomUUID();
    const received: unknown[] = [];
    const errors: string[] = [];
    await subscribed(CACHE, topic, {
      onItem: (i) => void received.push(i.value()),
      onError: (e) => void errors.push(e.message()),
    });
    await untilWaiting(CACHE, topic, 1);
    for (const value of ['value1', 'value2', new TextEncoder().encode('value3')])
      expect(await topics.publish(CACHE, topic, value)).toBeInstanceOf(TopicPublish.Success);
    await until(() => received.length === 3, 'three items', 10_000);
    expect(received).toEqual(['value1', 'value2', new TextEncoder().encode('value3')]);
    expect(errors).toEqual([]);
  });

  it('should not receive messages when unsubscribed', async () => {
    const topic = randomUUID();
    const gone: unknown[] = [];
    const stays: unknown[] = [];
    const subscription = await subscribed(CACHE, topic, { onItem: (i) => void gone.push(i.value()) });
    await subscribed(CACHE, topic, { onItem: (i) => void stays.push(i.value()) });
    await untilWaiting(CACHE, topic, 2);
    subscription.unsubscribe();
    await untilWaiting(CACHE, topic, 1);
    expect(await topics.publish(CACHE, topic, 'value')).toBeInstanceOf(TopicPublish.Success);
    // The subscription still open has the message: it has gone out to every stream there was.
    await until(() => stays.length === 1, 'the message on the open subscription', 10_000);
    expect(gone).toEqual([]);
  });

  it('should subscribe with default handlers', async () => {
    const subscription = await subscribed(CACHE, randomUUID(), { onItem: () => {} });
    expect(subscription.isSubscribed).toBe(true);
  });

  it('should unsubscribe automatically if the cache is deleted mid-subscription', async () => {
    const cache = randomUUID();
    expect(await caches.createCache(cache)).toBeInstanceOf(CreateCache.Success);
    const errors: string[] = [];
    const items: unknown[] = [];
    let subscribedWhenErrored: boolean | undefined;
    await subscribed(cache, 'topic', {
      onItem: (i) => void items.push(i.value()),
      onError: (e, s) => {
        errors.push(e.errorCode());
        subscribedWhenErrored = s.isSubscribed;
      },
    });
    await untilWaiting(cache, 'topic', 1);
    expect(await caches.deleteCache(cache)).toBeInstanceOf(DeleteCache.Success);
    await until(() => errors.length > 0, 'the subscription error', 10_000);
    expect(errors).toEqual([MomentoErrorCode.CACHE_NOT_FOUND_ERROR]);
    expect(subscribedWhenErrored).toBe(false);
    expect(items).toEqual([]);
    const again = await caches.deleteCache(cache);
    expect((again as DeleteCache.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });
});

describe('when client is configured to throw on errors', () => {
  it('should throw when publishing to a cache that does not exist', async () => {
    await expect(throwing.publish(randomUUID(), 'topic', 'value')).rejects.toThrow(CacheNotFoundError);
  });
});
