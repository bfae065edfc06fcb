import { MomentoErrorCode, TopicPublish, TopicSubscribe } from '@gomomento/sdk';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/emulator.js';
import { counted, streamErrorAfterThree, testAdmin, withTopicClient } from './sdk.js';

// The cases of the SDK's topic retry suite (client-sdk-javascript,
// packages/client-sdk-nodejs/test/integration/retry/topic-client-retry.test.ts), rewritten: the
// same metadata, timeouts and expectations, against `topics-emulator --grpc-port P
// --test-admin-port A`. Its semaphores become waits with a deadline.

const WAIT_MS = 20_000;

describe('Topic client retry tests', () => {
  describe('subscribe', () => {
    it('should retry on recoverable error and restore connection', async () => {
      const { seen, options } = counted();
      await withTopicClient(
        (c) => c,
        streamErrorAfterThree(MomentoErrorCode.SERVER_UNAVAILABLE),
        async (topics, cacheName) => {
          const subscription = await topics.subscribe(cacheName, 'topic', options);
          expect(subscription).toBeInstanceOf(TopicSubscribe.Subscription);
          expect(seen.lost).toBe(0);
          await until(() => seen.lost >= 1, 'the connection lost', WAIT_MS);
          expect(seen.lost).toBe(1);
          expect(seen.errors).toEqual([]);
          (subscription as TopicSubscribe.Subscription).unsubscribe();
        },
      );
    });

    it('should not retry on an unrecoverable error', async () => {
      const { seen, options } = counted();
      await withTopicClient(
        (c) => c,
        streamErrorAfterThree(MomentoErrorCode.CACHE_NOT_FOUND_ERROR),
        async (topics, cacheName) => {
          expect(await topics.subscribe(cacheName, 'topic', options)).toBeInstanceOf(TopicSubscribe.Subscription);
          await until(() => seen.lost >= 1 && seen.errors.length >= 1, 'the connection lost and the error', WAIT_MS);
          expect(seen.errors).toHaveLength(1);
          expect(seen.lost).toBe(1);
        },
      );
    });

    it('should timeout if deadline exceeds client timeout on first message', async () => {
      await withTopicClient(
        (c) => c.withClientTimeoutMillis(3000),
        { delayRpcs: [MomentoRPCMethod.TopicSubscribe], delayMs: 4000 },
        async (topics, cacheName) => {
          expect(await topics.subscribe(cacheName, 'topic', {})).toBeInstanceOf(TopicSubscribe.Error);
        },
      );
    });
  });

  describe('publish', () => {
    it('should error on deadline exceeded', async () => {
      // The default deadline is 5 seconds.
      await withTopicClient(
        (c) => c,
        { delayRpcs: [MomentoRPCMethod.TopicPublish], delayMs: 6000 },
        async (topics, cacheName) => {
          const response = await topics.publish(cacheName, 'topic', 'message');
          expect(response).toBeInstanceOf(TopicPublish.Error);
          expect((response as TopicPublish.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        },
      );
    });
  });

  describe('test-admin', () => {
    it('should pause subscription when admin port is blocked and resume subscription once admin port is unblocked', async () => {
      const { seen, options } = counted();
      await withTopicClient(
        (c) => c,
        {},
        async (topics, cacheName) => {
          const subscription = await topics.subscribe(cacheName, 'topic', options);
          expect(subscription).toBeInstanceOf(TopicSubscribe.Subscription);
          try {
            await until(() => seen.heartbeats >= 5, 'five heartbeats', WAIT_MS);
            await testAdmin.block();
            // Counted once the block is in place: a heartbeat already on its way may still land.
            const before = seen.heartbeats;
            try {
              await until(() => seen.lost >= 1, 'the connection lost', WAIT_MS);
              expect(seen.lost).toBe(1);
              expect(seen.heartbeats).toBe(before);
            } finally {
              await testAdmin.unblock();
            }
            await until(() => seen.heartbeats > before, 'heartbeats again', WAIT_MS);
          } finally {
            (subscription as TopicSubscribe.Subscription).unsubscribe();
          }
        },
      );
    });
  });
});
