import { randomUUID } from 'node:crypto';
import {
  CacheClient,
  CacheFlush,
  CacheGet,
  CacheSet,
  Configurations,
  CreateCache,
  DeleteCache,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momentoLocal, withFreshCache, validatesCacheName } from './sdk.js';

// The cases of the provider's shared create/delete/list/flush cache suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/create-delete-list-cache.ts), rewritten. Its
// CI-only case checks the provider's canary account's limits as ListCaches reports them: it is
// about that account, not the service's behaviour, and is not rewritten.

let client: CacheClient;
beforeAll(async () => {
  client = await CacheClient.create({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: momentoLocal(),
    defaultTtlSeconds: 60,
  });
});
afterAll(() => client?.close());

const testCacheName = () => `sdk-suite-${randomUUID()}`;

describe('create/delete cache', () => {
  validatesCacheName((cache) => client.createCache(cache));
  validatesCacheName((cache) => client.deleteCache(cache));

  it('should return NotFoundError if deleting a non-existent cache', async () => {
    const response = await client.deleteCache(testCacheName());
    expect(response).toBeInstanceOf(DeleteCache.Error);
    expect((response as DeleteCache.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('should return AlreadyExists response if trying to create a cache that already exists', async () => {
    await withFreshCache(async (cacheName) => {
      expect(await client.createCache(cacheName)).toBeInstanceOf(CreateCache.AlreadyExists);
    });
  });
});

describe('flush cache', () => {
  validatesCacheName((cache) => client.flushCache(cache));

  it('should return NotFoundError if flushing a non-existent cache', async () => {
    const response = await client.flushCache(testCacheName());
    expect(response).toBeInstanceOf(CacheFlush.Error);
    expect((response as CacheFlush.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('should return success while flushing empty cache', async () => {
    await withFreshCache(async (cacheName) => {
      expect(await client.flushCache(cacheName)).toBeInstanceOf(CacheFlush.Success);
    });
  });

  it('should return success while flushing non-empty cache', async () => {
    await withFreshCache(async (cacheName) => {
      const [key1, key2] = [randomUUID(), randomUUID()];
      expect(await client.set(cacheName, key1, randomUUID())).toBeInstanceOf(CacheSet.Success);
      expect(await client.set(cacheName, key2, randomUUID())).toBeInstanceOf(CacheSet.Success);
      expect(await client.flushCache(cacheName)).toBeInstanceOf(CacheFlush.Success);
      expect(await client.get(cacheName, key1)).toBeInstanceOf(CacheGet.Miss);
      expect(await client.get(cacheName, key2)).toBeInstanceOf(CacheGet.Miss);
    });
  });
});
