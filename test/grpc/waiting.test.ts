import { status as grpcStatus } from '@grpc/grpc-js';
import { MomentoErrorCode, TopicSubscribeResponse, type TopicClient, type TopicSubscribe } from '@gomomento/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { pubsub, rawPubsubClient, sdkTopicClient, startGrpcEmulator } from './harness.js';

// An SDK's open subscription stream is a waiting subscriber like a long-poll: the state and the
// dashboard list it, the account limits count it, and "while waiting" fault rules end it (the
// SDK subscribes again); a rule for gRPC leaves HTTP long-polls alone.

let emulator: RunningEmulator;
let sdk: TopicClient;
const subscriptions: TopicSubscribe.Subscription[] = [];

beforeAll(async () => {
  emulator = await startGrpcEmulator();
  sdk = sdkTopicClient(emulator);
});
afterEach(() => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
});
afterAll(async () => {
  await emulator?.close();
});

async function open(topic: string, counters = { lost: 0, items: 0 }) {
  const subscription = (await sdk.subscribe('default-cache', topic, {
    onItem: () => counters.items++,
    onConnectionLost: () => counters.lost++,
  })) as TopicSubscribe.Subscription;
  subscriptions.push(subscription);
  return counters;
}

const waitingOn = (topic: string) => emulator.state().waitingSubscribers.filter((w) => w.topic === topic);

describe('gRPC streams as waiting subscribers', () => {
  it('lists an open stream with its cursor and client until the SDK unsubscribes, and tells the event stream', async () => {
    const heard: number[] = [];
    const off = emulator.context.events.on(
      (event) => {
        if (event.kind === 'waiting' && event.topic === 'waiting-listed') heard.push(event.waiting);
      },
      ['waiting'],
    );
    await open('waiting-listed');
    await vi.waitFor(() => expect(waitingOn('waiting-listed')).toHaveLength(1), { timeout: 5000 });
    expect(heard).toEqual([1]);
    expect(waitingOn('waiting-listed')[0]).toMatchObject({
      cache: 'default-cache',
      client: expect.stringMatching(/^key:#/),
    });
    subscriptions.pop()!.unsubscribe();
    await vi.waitFor(() => expect(waitingOn('waiting-listed')).toEqual([]), { timeout: 5000 });
    expect(heard).toEqual([1, 0]);
    off();
  });

  it('ends a stream with a "while waiting" rule for gRPC: the SDK subscribes again and goes on; HTTP long-polls are left alone', async () => {
    const counters = await open('waiting-fault');
    await vi.waitFor(() => expect(waitingOn('waiting-fault')).toHaveLength(1), { timeout: 5000 });
    const poll = fetch(`${emulator.url}/topics/default-cache/waiting-fault`, {
      headers: { authorization: emulator.apiKey },
    });
    await vi.waitFor(() => expect(waitingOn('waiting-fault')).toHaveLength(2), { timeout: 5000 });
    const rule = emulator.addFault({
      protocol: 'grpc',
      operation: 'subscribe',
      whileWaiting: true,
      status: 503,
      count: 1,
    });
    await vi.waitFor(() => expect(counters.lost).toBe(1), { timeout: 5000 });
    const [ended] = (await emulator.requests({ protocol: 'grpc', topic: 'waiting-fault' })).entries;
    expect(ended).toMatchObject({ status: 503, decidedBy: { kind: 'fault', ruleId: rule.id } });
    // The SDK is back, and receives; the HTTP long-poll was never interrupted and gets the message too.
    await vi.waitFor(() => expect(waitingOn('waiting-fault')).toHaveLength(2), { timeout: 5000 });
    await vi.waitFor(
      async () => {
        await sdk.publish('default-cache', 'waiting-fault', 'after');
        expect(counters.items).toBeGreaterThan(0);
      },
      { timeout: 5000, interval: 300 },
    );
    expect((await poll).status).toBe(200);
  });

  it('ends a stream with an "after N items" rule once N items are through; the SDK resubscribes at N + 1 and misses nothing', async () => {
    // The rule counts the streams that open after it (a stream is admitted once, as it opens).
    const rule = emulator.addFault({
      protocol: 'grpc',
      operation: 'subscribe',
      topic: 'after-items',
      afterItems: 3,
      status: 503,
      count: 1,
    });
    const received: number[] = [];
    let lost = 0;
    const subscription = (await sdk.subscribe('default-cache', 'after-items', {
      onItem: (item) => received.push(item.sequenceNumber()),
      onConnectionLost: () => lost++,
    })) as TopicSubscribe.Subscription;
    subscriptions.push(subscription);
    await vi.waitFor(() => expect(waitingOn('after-items')).toHaveLength(1), { timeout: 5000 });
    for (let i = 1; i <= 6; i++) await sdk.publish('default-cache', 'after-items', `m${i}`);
    await vi.waitFor(() => expect(received).toEqual([1, 2, 3, 4, 5, 6]), { timeout: 5000 });
    expect(lost).toBe(1);
    const streams = (await emulator.requests({ protocol: 'grpc', topic: 'after-items', operation: 'subscribe' }))
      .entries;
    expect(streams.at(-1)).toMatchObject({ status: 503, delivered: 3, decidedBy: { kind: 'fault', ruleId: rule.id } });
  });
});

describe('the subscribe decisions both doors share (service/subscribe.ts)', () => {
  let limited: RunningEmulator;
  beforeAll(async () => {
    limited = await startGrpcEmulator({ maxWaitingSubscribers: 1 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('counts a stream against --max-waiting-subscribers as it opens: the next long-poll and the next stream get limit_exceeded', async () => {
    const client = sdkTopicClient(limited);
    const first = await client.subscribe('default-cache', 'limited', { onItem: () => {} });
    expect(first.type).toBe(TopicSubscribeResponse.Subscription);
    await vi.waitFor(() => expect(limited.state().waitingSubscribers).toHaveLength(1), { timeout: 5000 });
    const poll = await fetch(`${limited.url}/topics/default-cache/limited`, {
      headers: { authorization: limited.apiKey },
    });
    expect(poll.status).toBe(429);
    expect(await poll.json()).toMatchObject({ code: 'limit_exceeded' });
    const second = await client.subscribe('default-cache', 'limited', { onItem: () => {} });
    expect(second.type).toBe(TopicSubscribeResponse.Error);
    expect((second as TopicSubscribe.Error).errorCode()).toBe(MomentoErrorCode.LIMIT_EXCEEDED_ERROR);
    const [refused] = (await limited.requests({ protocol: 'grpc', topic: 'limited', status: 429 })).entries;
    expect(refused).toMatchObject({
      code: 'limit_exceeded',
      decidedBy: { kind: 'limit', limit: 'waiting-subscribers' },
    });
    (first as TopicSubscribe.Subscription).unsubscribe();
  });

  it('refuses a cursor past the whole numbers JavaScript holds, naming the field, as the HTTP API does', async () => {
    const raw = rawPubsubClient(limited);
    try {
      const call = raw.Subscribe(
        new pubsub._SubscriptionRequest({
          cache_name: 'default-cache',
          topic: 'cursor',
          resume_at_topic_sequence_number: 2 ** 60,
          sequence_page: 0,
        }),
      );
      const status = await new Promise<{ code: number; details: string }>((resolve) => {
        call.on('error', (error: { code: number; details: string }) => resolve(error));
        call.on('data', () => {});
      });
      expect(status.code).toBe(grpcStatus.INVALID_ARGUMENT);
      expect(status.details).toMatch(/resume_at_topic_sequence_number must be a whole number/);
    } finally {
      raw.close();
    }
  });
});
