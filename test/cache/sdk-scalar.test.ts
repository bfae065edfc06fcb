import {
  CacheClient,
  CacheDelete,
  CacheGet,
  CacheGetBatch,
  CacheGetWithHash,
  CacheIncrement,
  CacheItemGetTtl,
  CacheItemGetType,
  CacheKeysExist,
  CacheSet,
  CacheSetBatch,
  CacheSetIfAbsent,
  CacheSetIfAbsentOrEqual,
  CacheSetIfEqual,
  CacheSetIfNotEqual,
  CacheSetIfNotExists,
  CacheSetIfPresent,
  CacheSetIfPresentAndHashEqual,
  CacheSetIfPresentAndNotEqual,
  CacheSetWithHash,
  CacheUpdateTtl,
  CacheIncreaseTtl,
  CacheDecreaseTtl,
  CacheDictionaryFetch,
  Configurations,
  CredentialProvider,
  AuthClient,
  DisposableTokenScopes,
  ExpiresIn,
  GenerateDisposableToken,
  ItemType,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { momentoLocal, startGrpcEmulator } from '../grpc/harness.js';

// The SDK's scalar cache calls, unchanged, against the emulator (forMomentoLocal), as the SDK's
// own `common-integration-tests` exercise them (get-set-delete, batch-get-set, item-get-ttl,
// item-get-type, keys-exist, update-ttl): the cases, rewritten; and an item the HTTP API wrote is
// the one the SDK reads.

let emulator: RunningEmulator;
let cache: CacheClient;
const CACHE = 'default-cache';
let serial = 0;
const fresh = () => `key-${++serial}-${Date.now()}`;

beforeAll(async () => {
  emulator = await startGrpcEmulator();
  cache = await CacheClient.create({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: momentoLocal(emulator),
    defaultTtlSeconds: 60,
  });
});
afterAll(async () => {
  cache?.close();
  await emulator?.close();
});

describe("get/set/delete (the SDK's get-set-delete cases)", () => {
  it('sets and gets a string, a string with special characters, bytes; deletes to a miss', async () => {
    for (const value of ['plain', 'héllö wörld', new TextEncoder().encode('bytes')]) {
      const key = fresh();
      expect(await cache.set(CACHE, key, value)).toBeInstanceOf(CacheSet.Success);
      const hit = await cache.get(CACHE, key);
      expect(hit).toBeInstanceOf(CacheGet.Hit);
      expect((hit as CacheGet.Hit).valueString()).toBe(typeof value === 'string' ? value : 'bytes');
      expect(await cache.delete(CACHE, key)).toBeInstanceOf(CacheDelete.Success);
      expect(await cache.get(CACHE, key)).toBeInstanceOf(CacheGet.Miss);
    }
  });

  it('getWithHash answers the hash setWithHash stored; a miss after delete', async () => {
    const key = fresh();
    const stored = await cache.setWithHash(CACHE, key, 'v');
    expect(stored).toBeInstanceOf(CacheSetWithHash.Stored);
    const hit = await cache.getWithHash(CACHE, key);
    expect(hit).toBeInstanceOf(CacheGetWithHash.Hit);
    expect((hit as CacheGetWithHash.Hit).hashString()).toBe((stored as CacheSetWithHash.Stored).hashString());
    await cache.delete(CACHE, key);
    expect(await cache.getWithHash(CACHE, key)).toBeInstanceOf(CacheGetWithHash.Miss);
  });

  it('setIfPresentAndHashEqual stores only on the hash it read', async () => {
    const key = fresh();
    const stored = (await cache.setWithHash(CACHE, key, 'one')) as CacheSetWithHash.Stored;
    expect(await cache.setIfPresentAndHashEqual(CACHE, key, 'two', stored.hashUint8Array())).toBeInstanceOf(
      CacheSetIfPresentAndHashEqual.Stored,
    );
    expect(await cache.setIfPresentAndHashEqual(CACHE, key, 'three', stored.hashUint8Array())).toBeInstanceOf(
      CacheSetIfPresentAndHashEqual.NotStored,
    );
    expect(((await cache.get(CACHE, key)) as CacheGet.Hit).valueString()).toBe('two');
  });

  it('setIfNotExists and the SetIf family store only when their condition holds', async () => {
    const key = fresh();
    expect(await cache.setIfNotExists(CACHE, key, 'a')).toBeInstanceOf(CacheSetIfNotExists.Stored);
    expect(await cache.setIfNotExists(CACHE, key, 'b')).toBeInstanceOf(CacheSetIfNotExists.NotStored);
    expect(await cache.setIfAbsent(CACHE, key, 'b')).toBeInstanceOf(CacheSetIfAbsent.NotStored);
    expect(await cache.setIfPresent(CACHE, key, 'b')).toBeInstanceOf(CacheSetIfPresent.Stored);
    expect(await cache.setIfEqual(CACHE, key, 'c', 'x')).toBeInstanceOf(CacheSetIfEqual.NotStored);
    expect(await cache.setIfEqual(CACHE, key, 'c', 'b')).toBeInstanceOf(CacheSetIfEqual.Stored);
    expect(await cache.setIfNotEqual(CACHE, key, 'd', 'c')).toBeInstanceOf(CacheSetIfNotEqual.NotStored);
    expect(await cache.setIfNotEqual(CACHE, key, 'd', 'x')).toBeInstanceOf(CacheSetIfNotEqual.Stored);
    expect(await cache.setIfPresentAndNotEqual(CACHE, key, 'e', 'd')).toBeInstanceOf(
      CacheSetIfPresentAndNotEqual.NotStored,
    );
    const absent = fresh();
    expect(await cache.setIfPresentAndNotEqual(CACHE, absent, 'e', 'd')).toBeInstanceOf(
      CacheSetIfPresentAndNotEqual.NotStored,
    );
    expect(await cache.setIfAbsentOrEqual(CACHE, absent, 'f', 'zzz')).toBeInstanceOf(CacheSetIfAbsentOrEqual.Stored);
    expect(await cache.setIfAbsentOrEqual(CACHE, absent, 'g', 'zzz')).toBeInstanceOf(CacheSetIfAbsentOrEqual.NotStored);
    expect(((await cache.get(CACHE, key)) as CacheGet.Hit).valueString()).toBe('d');
  });

  it('increments from nothing, by any amount, and refuses a value that is not an integer (FAILED_PRECONDITION)', async () => {
    const key = fresh();
    expect(((await cache.increment(CACHE, key)) as CacheIncrement.Success).value()).toBe(1);
    expect(((await cache.increment(CACHE, key, 41)) as CacheIncrement.Success).value()).toBe(42);
    expect(((await cache.increment(CACHE, key, -50)) as CacheIncrement.Success).value()).toBe(-8);
    await cache.set(CACHE, key, 'abcxyz');
    const refused = await cache.increment(CACHE, key);
    expect(refused).toBeInstanceOf(CacheIncrement.Error);
    expect((refused as CacheIncrement.Error).errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
  });

  it('answers NOT_FOUND for a cache that does not exist', async () => {
    const response = await cache.get('no-such-cache', 'k');
    expect(response).toBeInstanceOf(CacheGet.Error);
    expect((response as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });
});

describe("batches, keys, TTLs and types (the SDK's batch-get-set, keys-exist, item-get-ttl, update-ttl, item-get-type cases)", () => {
  it('setBatch then getBatch: every value, and a miss for a key never set', async () => {
    const items = new Map([
      [fresh(), 'one'],
      [fresh(), 'two'],
    ]);
    const set = (await cache.setBatch(CACHE, items)) as CacheSetBatch.Success;
    expect(set).toBeInstanceOf(CacheSetBatch.Success);
    // Each item's answer too (each was an error when its result was not set Ok).
    expect(set.results().map((r) => r.toString())).toEqual(['Success', 'Success']);
    const missing = fresh();
    const got = (await cache.getBatch(CACHE, [...items.keys(), missing])) as CacheGetBatch.Success;
    expect(got).toBeInstanceOf(CacheGetBatch.Success);
    expect(got.values()).toEqual(Object.fromEntries(items));
  });

  it('keysExist answers for each key in order', async () => {
    const [a, b] = [fresh(), fresh()];
    await cache.set(CACHE, a, 'x');
    const exists = (await cache.keysExist(CACHE, [a, b, a])) as CacheKeysExist.Success;
    expect(exists.exists()).toEqual([true, false, true]);
  });

  it('itemGetTtl, updateTtl, increaseTtl, decreaseTtl on the emulator clock; a missing key is Miss', async () => {
    emulator.setClock({ mode: 'virtual' });
    try {
      const key = fresh();
      await cache.set(CACHE, key, 'x', { ttl: 60 });
      emulator.advanceClock(10_000);
      expect(((await cache.itemGetTtl(CACHE, key)) as CacheItemGetTtl.Hit).remainingTtlMillis()).toBe(50_000);
      // Not moving it that way is an error, as the SDK's own suite expects of the live service.
      const lower = (await cache.increaseTtl(CACHE, key, 10_000)) as CacheIncreaseTtl.Error;
      expect(lower.errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
      expect(await cache.increaseTtl(CACHE, key, 100_000)).toBeInstanceOf(CacheIncreaseTtl.Set);
      expect(await cache.decreaseTtl(CACHE, key, 200_000)).toBeInstanceOf(CacheDecreaseTtl.Error);
      expect(await cache.decreaseTtl(CACHE, key, 5_000)).toBeInstanceOf(CacheDecreaseTtl.Set);
      expect(await cache.updateTtl(CACHE, key, 1_000)).toBeInstanceOf(CacheUpdateTtl.Set);
      emulator.advanceClock(1_000);
      expect(await cache.get(CACHE, key)).toBeInstanceOf(CacheGet.Miss);
      expect(await cache.itemGetTtl(CACHE, key)).toBeInstanceOf(CacheItemGetTtl.Miss);
      expect(await cache.updateTtl(CACHE, key, 1_000)).toBeInstanceOf(CacheUpdateTtl.Miss);
    } finally {
      emulator.setClock({ mode: 'real' });
    }
  });

  it('itemGetType: SCALAR for a set key, Miss for none', async () => {
    const key = fresh();
    await cache.set(CACHE, key, 'x');
    expect(((await cache.itemGetType(CACHE, key)) as CacheItemGetType.Hit).itemType()).toBe(ItemType.SCALAR);
    expect(await cache.itemGetType(CACHE, fresh())).toBeInstanceOf(CacheItemGetType.Miss);
  });
});

describe('one store, every door', () => {
  it('reads over the SDK what the HTTP API wrote, and the reverse', async () => {
    const key = fresh();
    await fetch(`${emulator.url}/cache/${CACHE}?key=${key}&ttl_seconds=30`, {
      method: 'PUT',
      headers: { authorization: emulator.apiKey },
      body: 'from-http',
    });
    expect(((await cache.get(CACHE, key)) as CacheGet.Hit).valueString()).toBe('from-http');
    await cache.set(CACHE, key, 'from-sdk');
    const got = await fetch(`${emulator.url}/cache/${CACHE}?key=${key}`, {
      headers: { authorization: emulator.apiKey },
    });
    expect(await got.text()).toBe('from-sdk');
  });

  it('journals a get by either door as cacheGet, its protocol aside', async () => {
    const key = fresh();
    await cache.get(CACHE, key);
    await fetch(`${emulator.url}/cache/${CACHE}?key=${key}`, { headers: { authorization: emulator.apiKey } });
    const entries = (await emulator.requests({ operation: 'cacheGet', cache: CACHE })).entries.slice(0, 2);
    expect(entries.map((e) => [e.protocol, e.operation, e.status]).sort()).toEqual([
      ['grpc', 'cacheGet', 200],
      ['http', 'cacheGet', 404],
    ]);
  });

  it('a disposable token with a readonly cache scope: get works, set is PERMISSION_ERROR', async () => {
    const auth = new AuthClient({ credentialProvider: momentoLocal(emulator) });
    const minted = await auth.generateDisposableToken(
      DisposableTokenScopes.cacheKeyPrefixReadOnly(CACHE, 'shared-'),
      ExpiresIn.minutes(5),
    );
    expect(minted).toBeInstanceOf(GenerateDisposableToken.Success);
    const at = emulator.grpcEndpoint!;
    const reader = await CacheClient.create({
      configuration: Configurations.Laptop.v1(),
      credentialProvider: CredentialProvider.fromString({
        apiKey: (minted as GenerateDisposableToken.Success).authToken,
        endpointOverrides: { cacheEndpoint: at, controlEndpoint: at, tokenEndpoint: at, secureConnection: false },
      }),
      defaultTtlSeconds: 60,
    });
    try {
      await cache.set(CACHE, 'shared-1', 'x');
      expect(((await reader.get(CACHE, 'shared-1')) as CacheGet.Hit).valueString()).toBe('x');
      const refused = await reader.set(CACHE, 'shared-1', 'y');
      expect((refused as CacheSet.Error).errorCode()).toBe(MomentoErrorCode.PERMISSION_ERROR);
      const outside = await reader.get(CACHE, 'private');
      expect((outside as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.PERMISSION_ERROR);
    } finally {
      reader.close();
    }
  });

  it('refuses a scalar call on a collection and a collection call on a scalar: FAILED_PRECONDITION naming both types', async () => {
    await cache.dictionarySetField(CACHE, 'a-dictionary', 'f', 'v');
    const get = await cache.get(CACHE, 'a-dictionary');
    expect((get as CacheGet.Error).errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
    expect((get as CacheGet.Error).message()).toMatch(/is a dictionary; this call works on a scalar value/);
    await cache.set(CACHE, 'a-scalar', 'v');
    const fetched = await cache.dictionaryFetch(CACHE, 'a-scalar');
    expect((fetched as CacheDictionaryFetch.Error).errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
    expect((fetched as CacheDictionaryFetch.Error).message()).toMatch(
      /is a scalar value; this call works on a dictionary/,
    );
    // A scalar set replaces whatever the key held.
    await cache.set(CACHE, 'a-dictionary', 'now a scalar');
    expect((await cache.get(CACHE, 'a-dictionary')).value()).toBe('now a scalar');
  });
});
