import {
  CacheGet,
  CacheIncrement,
  DefaultMomentoLoggerFactory,
  ExponentialBackoffRetryStrategy,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { describe, expect, it } from 'vitest';
import { withCacheClient } from './sdk.js';

// The cases of the SDK's exponential-backoff retry suite (client-sdk-javascript,
// packages/client-sdk-nodejs/test/integration/retry/exponential-backoff-retry-strategy.test.ts),
// rewritten: the same strategy settings, client timeouts and bounds on the retries.

const loggerFactory = new DefaultMomentoLoggerFactory();

describe('ExponentialBackoffRetryStrategy integration tests', () => {
  describe('Full network outage', () => {
    it('should make multiple attempts for retry-eligible APIs until client times out', async () => {
      const strategy = new ExponentialBackoffRetryStrategy({
        loggerFactory,
        initialDelayMillis: 100,
        maxBackoffMillis: 2000,
      });
      await withCacheClient(
        (c) => c.withRetryStrategy(strategy).withClientTimeoutMillis(5000),
        { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Get] },
        async (cache, cacheName, attempts) => {
          const response = await cache.get(cacheName, 'key');
          // The client timeout ends the retries: the SDK reports it as a timeout.
          expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
          const retries = attempts.retries(cacheName, MomentoRPCMethod.Get);
          expect(retries).toBeGreaterThanOrEqual(2);
          expect(retries).toBeLessThanOrEqual(5);
        },
      );
    });

    it('should make 0 attempts for retry non-eligible APIs', async () => {
      const strategy = new ExponentialBackoffRetryStrategy({ loggerFactory });
      await withCacheClient(
        (c) => c.withRetryStrategy(strategy),
        { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Increment] },
        async (cache, cacheName, attempts) => {
          expect(await cache.increment(cacheName, 'key', 1)).toBeInstanceOf(CacheIncrement.Error);
          expect(attempts.retries(cacheName, MomentoRPCMethod.Increment)).toBe(0);
        },
      );
    });
  });

  describe('Temporary network outage', () => {
    it('should succeed with fewer retries once the service becomes available', async () => {
      const strategy = new ExponentialBackoffRetryStrategy({
        loggerFactory,
        initialDelayMillis: 100,
        maxBackoffMillis: 2000,
      });
      await withCacheClient(
        (c) => c.withRetryStrategy(strategy).withClientTimeoutMillis(4000),
        { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Get], errorCount: 2 },
        async (cache, cacheName, attempts) => {
          expect(await cache.get(cacheName, 'key')).toBeInstanceOf(CacheGet.Miss);
          const retries = attempts.retries(cacheName, MomentoRPCMethod.Get);
          expect(retries).toBeGreaterThanOrEqual(1);
          expect(retries).toBeLessThanOrEqual(4);
        },
      );
    });
  });
});
