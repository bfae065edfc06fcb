import { randomUUID } from 'node:crypto';
import {
  CacheDelete,
  CacheGet,
  CacheGetWithHash,
  CacheIncrement,
  CacheItemGetTtl,
  CacheSetIfAbsent,
  CacheSetIfEqual,
  CacheSetIfPresent,
  CacheSetIfNotExists,
  CacheSet,
  CacheSetWithHash,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fileCache, validatesCacheName } from './sdk.js';

// The cases of the provider's shared get/set/delete suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/get-set-delete.ts), rewritten: its get/set/delete,
// increment, setIfNotExists, setIfAbsent, setIfPresent and setIfEqual cases (its other SetIf
// families, the hash-conditioned ones, and its throw-on-errors and read-concern cases are in
// conditional-sets.test.ts). Its string/bytes variants are table-driven here; its 3 s sleeps for
// expiry become waits for the Miss.

const shared = fileCache();

const text = () => randomUUID();
const encode = (s: string) => new TextEncoder().encode(s);

describe('get/set/delete', () => {
  validatesCacheName((cache) => shared.client.get(cache, text()));
  validatesCacheName((cache) => shared.client.set(cache, text(), text()));
  validatesCacheName((cache) => shared.client.delete(cache, text()));
  validatesCacheName((cache) => shared.client.getWithHash(cache, text()));

  // [what, key, value as set, the value's text]
  const variants: [string, () => string | Uint8Array, (v: string) => string | Uint8Array, string][] = [
    ['string', text, (v) => v, ''],
    ['string with special characters', text, (v) => v, 'héllö wörld'],
    ['bytes', () => encode(text()), encode, ''],
    ['bytes with special characters', () => encode(text()), encode, 'héllö wörld'],
    ['string key with bytes value', text, encode, ''],
    ['byte key with string value', () => encode(text()), (v) => v, ''],
  ];

  it.each(variants)('should set and get %s from cache', async (_what, keyOf, valueOf, suffix) => {
    const key = keyOf();
    const value = text() + suffix;
    expect(await shared.client.set(shared.cacheName, key, valueOf(value))).toBeInstanceOf(CacheSet.Success);
    const got = await shared.client.get(shared.cacheName, key);
    expect(got, got.toString()).toBeInstanceOf(CacheGet.Hit);
    expect((got as CacheGet.Hit).valueString()).toBe(value);
  });

  it.each(variants)('should setWithHash and getWithHash %s from cache', async (_what, keyOf, valueOf, suffix) => {
    const key = keyOf();
    const value = text() + suffix;
    const set = await shared.client.setWithHash(shared.cacheName, key, valueOf(value));
    expect(set, set.toString()).toBeInstanceOf(CacheSetWithHash.Stored);
    const got = await shared.client.getWithHash(shared.cacheName, key);
    expect(got, got.toString()).toBeInstanceOf(CacheGetWithHash.Hit);
    expect((got as CacheGetWithHash.Hit).valueString()).toBe(value);
    expect((got as CacheGetWithHash.Hit).hashString()).toBe((set as CacheSetWithHash.Stored).hashString());
  });

  it('should set and then delete a value in cache', async () => {
    const key = text();
    await shared.client.set(shared.cacheName, key, encode(text()));
    expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Hit);
    expect(await shared.client.delete(shared.cacheName, key)).toBeInstanceOf(CacheDelete.Success);
    expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss);
  });

  it('should setWithHash and then delete a value in cache', async () => {
    const key = text();
    await shared.client.setWithHash(shared.cacheName, key, encode(text()));
    expect(await shared.client.getWithHash(shared.cacheName, key)).toBeInstanceOf(CacheGetWithHash.Hit);
    expect(await shared.client.delete(shared.cacheName, key)).toBeInstanceOf(CacheDelete.Success);
    expect(await shared.client.getWithHash(shared.cacheName, key)).toBeInstanceOf(CacheGetWithHash.Miss);
  });

  it.each([
    ['negative', -1],
    ['float', 1.5],
  ])('should return INVALID_ARGUMENT_ERROR for %s ttl when set (and setWithHash)', async (_what, ttl) => {
    const set = (await shared.client.set(shared.cacheName, text(), text(), { ttl })) as CacheSet.Error;
    expect(set).toBeInstanceOf(CacheSet.Error);
    expect(set.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    const hashed = (await shared.client.setWithHash(shared.cacheName, text(), text(), {
      ttl,
    })) as CacheSetWithHash.Error;
    expect(hashed).toBeInstanceOf(CacheSetWithHash.Error);
    expect(hashed.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('should set string key/value with valid ttl and get successfully (and with hash)', async () => {
    const [key, value] = [text(), text()];
    expect(await shared.client.set(shared.cacheName, key, value, { ttl: 15 })).toBeInstanceOf(CacheSet.Success);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe(value);
    const hashed = text();
    const stored = (await shared.client.setWithHash(shared.cacheName, hashed, value, {
      ttl: 15,
    })) as CacheSetWithHash.Stored;
    const got = (await shared.client.getWithHash(shared.cacheName, hashed)) as CacheGetWithHash.Hit;
    expect([got.valueString(), got.hashString()]).toEqual([value, stored.hashString()]);
  });

  it('should set (and setWithHash) with valid ttl and should return miss when ttl is expired', async () => {
    const [key, hashed] = [text(), text()];
    expect(await shared.client.set(shared.cacheName, key, text(), { ttl: 1 })).toBeInstanceOf(CacheSet.Success);
    expect(await shared.client.setWithHash(shared.cacheName, hashed, text(), { ttl: 1 })).toBeInstanceOf(
      CacheSetWithHash.Stored,
    );
    await vi.waitFor(
      async () => {
        expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss);
        expect(await shared.client.getWithHash(shared.cacheName, hashed)).toBeInstanceOf(CacheGetWithHash.Miss);
      },
      { timeout: 5000, interval: 100 },
    );
  });

  it('should support happy path for get, set, and delete via curried cache via ICache interface', async () => {
    const [key, value] = [text(), text()];
    const cache = shared.client.cache(shared.cacheName);
    expect(await cache.set(key, value)).toBeInstanceOf(CacheSet.Success);
    expect(((await cache.get(key)) as CacheGet.Hit).valueString()).toBe(value);
    expect(await cache.delete(key)).toBeInstanceOf(CacheDelete.Success);
    expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss);
    expect(await cache.setWithHash(key, value)).toBeInstanceOf(CacheSetWithHash.Stored);
    expect(((await cache.getWithHash(key)) as CacheGetWithHash.Hit).valueString()).toBe(value);
  });

  it('should support accessing value for CacheGet.Hit without instanceof check', async () => {
    const [key, value] = [text(), text()];
    await shared.client.set(shared.cacheName, key, value);
    expect((await shared.client.get(shared.cacheName, key)).value()).toBe(value);
    expect((await shared.client.get(shared.cacheName, text())).value()).toBeUndefined();
  });
});

describe('#increment', () => {
  validatesCacheName((cache) => shared.client.increment(cache, text(), 1));

  const valueOf = async (response: Promise<unknown>) => {
    const success = (await response) as CacheIncrement.Success;
    expect(success, String(success)).toBeInstanceOf(CacheIncrement.Success);
    return success.valueNumber();
  };

  it.each([
    ['string', text],
    ['Uint8Array', () => encode(text())],
  ])('increments from 0 to expected amount with %s field', async (_what, fieldOf) => {
    const field = fieldOf();
    expect(await valueOf(shared.client.increment(shared.cacheName, field, 1))).toBe(1);
    const second = (await shared.client.increment(shared.cacheName, field, 41)) as CacheIncrement.Success;
    expect([second.valueNumber(), second.toString()]).toEqual([42, 'Success: value: 42']);
    expect(await valueOf(shared.client.increment(shared.cacheName, field, -1042))).toBe(-1000);
    expect(((await shared.client.get(shared.cacheName, field)) as CacheGet.Hit).valueString()).toBe('-1000');
  });

  it('increments with setting and resetting field', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, '10');
    expect(await valueOf(shared.client.increment(shared.cacheName, field, 0))).toBe(10);
    expect(await valueOf(shared.client.increment(shared.cacheName, field, 90))).toBe(100);
    await shared.client.set(shared.cacheName, field, '0');
    expect(await valueOf(shared.client.increment(shared.cacheName, field, 0))).toBe(0);
  });

  it('fails with precondition with a bad amount', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, 'abcxyz');
    const response = (await shared.client.increment(shared.cacheName, field, 1)) as CacheIncrement.Error;
    expect(response).toBeInstanceOf(CacheIncrement.Error);
    expect(response.errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
  });

  it('should support happy path for increment via curried cache via ICache interface', async () => {
    const field = text();
    const cache = shared.client.cache(shared.cacheName);
    await cache.set(field, '10');
    expect(await valueOf(cache.increment(field, 42))).toBe(52);
  });

  it('fails with negative ttl', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, '10');
    const response = (await shared.client.increment(shared.cacheName, field, 10, { ttl: -1 })) as CacheIncrement.Error;
    expect(response).toBeInstanceOf(CacheIncrement.Error);
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('fails with float ttl', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, '10');
    const response = (await shared.client.increment(shared.cacheName, field, 10, { ttl: 1.5 })) as CacheIncrement.Error;
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('expires after ttl duration', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, '10');
    expect(await shared.client.increment(shared.cacheName, field, 10, { ttl: 1 })).toBeInstanceOf(
      CacheIncrement.Success,
    );
    await vi.waitFor(
      async () => expect(await shared.client.get(shared.cacheName, field)).toBeInstanceOf(CacheGet.Miss),
      {
        timeout: 5000,
        interval: 100,
      },
    );
  });

  it('should support accessing value for CacheIncrement.Success without instanceof check', async () => {
    const field = text();
    await shared.client.set(shared.cacheName, field, '10');
    expect((await shared.client.increment(shared.cacheName, field, 42)).value()).toBe(52);
  });
});

/** The key and value forms the conditional sets are tried with: [what, key, value from its text]. */
const KEY_FORMS: [string, () => string | Uint8Array, (v: string) => string | Uint8Array][] = [
  ['string', text, (v) => v],
  ['bytes', () => encode(text()), encode],
  ['string key with bytes value', text, encode],
  ['byte key with string value', () => encode(text()), (v) => v],
];

// #setIfNotExists and #setIfAbsent: the same cases upstream has for each, on one table.
const conditional = [
  {
    name: 'setIfNotExists',
    call: (cache: string, key: string | Uint8Array, value: string | Uint8Array, options?: { ttl?: number }) =>
      shared.client.setIfNotExists(cache, key, value, options),
    stored: CacheSetIfNotExists.Stored,
    notStored: CacheSetIfNotExists.NotStored,
    error: CacheSetIfNotExists.Error,
    curried: (key: string, value: string) => shared.client.cache(shared.cacheName).setIfNotExists(key, value),
  },
  {
    name: 'setIfAbsent',
    call: (cache: string, key: string | Uint8Array, value: string | Uint8Array, options?: { ttl?: number }) =>
      shared.client.setIfAbsent(cache, key, value, options),
    stored: CacheSetIfAbsent.Stored,
    notStored: CacheSetIfAbsent.NotStored,
    error: CacheSetIfAbsent.Error,
    curried: (key: string, value: string) => shared.client.cache(shared.cacheName).setIfAbsent(key, value),
  },
] as const;

describe.each(conditional)('#$name', ({ call, stored, notStored, error, curried }) => {
  validatesCacheName((cache) => call(cache, text(), text()));

  it.each(KEY_FORMS)('should set and get %s from cache', async (_what, keyOf, valueOf) => {
    const key = keyOf();
    const value = text();
    expect(await call(shared.cacheName, key, valueOf(value))).toBeInstanceOf(stored);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe(value);
  });

  it('should set and get remaining ttl from cache greater than expected', async () => {
    const [key, value] = [text(), text()];
    expect(await call(shared.cacheName, key, value, { ttl: 1000 })).toBeInstanceOf(stored);
    const ttl = (await shared.client.itemGetTtl(shared.cacheName, key)) as CacheItemGetTtl.Hit;
    expect(ttl.remainingTtlMillis()).toBeGreaterThan(950 * 1000);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe(value);
  });

  it('should not set and get string from cache when the key exists', async () => {
    const key = text();
    expect(await call(shared.cacheName, key, 'value1')).toBeInstanceOf(stored);
    expect(await call(shared.cacheName, key, 'value2')).toBeInstanceOf(notStored);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe('value1');
  });

  it('should return INVALID_ARGUMENT_ERROR for invalid ttl when set with string key/value', async () => {
    const response = (await call(shared.cacheName, text(), text(), { ttl: -1 })) as InstanceType<typeof error>;
    expect(response).toBeInstanceOf(error);
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('should set string key/value with valid ttl and get successfully', async () => {
    const [key, value] = [text(), text()];
    expect(await call(shared.cacheName, key, value, { ttl: 15 })).toBeInstanceOf(stored);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe(value);
  });

  it('should set with valid ttl and should return miss when ttl is expired', async () => {
    const key = text();
    expect(await call(shared.cacheName, key, text(), { ttl: 1 })).toBeInstanceOf(stored);
    await vi.waitFor(async () => expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss), {
      timeout: 5000,
      interval: 100,
    });
  });

  it('should support happy path via curried cache via ICache interface', async () => {
    const [key, value] = [text(), text()];
    expect(await curried(key, value)).toBeInstanceOf(stored);
    expect(((await shared.client.cache(shared.cacheName).get(key)) as CacheGet.Hit).valueString()).toBe(value);
  });
});

// #setIfPresent and #setIfEqual: a key set first (with `initial`), then the conditional call.
const whenPresent = [
  {
    name: 'setIfPresent',
    call: (key: string | Uint8Array, value: string | Uint8Array, _initial: string, options?: { ttl?: number }) =>
      shared.client.setIfPresent(shared.cacheName, key, value, options),
    refused: (key: string) => shared.client.setIfPresent(shared.cacheName, key, text()),
    validate: (cache: string) => shared.client.setIfPresent(cache, text(), text()),
    stored: CacheSetIfPresent.Stored,
    notStored: CacheSetIfPresent.NotStored,
    error: CacheSetIfPresent.Error,
  },
  {
    name: 'setIfEqual',
    call: (key: string | Uint8Array, value: string | Uint8Array, initial: string, options?: { ttl?: number }) =>
      shared.client.setIfEqual(shared.cacheName, key, value, initial, options),
    // The value there is not the one to check.
    refused: async (key: string) => {
      await shared.client.set(shared.cacheName, key, text());
      return shared.client.setIfEqual(shared.cacheName, key, text(), text());
    },
    validate: (cache: string) => shared.client.setIfEqual(cache, text(), text(), text()),
    stored: CacheSetIfEqual.Stored,
    notStored: CacheSetIfEqual.NotStored,
    error: CacheSetIfEqual.Error,
  },
] as const;

describe.each(whenPresent)('#$name', ({ call, refused, validate, stored, notStored, error }) => {
  validatesCacheName(validate);

  it.each(KEY_FORMS)('should set and get %s when the condition holds', async (_what, keyOf, valueOf) => {
    const [key, initial, value] = [keyOf(), text(), text()];
    expect(await shared.client.set(shared.cacheName, key, initial)).toBeInstanceOf(CacheSet.Success);
    expect(await call(key, valueOf(value), initial)).toBeInstanceOf(stored);
    expect(((await shared.client.get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe(value);
  });

  it('should not set when the condition does not hold', async () => {
    expect(await refused(text())).toBeInstanceOf(notStored);
  });

  it('should get remaining ttl from cache greater than expected', async () => {
    const [key, initial] = [text(), text()];
    await shared.client.set(shared.cacheName, key, initial);
    expect(await call(key, text(), initial, { ttl: 1000 })).toBeInstanceOf(stored);
    const ttl = (await shared.client.itemGetTtl(shared.cacheName, key)) as CacheItemGetTtl.Hit;
    expect(ttl.remainingTtlMillis()).toBeGreaterThan(950 * 1000);
  });

  it('should return INVALID_ARGUMENT_ERROR for invalid ttl', async () => {
    const response = (await call(text(), text(), text(), { ttl: -1 })) as InstanceType<typeof error>;
    expect(response).toBeInstanceOf(error);
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('should set with valid ttl and should return miss when ttl is expired', async () => {
    const [key, initial] = [text(), text()];
    await shared.client.set(shared.cacheName, key, initial, { ttl: 100 });
    expect(await call(key, text(), initial, { ttl: 1 })).toBeInstanceOf(stored);
    await vi.waitFor(async () => expect(await shared.client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss), {
      timeout: 5000,
      interval: 100,
    });
  });
});
