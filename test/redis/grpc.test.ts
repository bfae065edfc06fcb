import type { TopicSubscribe } from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { pubsub, rawPubsubClient, sdkTopicClient } from '../grpc/harness.js';
import { useFleet } from './fleet.js';

// The gRPC door on replicas sharing one Redis: what the provider's SDK publishes through one
// replica's door reaches an SDK subscribed through the other's, numbered once for both.

const fleet = useFleet();

const replica = fleet.starter('grpc', { grpcPort: 0, host: '127.0.0.1' });

describe('the gRPC door on replicas', () => {
  it("delivers an SDK publish on one replica to an SDK subscription on the other, and HTTP's too", async () => {
    const a = await replica();
    const b = await replica();
    const received: [number, string][] = [];
    let heartbeats = 0;
    const subscription = (await sdkTopicClient(b.emulator).subscribe('cache', 'shared', {
      onItem: (item) => received.push([item.sequenceNumber(), item.valueString()]),
      onHeartbeat: () => heartbeats++,
    })) as TopicSubscribe.Subscription;
    try {
      await vi.waitFor(() => expect(heartbeats).toBeGreaterThan(0), { timeout: 5000 });
      await sdkTopicClient(a.emulator).publish('cache', 'shared', 'through a');
      expect((await a.publish('cache', 'shared', 'over http')).status).toBe(204);
      await vi.waitFor(
        () =>
          expect(received).toEqual([
            [1, 'through a'],
            [2, 'over http'],
          ]),
        { timeout: 5000 },
      );
    } finally {
      subscription.unsubscribe();
    }
  });

  it("carries each item's publisher (the publishing token's id) through Redis: to the other replica's stream, and to a replica that joins later", async () => {
    const a = await replica();
    const b = await replica();
    const { token } = await a.emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: 'cache', topic: '*' }],
      tokenId: 'publisher-a',
    });
    const publishers: string[] = [];
    let heartbeats = 0;
    const subscription = (await sdkTopicClient(b.emulator).subscribe('cache', 'publishers', {
      onItem: (item) => publishers.push(item.tokenId() ?? ''),
      onHeartbeat: () => heartbeats++,
    })) as TopicSubscribe.Subscription;
    try {
      await vi.waitFor(() => expect(heartbeats).toBeGreaterThan(0), { timeout: 5000 });
      const sent = await fetch(`${a.emulator.url}/topics/cache/publishers`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'text/plain' },
        body: 'by token',
      });
      expect(sent.status).toBe(204);
      expect((await a.publish('cache', 'publishers', 'by the API key')).status).toBe(204);
      await vi.waitFor(() => expect(publishers).toEqual(['publisher-a', '']), { timeout: 5000 });
    } finally {
      subscription.unsubscribe();
    }
    // A replica started now loads the topic from Redis, publishers included.
    const c = await replica();
    const page = c.emulator.state().topics.find((t) => t.topic === 'publishers')?.page;
    expect(page).toBeGreaterThan(0);

    // A bare client asks from number 1 (the SDK always starts at the next message).
    const raw = rawPubsubClient(c.emulator);
    try {
      const call = raw.Subscribe(
        new pubsub._SubscriptionRequest({
          cache_name: 'cache',
          topic: 'publishers',
          resume_at_topic_sequence_number: 1,
          sequence_page: page!,
        }),
      );
      const loaded: string[] = [];
      call.on('data', (message: { item?: { publisher_id: string } }) => {
        if (message.item) loaded.push(message.item.publisher_id);
      });
      call.on('error', () => {});
      await vi.waitFor(() => expect(loaded).toEqual(['publisher-a', '']), { timeout: 5000 });
      call.cancel();
    } finally {
      raw.close();
    }
  });
});
