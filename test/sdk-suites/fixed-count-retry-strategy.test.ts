import { CacheGet, CacheIncrement, MomentoErrorCode } from '@gomomento/sdk';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { describe, expect, it } from 'vitest';
import { withCacheClient } from './sdk.js';

// The cases of the SDK's fixed-count retry suite (client-sdk-javascript,
// packages/client-sdk-nodejs/test/integration/retry/fixed-count-retry-strategy.test.ts),
// rewritten: the SDK's default strategy retries an idempotent call three times.

describe('Fixed count retry strategy with full network outage', () => {
  it('should make max 3 attempts for retry eligible api', async () => {
    await withCacheClient(
      (c) => c,
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Get] },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.SERVER_UNAVAILABLE);
        expect(attempts.retries(cacheName, MomentoRPCMethod.Get)).toBe(3);
      },
    );
  });

  it('should make 0 attempts for retry non-eligible api', async () => {
    await withCacheClient(
      (c) => c,
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Increment] },
      async (cache, cacheName, attempts) => {
        expect(await cache.increment(cacheName, 'key', 1)).toBeInstanceOf(CacheIncrement.Error);
        expect(attempts.retries(cacheName, MomentoRPCMethod.Increment)).toBe(0);
      },
    );
  });
});

describe('Fixed count retry strategy with temporary network outage', () => {
  it('should make less than max number of allowed retry attempts', async () => {
    await withCacheClient(
      (c) => c,
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Get], errorCount: 2 },
      async (cache, cacheName, attempts) => {
        // A miss: the key was never set, and the third attempt got through.
        expect(await cache.get(cacheName, 'key')).toBeInstanceOf(CacheGet.Miss);
        const retries = attempts.retries(cacheName, MomentoRPCMethod.Get);
        expect(retries).toBeGreaterThan(1);
        expect(retries).toBeLessThanOrEqual(3);
      },
    );
  });
});
