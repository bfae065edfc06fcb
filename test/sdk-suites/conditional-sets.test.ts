import { randomUUID } from 'node:crypto';
import {
  CacheClient,
  CacheDelete,
  CacheGet,
  CacheGetWithHash,
  CacheItemGetTtl,
  CacheSet,
  CacheSetIfAbsentOrEqual,
  CacheSetIfAbsentOrHashEqual,
  CacheSetIfAbsentOrHashNotEqual,
  CacheSetIfNotEqual,
  CacheSetIfPresentAndHashEqual,
  CacheSetIfPresentAndHashNotEqual,
  CacheSetIfPresentAndNotEqual,
  CacheSetWithHash,
  FailedPreconditionError,
  MomentoErrorCode,
  ReadConcern,
} from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fileCache, laptop, momentoLocal, validatesCacheName } from './sdk.js';

// The rest of the provider's shared get/set/delete suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/get-set-delete.ts): the SetIf families that compare
// with a value (setIfNotEqual, setIfPresentAndNotEqual, setIfAbsentOrEqual) and with a hash
// (setIfPresentAndHashEqual, ...HashNotEqual, setIfAbsentOrHashEqual, ...HashNotEqual), each
// family's cases from one table of when it stores; then its throw-on-errors and read-concern
// cases. The expiry cases wait for the Miss instead of sleeping.

const shared = fileCache();
const text = () => randomUUID();
const bytes = (s: string) => new TextEncoder().encode(s);

/** Where the key stands before the call: absent, or holding the value (hash) the call checks against, or another. */
type Before = 'absent' | 'equal' | 'not-equal';
type Key = string | Uint8Array;
type Value = string | Uint8Array;
interface Outcome {
  toString(): string;
}
interface Family {
  name: string;
  /** Compares with the stored value's hash rather than the value. */
  hashed: boolean;
  /** When the call stores. */
  stores: Record<Before, boolean>;
  call(cache: string, key: Key, value: Value, check: Value, options?: { ttl?: number }): Promise<Outcome>;
  Stored: abstract new (...args: never[]) => unknown;
  NotStored: abstract new (...args: never[]) => unknown;
  Error: abstract new (...args: never[]) => unknown;
  /** Upstream's cases of the condition itself: [name, where the key stands]. */
  cases: [string, Before][];
}

const c = () => shared.client;
const families: Family[] = [
  {
    name: 'setIfNotEqual',
    hashed: false,
    stores: { absent: true, equal: false, 'not-equal': true },
    call: (cache, key, value, check, options) => c().setIfNotEqual(cache, key, value, check, options),
    ...CacheSetIfNotEqual,
    cases: [
      ['should not set cache key if value to check is equal', 'equal'],
      ['should not set string when the current value is equal to value to check', 'equal'],
    ],
  },
  {
    name: 'setIfPresentAndNotEqual',
    hashed: false,
    stores: { absent: false, equal: false, 'not-equal': true },
    call: (cache, key, value, check, options) => c().setIfPresentAndNotEqual(cache, key, value, check, options),
    ...CacheSetIfPresentAndNotEqual,
    cases: [
      ['should set cache key if key is present and value to check is not equal', 'not-equal'],
      ['should not set cache key if key is present and value to check is equal', 'equal'],
      ['should not set cache key if key is not present', 'absent'],
      ['should not set string when the key is present and current value is equal to value to check', 'equal'],
    ],
  },
  {
    name: 'setIfAbsentOrEqual',
    hashed: false,
    stores: { absent: true, equal: true, 'not-equal': false },
    call: (cache, key, value, check, options) => c().setIfAbsentOrEqual(cache, key, value, check, options),
    ...CacheSetIfAbsentOrEqual,
    cases: [
      ['should not set cache key if key is present and value to check is not equal to cached value', 'not-equal'],
      ['should set cache key if key is present and value to check is equal', 'equal'],
      ['should set cache key if key is not present', 'absent'],
    ],
  },
  {
    name: 'setIfPresentAndHashEqual',
    hashed: true,
    stores: { absent: false, equal: true, 'not-equal': false },
    call: (cache, key, value, check, options) =>
      c().setIfPresentAndHashEqual(cache, key, value, check as Uint8Array, options),
    ...CacheSetIfPresentAndHashEqual,
    cases: [
      ['should not set cache key if key is present and hash of value to check is not equal', 'not-equal'],
      ['should set cache key if key is present and value to check is equal', 'equal'],
      ['should not set cache key if key is not present', 'absent'],
    ],
  },
  {
    name: 'setIfPresentAndHashNotEqual',
    hashed: true,
    stores: { absent: false, equal: false, 'not-equal': true },
    call: (cache, key, value, check, options) =>
      c().setIfPresentAndHashNotEqual(cache, key, value, check as Uint8Array, options),
    ...CacheSetIfPresentAndHashNotEqual,
    cases: [
      ['should set cache key if key is present and hash of value to check is not equal', 'not-equal'],
      ['should not set cache key if key is present and value to check is equal', 'equal'],
      ['should not set cache key if key is not present', 'absent'],
    ],
  },
  {
    name: 'setIfAbsentOrHashEqual',
    hashed: true,
    stores: { absent: true, equal: true, 'not-equal': false },
    call: (cache, key, value, check, options) =>
      c().setIfAbsentOrHashEqual(cache, key, value, check as Uint8Array, options),
    ...CacheSetIfAbsentOrHashEqual,
    cases: [
      ['should not set cache key if key is present and hash of value to check is not equal', 'not-equal'],
      ['should set cache key if key is present and value to check is equal', 'equal'],
      ['should set cache key if key is not present', 'absent'],
    ],
  },
  {
    name: 'setIfAbsentOrHashNotEqual',
    hashed: true,
    stores: { absent: true, equal: false, 'not-equal': true },
    call: (cache, key, value, check, options) =>
      c().setIfAbsentOrHashNotEqual(cache, key, value, check as Uint8Array, options),
    ...CacheSetIfAbsentOrHashNotEqual,
    cases: [
      ['should set cache key if key is present and hash of value to check is not equal', 'not-equal'],
      ['should not set cache key if key is present and value to check is equal', 'equal'],
      ['should set cache key if key is not present', 'absent'],
    ],
  },
];

/** The hash the service gives a value (setWithHash's answer), for the hash families' checks. */
async function hashOf(value: string): Promise<Uint8Array> {
  const stored = await c().setWithHash(shared.cacheName, text(), value);
  expect(stored, stored.toString()).toBeInstanceOf(CacheSetWithHash.Stored);
  return (stored as CacheSetWithHash.Stored).hashUint8Array();
}

/** Puts the key where `before` says; answers what to check against and what it held. */
async function arrange(family: Family, key: Key, before: Before): Promise<{ check: Value; initial?: string }> {
  if (before === 'absent') return { check: family.hashed ? bytes(text()) : text() };
  const initial = text();
  expect(await c().set(shared.cacheName, key, initial)).toBeInstanceOf(CacheSet.Success);
  if (before === 'equal') return { check: family.hashed ? await hashOf(initial) : initial, initial };
  return { check: family.hashed ? await hashOf(text()) : text(), initial };
}

/** The first state in which the family stores. */
const storing = (family: Family): Before => (['not-equal', 'absent', 'equal'] as const).find((b) => family.stores[b])!;

/** Calls the family from `before` and checks the outcome and what the key then holds. */
async function tried(
  family: Family,
  before: Before,
  forms: { key: () => Key; value: (s: string) => Value } = { key: text, value: (s) => s },
  options?: { ttl?: number },
): Promise<Key> {
  const key = forms.key();
  const { check, initial } = await arrange(family, key, before);
  const value = text();
  const response = await family.call(shared.cacheName, key, forms.value(value), check, options);
  const stores = family.stores[before];
  expect(response, response.toString()).toBeInstanceOf(stores ? family.Stored : family.NotStored);
  const got = await c().getWithHash(shared.cacheName, key);
  if (stores) {
    expect((got as CacheGetWithHash.Hit).valueString()).toBe(value);
    if (family.hashed)
      expect((got as CacheGetWithHash.Hit).hashString()).toBe((response as { hashString(): string }).hashString());
  } else if (initial === undefined) expect(got).toBeInstanceOf(CacheGetWithHash.Miss);
  else expect((got as CacheGetWithHash.Hit).valueString()).toBe(initial);
  return key;
}

describe.each(families)('#$name', (family) => {
  validatesCacheName((cache) => family.call(cache, text(), text(), family.hashed ? bytes(text()) : text()));

  for (const [name, before] of family.cases) it(name, async () => void (await tried(family, before)));

  it('should get remaining ttl from cache greater than expected', async () => {
    const key = await tried(family, storing(family), undefined, { ttl: 1000 });
    const ttl = await c().itemGetTtl(shared.cacheName, key);
    expect((ttl as CacheItemGetTtl.Hit).remainingTtlMillis()).toBeGreaterThan(950 * 1000);
  });

  for (const [name, forms] of [
    ['should set and get bytes', { key: () => bytes(text()), value: bytes }],
    ['should set string key with bytes value', { key: text, value: bytes }],
    ['should set byte key with string value', { key: () => bytes(text()), value: (s: string) => s }],
  ] as const)
    it(name, async () => void (await tried(family, storing(family), forms)));

  it('should return INVALID_ARGUMENT_ERROR for invalid ttl when set with string key/value', async () => {
    const response = await family.call(shared.cacheName, text(), text(), family.hashed ? bytes(text()) : text(), {
      ttl: -1,
    });
    expect(response).toBeInstanceOf(family.Error);
    expect((response as { errorCode(): string }).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('should set string key/value with valid ttl and get successfully', async () => {
    await tried(family, storing(family), undefined, { ttl: 15 });
  });

  it('should set with valid ttl and should return miss when ttl is expired', async () => {
    const key = await tried(family, storing(family), undefined, { ttl: 1 });
    await vi.waitFor(async () => expect(await c().get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss), {
      timeout: 5000,
      interval: 100,
    });
  });

  it(`should support happy path for ${family.name} via curried cache via ICache interface`, async () => {
    const key = text();
    const { check } = await arrange(family, key, storing(family));
    const cache = c().cache(shared.cacheName) as unknown as Record<
      string,
      (key: Key, value: Value, check: Value) => Promise<unknown>
    >;
    expect(await cache[family.name]!(key, 'curried', check)).toBeInstanceOf(family.Stored);
    expect(((await c().get(shared.cacheName, key)) as CacheGet.Hit).valueString()).toBe('curried');
  });
});

describe('when configured to throw on errors', () => {
  it('throws a FailedPreconditionError if increment is called on a string', async () => {
    const client = await CacheClient.create({
      configuration: laptop().withThrowOnErrors(true),
      credentialProvider: momentoLocal(),
      defaultTtlSeconds: 60,
    });
    try {
      const field = text();
      expect(await client.set(shared.cacheName, field, 'abcxyz')).toBeInstanceOf(CacheSet.Success);
      await expect(client.increment(shared.cacheName, field, 1)).rejects.toBeInstanceOf(FailedPreconditionError);
    } finally {
      client.close();
    }
  });
});

describe('when ReadConcern is specified', () => {
  for (const [name, concern] of [
    ['Balanced', ReadConcern.BALANCED],
    ['Consistent', ReadConcern.CONSISTENT],
  ] as const)
    it(`gets, sets, and deletes with ${name} ReadConcern`, async () => {
      const client = await CacheClient.create({
        configuration: laptop().withReadConcern(concern),
        credentialProvider: momentoLocal(),
        defaultTtlSeconds: 60,
      });
      try {
        const key = text();
        await client.set(shared.cacheName, key, bytes(text()));
        expect(await client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Hit);
        expect(await client.delete(shared.cacheName, key)).toBeInstanceOf(CacheDelete.Success);
        expect(await client.get(shared.cacheName, key)).toBeInstanceOf(CacheGet.Miss);
      } finally {
        client.close();
      }
    });
});
