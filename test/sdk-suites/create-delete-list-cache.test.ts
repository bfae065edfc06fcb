import { randomUUID } from 'node:crypto';
import { CacheFlush, CacheGet, CacheSet, CreateCache, DeleteCache, MomentoErrorCode } from '@gomomento/sdk';
import { describe, expect, it } from 'vitest';
import { fileCache, validatesCacheName, withFreshCache } from './sdk.js';

// The cases of the provider's shared create/delete/list/flush cache suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/create-delete-list-cache.ts), rewritten. Its
// CI-only case checks the provider's canary account's limits as ListCaches reports them: it is
// about that account, not the service's behaviour, and is not rewritten.

/** The file's client (and a fresh cache, unused: each case makes its own or needs none). */
const shared = fileCache();

const testCacheName = () => `sdk-suite-${randomUUID()}`;

describe('create/delete cache', () => {
  validatesCacheName((cache) => shared.client.createCache(cache));
  validatesCacheName((cache) => shared.client.deleteCache(cache));

  it('should return NotFoundError if deleting a non-existent cache', async () => {
    const response = await shared.client.deleteCache(testCacheName());
    expect(response).toBeInstanceOf(DeleteCache.Error);
    expect((response as DeleteCache.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('should return AlreadyExists response if trying to create a cache that already exists', async () => {
    await withFreshCache(async (cacheName) => {
      expect(await shared.client.createCache(cacheName)).toBeInstanceOf(CreateCache.AlreadyExists);
    });
  });
});

describe('flush cache', () => {
  validatesCacheName((cache) => shared.client.flushCache(cache));

  it('should return NotFoundError if flushing a non-existent cache', async () => {
    const response = await shared.client.flushCache(testCacheName());
    expect(response).toBeInstanceOf(CacheFlush.Error);
    expect((response as CacheFlush.Error).errorCode()).toBe(MomentoErrorCode.CACHE_NOT_FOUND_ERROR);
  });

  it('should return success while flushing empty cache', async () => {
    await withFreshCache(async (cacheName) => {
      expect(await shared.client.flushCache(cacheName)).toBeInstanceOf(CacheFlush.Success);
    });
  });

  it('should return success while flushing non-empty cache', async () => {
    await withFreshCache(async (cacheName) => {
      const [key1, key2] = [randomUUID(), randomUUID()];
      expect(await shared.client.set(cacheName, key1, randomUUID())).toBeInstanceOf(CacheSet.Success);
      expect(await shared.client.set(cacheName, key2, randomUUID())).toBeInstanceOf(CacheSet.Success);
      expect(await shared.client.flushCache(cacheName)).toBeInstanceOf(CacheFlush.Success);
      expect(await shared.client.get(cacheName, key1)).toBeInstanceOf(CacheGet.Miss);
      expect(await shared.client.get(cacheName, key2)).toBeInstanceOf(CacheGet.Miss);
    });
  });
});
