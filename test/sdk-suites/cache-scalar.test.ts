import { randomUUID } from 'node:crypto';
import {
  CacheDecreaseTtl,
  CacheIncreaseTtl,
  CacheItemGetTtl,
  CacheItemGetType,
  CacheKeyExists,
  CacheKeysExist,
  CacheUpdateTtl,
  CollectionTtl,
  ItemType,
} from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fileCache, validatesCacheName } from './sdk.js';

// The cases of the provider's shared scalar cache suites (client-sdk-javascript,
// packages/common-integration-tests/src/cache/: update-ttl, item-get-ttl, item-get-type,
// keys-exist), rewritten against the suite's CLI emulator; their cases on collections (a
// dictionary, list, set or sorted set) too. The expired-key case waits for the Miss, not 2 s.

const shared = fileCache();

const key = () => randomUUID();

async function remainingMs(cacheKey: string | Uint8Array): Promise<number> {
  const response = await shared.client.itemGetTtl(shared.cacheName, cacheKey);
  expect(response, response.toString()).toBeInstanceOf(CacheItemGetTtl.Hit);
  return (response as CacheItemGetTtl.Hit).remainingTtlMillis();
}

describe('#updateTTL', () => {
  validatesCacheName((cache) => shared.client.updateTtl(cache, key(), 10_000));

  it('should Miss for a key that does not exist in the cache', async () => {
    expect(await shared.client.updateTtl(shared.cacheName, key(), 20_000)).toBeInstanceOf(CacheUpdateTtl.Miss);
  });

  it('should Set the new TTL for a key that exists in the cache', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.updateTtl(shared.cacheName, k, 20_000)).toBeInstanceOf(CacheUpdateTtl.Set);
    const left = await remainingMs(k);
    expect(left).toBeLessThan(20_000);
    expect(left).toBeGreaterThan(15_000);
  });

  it('should Error if given a TTL below 0', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.updateTtl(shared.cacheName, k, -20_000)).toBeInstanceOf(CacheUpdateTtl.Error);
  });

  it('should support happy path for updateTTL via curried cache via ICache interface', async () => {
    const k = key();
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(k, k, { ttl: 10 });
    expect(await cache.updateTtl(k, 20_000)).toBeInstanceOf(CacheUpdateTtl.Set);
    const left = await remainingMs(k);
    expect(left).toBeLessThan(20_000);
    expect(left).toBeGreaterThan(15_000);
  });
});

describe('#increaseTTL', () => {
  validatesCacheName((cache) => shared.client.increaseTtl(cache, key(), 10_000));

  it('should Miss if given key does not exist in the cache', async () => {
    expect(await shared.client.increaseTtl(shared.cacheName, key(), 20_000)).toBeInstanceOf(CacheIncreaseTtl.Miss);
  });

  it('should Set the new TTL for a key that exists in the cache and new TTL is greater than current TTL', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.increaseTtl(shared.cacheName, k, 20_000)).toBeInstanceOf(CacheIncreaseTtl.Set);
    const left = await remainingMs(k);
    expect(left).toBeLessThan(20_000);
    expect(left).toBeGreaterThan(15_000);
  });

  it('should Error if given TTL is less than current TTL', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.increaseTtl(shared.cacheName, k, 5000)).toBeInstanceOf(CacheIncreaseTtl.Error);
  });

  it('should Error if given a TTL below 0', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.increaseTtl(shared.cacheName, k, -20_000)).toBeInstanceOf(CacheIncreaseTtl.Error);
  });

  it('should support happy path for increaseTTL via curried cache via ICache interface', async () => {
    const k = key();
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(k, k, { ttl: 10 });
    expect(await cache.increaseTtl(k, 20_000)).toBeInstanceOf(CacheIncreaseTtl.Set);
    expect(await remainingMs(k)).toBeGreaterThan(15_000);
  });
});

describe('#decreaseTTL', () => {
  validatesCacheName((cache) => shared.client.decreaseTtl(cache, key(), 10_000));

  it('should Miss if given key does not exist in the cache', async () => {
    expect(await shared.client.decreaseTtl(shared.cacheName, key(), 5000)).toBeInstanceOf(CacheDecreaseTtl.Miss);
  });

  it('should Set the new TTL for a key that exists in the cache and new TTL is less than current TTL', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.decreaseTtl(shared.cacheName, k, 5000)).toBeInstanceOf(CacheDecreaseTtl.Set);
    const left = await remainingMs(k);
    expect(left).toBeLessThan(5000);
    expect(left).toBeGreaterThan(0);
  });

  it('should Error if given TTL is greater than current TTL', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.decreaseTtl(shared.cacheName, k, 20_000)).toBeInstanceOf(CacheDecreaseTtl.Error);
  });

  it('should Error if given a TTL below 0', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k, { ttl: 10 });
    expect(await shared.client.decreaseTtl(shared.cacheName, k, -20_000)).toBeInstanceOf(CacheDecreaseTtl.Error);
  });

  it('should support happy path for decreaseTTL via curried cache via ICache interface', async () => {
    const k = key();
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(k, k, { ttl: 10 });
    expect(await cache.decreaseTtl(k, 5000)).toBeInstanceOf(CacheDecreaseTtl.Set);
    expect(await remainingMs(k)).toBeLessThan(5000);
  });
});

describe('item ttl', () => {
  validatesCacheName((cache) => shared.client.itemGetTtl(cache, key()));

  it('should get item ttl remaining for a scalar', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, key(), { ttl: 10 });
    for (const asked of [k, new TextEncoder().encode(k)]) {
      const left = await remainingMs(asked);
      expect(left).toBeLessThan(10_000);
      expect(left).toBeGreaterThan(7000);
    }
  });

  it('should get item ttl remaining for a dictionary', async () => {
    const k = key();
    await shared.client.dictionarySetFields(shared.cacheName, k, { foo: key() }, { ttl: CollectionTtl.of(10) });
    expect(await remainingMs(k)).toBeGreaterThan(7000);
  });

  it('should return a miss for a non-existent key', async () => {
    expect(await shared.client.itemGetTtl(shared.cacheName, key())).toBeInstanceOf(CacheItemGetTtl.Miss);
  });

  it('should return a miss for an expired key', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, key(), { ttl: 1 });
    expect(await shared.client.itemGetTtl(shared.cacheName, k)).toBeInstanceOf(CacheItemGetTtl.Hit);
    await vi.waitFor(
      async () => expect(await shared.client.itemGetTtl(shared.cacheName, k)).toBeInstanceOf(CacheItemGetTtl.Miss),
      {
        timeout: 5000,
        interval: 100,
      },
    );
  });

  it('should support happy path for itemGetTtl via curried cache via ICache interface', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, key(), { ttl: 10 });
    const response = await shared.client.cache(shared.cacheName).itemGetTtl(k);
    expect((response as CacheItemGetTtl.Hit).remainingTtlMillis()).toBeGreaterThan(7000);
  });
});

describe('item type', () => {
  validatesCacheName((cache) => shared.client.itemGetType(cache, key()));

  async function typeOf(cacheKey: string): Promise<ItemType[]> {
    const types: ItemType[] = [];
    for (const asked of [cacheKey, new TextEncoder().encode(cacheKey)]) {
      const response = await shared.client.itemGetType(shared.cacheName, asked);
      expect(response, response.toString()).toBeInstanceOf(CacheItemGetType.Hit);
      types.push((response as CacheItemGetType.Hit).itemType());
    }
    return types;
  }

  it('should get item type scalar', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, key());
    expect(await typeOf(k)).toEqual([ItemType.SCALAR, ItemType.SCALAR]);
  });

  it('should get item type dictionary', async () => {
    const k = key();
    await shared.client.dictionarySetField(shared.cacheName, k, key(), key());
    expect(await typeOf(k)).toEqual([ItemType.DICTIONARY, ItemType.DICTIONARY]);
  });

  it('should get item type list', async () => {
    const k = key();
    await shared.client.listPushFront(shared.cacheName, k, key());
    expect(await typeOf(k)).toEqual([ItemType.LIST, ItemType.LIST]);
  });

  it('should get item type set', async () => {
    const k = key();
    await shared.client.setAddElement(shared.cacheName, k, key());
    expect(await typeOf(k)).toEqual([ItemType.SET, ItemType.SET]);
  });

  it('should get item type sorted set', async () => {
    const k = key();
    await shared.client.sortedSetPutElement(shared.cacheName, k, 'a', 42);
    expect(await typeOf(k)).toEqual([ItemType.SORTED_SET, ItemType.SORTED_SET]);
  });

  it('should support happy path for itemGetType via curried cache via ICache interface', async () => {
    const k = key();
    const cache = shared.client.cache(shared.cacheName);
    await cache.dictionarySetField(k, key(), key());
    const response = await cache.itemGetType(k);
    expect((response as CacheItemGetType.Hit).itemType()).toBe(ItemType.DICTIONARY);
  });
});

describe('#keyExists', () => {
  validatesCacheName((cache) => shared.client.keyExists(cache, key()));

  const exists = async (k: string) => {
    const response = await shared.client.keyExists(shared.cacheName, k);
    expect(response, response.toString()).toBeInstanceOf(CacheKeyExists.Success);
    return (response as CacheKeyExists.Success).exists();
  };

  it('should return false for given key if cache is empty', async () => {
    expect(await exists(key())).toBe(false);
  });

  it('should return false for given key if cache is not empty but does not have the key', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k);
    expect(await exists(key())).toBe(false);
  });

  it('should return true for given key if cache is not empty and has the key', async () => {
    const k = key();
    await shared.client.set(shared.cacheName, k, k);
    expect(await exists(k)).toBe(true);
  });

  it('should support happy path for keyExists via curried cache via ICache interface', async () => {
    const k = key();
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(k, k);
    expect(((await cache.keyExists(k)) as CacheKeyExists.Success).exists()).toBe(true);
  });
});

describe('#keysExist', () => {
  validatesCacheName((cache) => shared.client.keysExist(cache, [key()]));

  const existing = async (keys: string[]) => {
    const response = await shared.client.keysExist(shared.cacheName, keys);
    expect(response, response.toString()).toBeInstanceOf(CacheKeysExist.Success);
    const success = response as CacheKeysExist.Success;
    expect(success.valueRecord()).toEqual(Object.fromEntries(keys.map((k, i) => [k, success.exists()[i]])));
    return success.exists();
  };

  it('should return empty list if given empty key list', async () => {
    expect(await existing([])).toEqual([]);
  });

  it('should return true only for keys that exist in the cache', async () => {
    const [k1, k2, k3, k4] = [key(), key(), key(), key()];
    await shared.client.set(shared.cacheName, k1, k1);
    await shared.client.set(shared.cacheName, k3, k3);
    expect(await existing([k1, k2, k3])).toEqual([true, false, true]);
    expect(await existing([k2, k3, k1])).toEqual([false, true, true]);
    expect(await existing([k2, k4])).toEqual([false, false]);
  });

  it('should support happy path for keysExist via curried cache via ICache interface', async () => {
    const [k1, k2] = [key(), key()];
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(k1, k1);
    expect(((await cache.keysExist([k1, k2])) as CacheKeysExist.Success).exists()).toEqual([true, false]);
  });
});
