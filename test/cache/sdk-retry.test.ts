import { CacheClient, CacheGet, CacheIncrement, Configurations, MomentoErrorCode } from '@gomomento/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { momentoLocal, momentoLocalMiddleware, startGrpcEmulator, type MomentoLocalMetadata } from '../grpc/harness.js';

// The SDK's cache retry strategies against momento-local's fault metadata, as its own
// fixed-count retry suite runs them (the cases, rewritten): each attempt the SDK makes is a call
// the emulator journals, so the attempts are counted from the journal.

/** The SDK's names for the calls (MomentoRPCMethod), which its middleware sends as momento-local's. */
const GET = '_GetRequest';
const INCREMENT = '_IncrementRequest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startGrpcEmulator();
});
afterAll(async () => {
  await emulator?.close();
});

async function withClient<T>(metadata: MomentoLocalMetadata, body: (cache: CacheClient) => Promise<T>): Promise<T> {
  const configuration = Configurations.Laptop.v1().withMiddlewares(momentoLocalMiddleware(metadata));
  const cache = await CacheClient.create({
    configuration,
    credentialProvider: momentoLocal(emulator),
    defaultTtlSeconds: 60,
  });
  try {
    return await body(cache);
  } finally {
    cache.close();
  }
}

const attempts = async (operation: string) => (await emulator.countRequests({ operation })).count;

describe("the SDK's fixed-count retry strategy (its fixed-count-retry-strategy cases)", () => {
  it('makes 3 retries of an idempotent call (get) through a full outage, then SERVER_UNAVAILABLE', async () => {
    emulator.reset();
    const response = await withClient({ returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [GET] }, (cache) =>
      cache.get('default-cache', 'key'),
    );
    expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.SERVER_UNAVAILABLE);
    expect(await attempts('cacheGet')).toBe(4);
  });

  it('makes no retry of a call that is not idempotent (increment)', async () => {
    emulator.reset();
    const response = await withClient(
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [INCREMENT] },
      (cache) => cache.increment('default-cache', 'key', 1),
    );
    expect(response).toBeInstanceOf(CacheIncrement.Error);
    expect(await attempts('increment')).toBe(1);
  });

  it('gets through a temporary outage (error-count 2) with fewer than the most retries: a Miss', async () => {
    emulator.reset();
    const response = await withClient(
      { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [GET], errorCount: 2 },
      (cache) => cache.get('default-cache', 'key'),
    );
    expect(response).toBeInstanceOf(CacheGet.Miss);
    expect(await attempts('cacheGet')).toBe(3);
  });
});
