import type { TopicSubscribe } from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { sdkTopicClient } from '../grpc/harness.js';
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
});
