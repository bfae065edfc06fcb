import { createRequire } from 'node:module';
import type { cache_client as CacheTypes } from '@gomomento/generated-types/dist/cacheclient.js';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startGrpcEmulator } from '../grpc/harness.js';

// A gRPC call that sends no TTL (0: proto3's "not set"; the SDK always sends its client's
// default) gets --cache-default-ttl, on the emulator's clock, for scalars and collections alike.

const scs = (
  createRequire(import.meta.url)('@gomomento/generated-types/dist/cacheclient.js') as {
    cache_client: typeof CacheTypes;
  }
).cache_client;

let emulator: RunningEmulator;
let client: CacheTypes.ScsClient;
const metadata = () => {
  const m = new Metadata();
  m.set('cache', 'default-cache');
  return m;
};
const b = (text: string) => new TextEncoder().encode(text);

/** One unary call of the bare generated client, as a promise. */
function call<Response>(method: string, request: unknown): Promise<Response> {
  return new Promise((resolve, reject) => {
    type Unary = (
      request: unknown,
      metadata: Metadata,
      done: (error: ServiceError | null, response: Response) => void,
    ) => void;
    const fn = (client as unknown as Record<string, Unary>)[method]!.bind(client);
    fn(request, metadata(), (error, response) => (error ? reject(error) : resolve(response)));
  });
}

const ttlLeft = async (key: string) =>
  (await call<CacheTypes._ItemGetTtlResponse>('ItemGetTtl', new scs._ItemGetTtlRequest({ cache_key: b(key) }))).found
    ?.remaining_ttl_millis;

beforeAll(async () => {
  emulator = await startGrpcEmulator({ cacheDefaultTtlMs: 90_000 });
  emulator.setClock({ mode: 'virtual' });
  client = new scs.ScsClient(emulator.grpcEndpoint!, credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  await emulator?.close();
});

describe('--cache-default-ttl', () => {
  it('gives a Set, an Increment and a collection write that send no TTL the default; a TTL sent is kept', async () => {
    await call('Set', new scs._SetRequest({ cache_key: b('none'), cache_body: b('v'), ttl_milliseconds: 0 }));
    await call('Set', new scs._SetRequest({ cache_key: b('given'), cache_body: b('v'), ttl_milliseconds: 5000 }));
    await call('Increment', new scs._IncrementRequest({ cache_key: b('count'), amount: 1, ttl_milliseconds: 0 }));
    await call(
      'DictionarySet',
      new scs._DictionarySetRequest({
        dictionary_name: b('dict'),
        items: [new scs._DictionaryFieldValuePair({ field: b('f'), value: b('v') })],
        ttl_milliseconds: 0,
        refresh_ttl: true,
      }),
    );
    expect(await ttlLeft('none')).toBe(90_000);
    expect(await ttlLeft('given')).toBe(5000);
    expect(await ttlLeft('count')).toBe(90_000);
    expect(await ttlLeft('dict')).toBe(90_000);
    emulator.advanceClock(90_000);
    const got = await call<CacheTypes._GetResponse>('Get', new scs._GetRequest({ cache_key: b('none') }));
    expect(got.result).toBe(scs.ECacheResult.Miss);
  });

  it('still refuses an UpdateTtl to 0: there is no default to move to', async () => {
    await call('Set', new scs._SetRequest({ cache_key: b('kept'), cache_body: b('v'), ttl_milliseconds: 1000 }));
    await expect(
      call('UpdateTtl', new scs._UpdateTtlRequest({ cache_key: b('kept'), overwrite_to_milliseconds: 0 })),
    ).rejects.toMatchObject({ code: 3 });
  });
});
