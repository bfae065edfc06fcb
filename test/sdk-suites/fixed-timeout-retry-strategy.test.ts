import {
  CacheGet,
  CacheIncrement,
  DefaultEligibilityStrategy,
  DefaultMomentoLoggerFactory,
  FixedTimeoutRetryStrategy,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { describe, expect, it } from 'vitest';
import { withCacheClient } from './sdk.js';

// The cases of the SDK's fixed-timeout retry suite (client-sdk-javascript,
// packages/client-sdk-nodejs/test/integration/retry/fixed-timeout-retry-strategy.test.ts, as it
// stands for SDK 1.118: a first attempt has the client timeout, each retry the strategy's
// responseDataReceivedTimeoutMillis), rewritten: the same strategies, delays and bounds. The
// attempts' timing is the SDK's own (its retry delay with ±10% jitter) plus the emulator's held
// answers, as against momento-local.

const loggerFactory = new DefaultMomentoLoggerFactory();
const GET = MomentoRPCMethod.Get;

function fixedTimeout(options: { retryDelayIntervalMillis?: number; responseDataReceivedTimeoutMillis?: number } = {}) {
  return new FixedTimeoutRetryStrategy({
    loggerFactory,
    eligibilityStrategy: new DefaultEligibilityStrategy(loggerFactory),
    ...options,
  });
}

describe('Fixed timeout retry strategy with full network outage', () => {
  it('should use default retry delay and timeout when not specified', async () => {
    const DEFAULT_RETRY_DELAY_MILLIS = 100;
    const RESPONSE_DELAY_MILLIS = 1000 - 100; // under the default responseDataReceivedTimeoutMillis
    const CLIENT_TIMEOUT_MILLIS = 5000;
    await withCacheClient(
      (c) => c.withRetryStrategy(fixedTimeout()).withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      {
        returnError: MomentoErrorCode.SERVER_UNAVAILABLE,
        errorRpcs: [GET],
        delayRpcs: [GET],
        delayMs: RESPONSE_DELAY_MILLIS,
      },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        const between = RESPONSE_DELAY_MILLIS + DEFAULT_RETRY_DELAY_MILLIS;
        const expected = Math.floor(CLIENT_TIMEOUT_MILLIS / between);
        const retries = attempts.retries(cacheName, GET);
        expect(retries).toBeGreaterThanOrEqual(expected - 1);
        expect(retries).toBeLessThanOrEqual(expected);
        const gap = attempts.meanGapMs(cacheName, GET);
        expect(gap).toBeGreaterThanOrEqual(between * 0.9);
        expect(gap).toBeLessThanOrEqual(between * 1.1);
      },
    );
  });

  it('should make maximum retry attempts for eligible API with fixed timeout strategy', async () => {
    const RETRY_DELAY_MILLIS = 1000;
    const CLIENT_TIMEOUT_MILLIS = 5000;
    await withCacheClient(
      (c) =>
        c
          .withRetryStrategy(fixedTimeout({ retryDelayIntervalMillis: RETRY_DELAY_MILLIS }))
          .withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [GET] },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        const expected = Math.floor(CLIENT_TIMEOUT_MILLIS / RETRY_DELAY_MILLIS);
        const retries = attempts.retries(cacheName, GET);
        expect(retries).toBeGreaterThanOrEqual(expected - 1);
        expect(retries).toBeLessThanOrEqual(expected);
      },
    );
  });

  it('should make 0 attempts for retry non-eligible api for fixed timeout strategy', async () => {
    await withCacheClient(
      (c) => c.withRetryStrategy(fixedTimeout({ retryDelayIntervalMillis: 1000 })).withClientTimeoutMillis(5000),
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [MomentoRPCMethod.Increment] },
      async (cache, cacheName, attempts) => {
        expect(await cache.increment(cacheName, 'key', 1)).toBeInstanceOf(CacheIncrement.Error);
        expect(attempts.retries(cacheName, MomentoRPCMethod.Increment)).toBe(0);
      },
    );
  });

  it('should not exceed client timeout when retry timeout is greater than client timeout', async () => {
    const CLIENT_TIMEOUT_MILLIS = 2000;
    await withCacheClient(
      (c) =>
        c
          .withRetryStrategy(fixedTimeout({ responseDataReceivedTimeoutMillis: 3000 }))
          .withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [GET], delayRpcs: [GET], delayMs: 1000 },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        expect(attempts.retries(cacheName, GET)).toBe(1);
        const gap = attempts.meanGapMs(cacheName, GET);
        expect(gap).toBeGreaterThan(0);
        expect(gap).toBeLessThanOrEqual(CLIENT_TIMEOUT_MILLIS);
      },
    );
  });
});

describe('Fixed timeout retry strategy with temporary network outage', () => {
  it('should make less than max number of attempts for fixed timeout strategy', async () => {
    const RETRY_DELAY_MILLIS = 1000;
    const CLIENT_TIMEOUT_MILLIS = 5000;
    await withCacheClient(
      (c) =>
        c
          .withRetryStrategy(fixedTimeout({ retryDelayIntervalMillis: RETRY_DELAY_MILLIS }))
          .withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [GET], errorCount: 2 },
      async (cache, cacheName, attempts) => {
        // A miss: the key was never set, and the third attempt got through.
        expect(await cache.get(cacheName, 'key')).toBeInstanceOf(CacheGet.Miss);
        const retries = attempts.retries(cacheName, GET);
        expect(retries).toBeGreaterThan(1);
        expect(retries).toBeLessThanOrEqual(Math.floor(CLIENT_TIMEOUT_MILLIS / RETRY_DELAY_MILLIS));
        const gap = attempts.meanGapMs(cacheName, GET);
        expect(gap).toBeGreaterThan(0);
        expect(gap).toBeLessThanOrEqual(CLIENT_TIMEOUT_MILLIS);
      },
    );
  });
});

describe('Fixed timeout retry strategy with delay ms', () => {
  const RETRY_DELAY_MILLIS = 100;
  const RETRY_TIMEOUT_MILLIS = 1000;
  const CLIENT_TIMEOUT_MILLIS = 5000;
  const strategy = () =>
    fixedTimeout({
      responseDataReceivedTimeoutMillis: RETRY_TIMEOUT_MILLIS,
      retryDelayIntervalMillis: RETRY_DELAY_MILLIS,
    });

  it('should get hit/miss response with no retries for fixed timeout strategy if response is delayed but no error is returned', async () => {
    await withCacheClient(
      (c) =>
        c
          .withRetryStrategy(fixedTimeout({ responseDataReceivedTimeoutMillis: 1000 }))
          .withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      // The first attempt has the client timeout, not responseDataReceivedTimeoutMillis.
      { delayRpcs: [GET], delayMs: CLIENT_TIMEOUT_MILLIS - 1000 },
      async (cache, cacheName, attempts) => {
        const started = performance.now();
        const response = await cache.get(cacheName, 'key');
        const took = performance.now() - started;
        expect(took).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MILLIS - 1000);
        expect(took).toBeLessThanOrEqual(CLIENT_TIMEOUT_MILLIS);
        expect(response).toBeInstanceOf(CacheGet.Miss);
        expect(attempts.retries(cacheName, GET)).toBe(0);
      },
    );
  });

  it('should retry until client timeout when responses have short delays (< responseDataReceivedTimeoutMillis) during full outage', async () => {
    const shortDelay = RETRY_DELAY_MILLIS + 100;
    await withCacheClient(
      (c) => c.withRetryStrategy(strategy()).withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      { delayRpcs: [GET], delayMs: shortDelay, errorRpcs: [GET], returnError: MomentoErrorCode.SERVER_UNAVAILABLE },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        const between = RETRY_DELAY_MILLIS + shortDelay;
        const retries = attempts.retries(cacheName, GET);
        expect(retries).toBeGreaterThanOrEqual(2);
        expect(retries).toBeLessThanOrEqual(Math.ceil(CLIENT_TIMEOUT_MILLIS / between));
        const gap = attempts.meanGapMs(cacheName, GET);
        expect(gap).toBeGreaterThanOrEqual(between * 0.9);
        expect(gap).toBeLessThanOrEqual(between * 1.1);
      },
    );
  });

  it('should retry until client timeout when responses have long delays (> responseDataReceivedTimeoutMillis) during full outage', async () => {
    const longDelay = RETRY_TIMEOUT_MILLIS + 500;
    await withCacheClient(
      (c) => c.withRetryStrategy(strategy()).withClientTimeoutMillis(CLIENT_TIMEOUT_MILLIS),
      { delayRpcs: [GET], delayMs: longDelay, errorRpcs: [GET], returnError: MomentoErrorCode.SERVER_UNAVAILABLE },
      async (cache, cacheName, attempts) => {
        const response = await cache.get(cacheName, 'key');
        expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
        const retries = attempts.retries(cacheName, GET);
        expect(retries).toBeLessThanOrEqual(Math.ceil(CLIENT_TIMEOUT_MILLIS / (RETRY_DELAY_MILLIS + longDelay)));
        // At least twice: a retry that times out is retried again until the client timeout.
        expect(retries).toBeGreaterThanOrEqual(2);
        // Each retry ends at the strategy's timeout, before the emulator's delay is over.
        const between = RETRY_TIMEOUT_MILLIS + RETRY_DELAY_MILLIS;
        const gap = attempts.meanGapMs(cacheName, GET);
        expect(gap).toBeGreaterThanOrEqual(between * 0.85);
        expect(gap).toBeLessThanOrEqual(between * 1.15);
      },
    );
  });
});
