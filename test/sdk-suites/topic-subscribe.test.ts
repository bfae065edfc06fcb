import { MomentoErrorCode, TopicSubscribe, type TopicClient, type SubscribeCallOptions } from '@gomomento/sdk';
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/emulator.js';
import { counted, streamErrorAfterThree, waitingOn, withTopicClient } from './sdk.js';

// The cases of the SDK's subscribe-initialisation suite (client-sdk-javascript,
// packages/client-sdk-nodejs/test/integration/retry/topic-subscribe.test.ts), rewritten: a channel
// holds at most 100 streams, the SDK refuses one more without queueing it, and bursts of up to
// 2,010 subscriptions on 2, 10 and 20 channels all open on the emulator. Its fixed sleeps become
// waits on the SDK's own callbacks.

const STREAMS_PER_CHANNEL = 100;

function subscribeAll(topics: TopicClient, cacheName: string, count: number, options: SubscribeCallOptions) {
  return Promise.all(Array.from({ length: count }, () => topics.subscribe(cacheName, 'topic', options)));
}

const opened = (responses: unknown[]) =>
  responses.filter((r): r is TopicSubscribe.Subscription => r instanceof TopicSubscribe.Subscription);

const exhausted = (response: unknown) => (response as TopicSubscribe.Error).errorCode();

describe('Topic subscribe initialization tests', () => {
  it('should not silently queue subscribe requests on full channels', async () => {
    const { seen, options } = counted();
    await withTopicClient(
      (c) => c.withNumStreamConnections(1),
      {},
      async (topics, cacheName) => {
        const subscriptions: TopicSubscribe.Subscription[] = [];
        try {
          for (let i = 0; i < STREAMS_PER_CHANNEL; i++) {
            const response = await topics.subscribe(cacheName, 'topic', options);
            expect(response).toBeInstanceOf(TopicSubscribe.Subscription);
            subscriptions.push(response as TopicSubscribe.Subscription);
          }
          expect(exhausted(await topics.subscribe(cacheName, 'topic', options))).toBe(
            MomentoErrorCode.CLIENT_RESOURCE_EXHAUSTED,
          );

          subscriptions[0]!.unsubscribe();
          await until(() => seen.ended === 1, 'the first subscription ended', 10_000);
          const again = await topics.subscribe(cacheName, 'topic', options);
          expect(again).toBeInstanceOf(TopicSubscribe.Subscription);
          subscriptions.push(again as TopicSubscribe.Subscription);

          // Not decremented twice: the channel is full again.
          expect(exhausted(await topics.subscribe(cacheName, 'topic', options))).toBe(
            MomentoErrorCode.CLIENT_RESOURCE_EXHAUSTED,
          );
          expect(seen.ended).toBe(1);
        } finally {
          for (const s of subscriptions) s.unsubscribe();
        }
      },
    );
  });

  it('mid-stream error should end the subscription', async () => {
    const { seen, options } = counted();
    await withTopicClient(
      (c) => c.withNumStreamConnections(1),
      streamErrorAfterThree(MomentoErrorCode.CACHE_NOT_FOUND_ERROR),
      async (topics, cacheName) => {
        const response = await topics.subscribe(cacheName, 'topic', options);
        expect(response).toBeInstanceOf(TopicSubscribe.Subscription);
        try {
          await until(() => seen.ended === 1, 'the subscription ended', 10_000);
          expect(seen.errors).toEqual([MomentoErrorCode.CACHE_NOT_FOUND_ERROR]);
        } finally {
          (response as TopicSubscribe.Subscription).unsubscribe();
        }
      },
    );
  });

  describe.each([2, 10, 20])('using %i stream channels', (channels) => {
    const capacity = channels * STREAMS_PER_CHANNEL;

    /** A burst of `count` subscribe calls on `channels` channels: what opened, what was refused, on the emulator too. */
    function burst(count: number) {
      const { seen, options } = counted();
      return withTopicClient(
        (c) => c.withNumStreamConnections(channels),
        {},
        async (topics, cacheName) => {
          const responses = await subscribeAll(topics, cacheName, count, options);
          const subscriptions = opened(responses);
          try {
            return {
              opened: subscriptions.length,
              refused: responses.filter((r) => r instanceof TopicSubscribe.Error).length,
              errors: seen.errors.length,
              lost: seen.lost,
              // Each is a stream open on the emulator, not only on the SDK's side.
              onEmulator: await waitingOn(cacheName, 'topic'),
            };
          } finally {
            for (const s of subscriptions) s.unsubscribe();
          }
        },
      );
    }

    it('should handle a burst of subscribe requests < max capacity', async () => {
      const half = capacity / 2;
      expect(await burst(half)).toEqual({ opened: half, refused: 0, errors: 0, lost: 0, onEmulator: half });
    });

    it('should handle a burst of subscribe requests == max capacity', async () => {
      expect(await burst(capacity)).toEqual({ opened: capacity, refused: 0, errors: 0, lost: 0, onEmulator: capacity });
    });

    it('should handle a burst of subscribe requests > max capacity', async () => {
      expect(await burst(capacity + 10)).toEqual({
        opened: capacity,
        refused: 10,
        errors: 0,
        lost: 0,
        onEmulator: capacity,
      });
    });

    it('handles a burst of subscribe, unsubscribe, subscribe requests', async () => {
      const { seen, options } = counted();
      await withTopicClient(
        (c) => c.withNumStreamConnections(channels),
        {},
        async (topics, cacheName) => {
          const first = opened(await subscribeAll(topics, cacheName, capacity, options));
          const second: TopicSubscribe.Subscription[] = [];
          try {
            expect(first).toHaveLength(capacity);
            const half = capacity / 2;
            for (const s of first.slice(0, half)) s.unsubscribe();
            await until(() => seen.ended === half, `${half} subscriptions ended`, 10_000);
            second.push(...opened(await subscribeAll(topics, cacheName, half + 10, options)));
            expect(second).toHaveLength(half);
          } finally {
            for (const s of [...first, ...second]) s.unsubscribe();
          }
        },
      );
    });
  });
});
