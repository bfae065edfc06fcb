import {
  CacheDelete,
  CacheItemGetTtl,
  CacheSetAddElement,
  CacheSetAddElements,
  CacheSetContainsElement,
  CacheSetContainsElements,
  CacheSetFetch,
  CacheSetRemoveElement,
  CacheSetRemoveElements,
  CacheSetSample,
  CollectionTtl,
  MomentoErrorCode,
} from '@gomomento/sdk';
// setLength and setPop's responses are exported by the SDK's core package only.
import { CacheSetLength, CacheSetPop } from '@gomomento/sdk-core';
import { describe, expect, it, vi } from 'vitest';
import { uuid, validatesNames } from './collections.js';
import { fileCache } from './sdk.js';

// The cases of the provider's shared set suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/set.ts), rewritten against the suite's CLI emulator
// with the SDK unchanged. Its TTL cases read the remaining TTL and wait for the expiry instead of
// sleeping two seconds.

const shared = fileCache();
const client = () => shared.client;
const cacheName = () => shared.cacheName;

const LOL = Uint8Array.of(108, 111, 108);
const FOO = Uint8Array.of(102, 111, 111);
const FRUITS = ['apples', 'bananas', 'carrots', 'dates', 'elderberries'];

async function fetched(set: string): Promise<CacheSetFetch.Hit> {
  const response = await client().setFetch(cacheName(), set);
  expect(response, response.toString()).toBeInstanceOf(CacheSetFetch.Hit);
  return response as CacheSetFetch.Hit;
}

async function added(set: string, elements: string[] | Uint8Array[], ttl?: CollectionTtl): Promise<void> {
  const response = await client().setAddElements(cacheName(), set, elements, ttl ? { ttl } : {});
  expect(response, response.toString()).toBeInstanceOf(CacheSetAddElements.Success);
}

describe('Integration tests for convenience operations on sets datastructure', () => {
  validatesNames('set', (cache, set) => client().setAddElement(cache, set, uuid()), cacheName);
  validatesNames('set', (cache, set) => client().setAddElements(cache, set, [uuid()]), cacheName);
  validatesNames('set', (cache, set) => client().setFetch(cache, set), cacheName);
  validatesNames('set', (cache, set) => client().setRemoveElements(cache, set, [uuid()]), cacheName);
  validatesNames('set', (cache, set) => client().setSample(cache, set, 0), cacheName);
});

describe('#addElement', () => {
  for (const [kind, element] of [
    ['a byte array', LOL],
    ['a string', 'lol'],
  ] as const)
    it(`should succeed for addElement with ${kind} happy path`, async () => {
      const set = uuid();
      expect(await client().setAddElement(cacheName(), set, element)).toBeInstanceOf(CacheSetAddElement.Success);
      expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL]));
    });

  it('should support happy path for addElement via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(await cache.setAddElement(set, 'baz')).toBeInstanceOf(CacheSetAddElement.Success);
    expect(((await cache.setFetch(set)) as CacheSetFetch.Hit).valueSet()).toEqual(new Set(['foo', 'bar', 'baz']));
  });
});

describe('#containsElement', () => {
  it('should be a miss on a set that does not exist', async () => {
    const response = await client().setContainsElement(cacheName(), uuid(), 'foo');
    expect(response).toBeInstanceOf(CacheSetContainsElement.Miss);
    expect(response.containsElement()).toBeUndefined();
  });

  it("should be a hit on a set that exists but doesn't contain the element", async () => {
    const set = uuid();
    expect(await client().setAddElement(cacheName(), set, 'bar')).toBeInstanceOf(CacheSetAddElement.Success);
    const response = await client().setContainsElement(cacheName(), set, 'foo');
    expect(response).toBeInstanceOf(CacheSetContainsElement.Hit);
    expect(response.containsElement()).toBe(false);
  });

  it('should be a hit on a set that exists and does contain the element', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar', 'baz']);
    const response = await client().setContainsElement(cacheName(), set, 'foo');
    expect(response).toBeInstanceOf(CacheSetContainsElement.Hit);
    expect(response.containsElement()).toBe(true);
  });
});

describe('#containsElements', () => {
  it('should be a miss when the set does not exist', async () => {
    const response = await client().setContainsElements(cacheName(), uuid(), ['foo', 'bar', 'baz']);
    expect(response).toBeInstanceOf(CacheSetContainsElements.Miss);
    expect(response.containsElements()).toBeUndefined();
  });

  it('should be a hit when the set does not contain any of the elements', async () => {
    const set = uuid();
    expect(await client().setAddElement(cacheName(), set, 'foo')).toBeInstanceOf(CacheSetAddElement.Success);
    const response = await client().setContainsElements(cacheName(), set, ['bar', 'baz']);
    expect(response).toBeInstanceOf(CacheSetContainsElements.Hit);
    expect(response.containsElements()).toEqual({ bar: false, baz: false });
  });

  it('should be a hit when the set contains some of the elements', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar']);
    const response = await client().setContainsElements(cacheName(), set, ['foo', 'baz']);
    expect(response).toBeInstanceOf(CacheSetContainsElements.Hit);
    expect(response.containsElements()).toEqual({ foo: true, baz: false });
  });
});

describe('#removeElement', () => {
  for (const [kind, removed] of [
    ['a byte array', FOO],
    ['a string array', 'foo'],
  ] as const)
    it(`should succeed for removeElement with ${kind} happy path`, async () => {
      const set = uuid();
      await added(set, [FOO, LOL]);
      expect(await client().setRemoveElement(cacheName(), set, removed)).toBeInstanceOf(CacheSetRemoveElement.Success);
      expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL]));
    });

  it('should support happy path for removeElement via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar', 'baz']);
    expect(await cache.setRemoveElement(set, 'bar')).toBeInstanceOf(CacheSetRemoveElement.Success);
    expect(((await cache.setFetch(set)) as CacheSetFetch.Hit).valueSet()).toEqual(new Set(['foo', 'baz']));
  });
});

describe('#addElements', () => {
  const remaining = async (set: string) =>
    ((await client().itemGetTtl(cacheName(), set)) as CacheItemGetTtl.Hit).remainingTtlMillis();

  it('should succeed for addElements with byte arrays happy path', async () => {
    const set = uuid();
    await added(set, [LOL, FOO]);
    expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL, FOO]));
  });

  it('should succeed for addElements with byte arrays happy path with no refresh ttl', async () => {
    const set = uuid();
    await added(set, [LOL, FOO], new CollectionTtl(2, false));
    await added(set, [LOL, FOO], new CollectionTtl(10, false));
    expect(await remaining(set)).toBeLessThanOrEqual(2000);
    await vi.waitFor(async () => expect(await client().setFetch(cacheName(), set)).toBeInstanceOf(CacheSetFetch.Miss), {
      timeout: 6000,
      interval: 100,
    });
  });

  it('should succeed for addElements with byte arrays happy path with refresh ttl', async () => {
    const set = uuid();
    await added(set, [LOL, FOO], new CollectionTtl(2, false));
    await added(set, [LOL, FOO], new CollectionTtl(10, true));
    expect(await remaining(set)).toBeGreaterThan(5000);
    const hit = await fetched(set);
    expect(hit.valueSetUint8Array()).toEqual(new Set([LOL, FOO]));
    expect(hit.valueArrayUint8Array()).toHaveLength(2);
    expect(new Set(hit.valueArrayUint8Array())).toEqual(new Set([LOL, FOO]));
  });

  it('should succeed for addElements for string arrays happy path', async () => {
    const set = uuid();
    await added(set, ['lol', 'foo']);
    const hit = await fetched(set);
    expect(hit.valueSet()).toEqual(new Set(['lol', 'foo']));
    expect(hit.valueSetString()).toEqual(new Set(['lol', 'foo']));
    expect(hit.valueArray().sort()).toEqual(['foo', 'lol']);
    expect(hit.valueArrayString().sort()).toEqual(['foo', 'lol']);
  });

  it('should succeed for addElements with duplicate elements', async () => {
    const set = uuid();
    await added(set, [LOL, FOO]);
    await added(set, [LOL]);
    expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL, FOO]));
  });

  it('should support happy path for addElements via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(await cache.setAddElements(set, ['baz', 'bam'])).toBeInstanceOf(CacheSetAddElements.Success);
    expect(((await cache.setFetch(set)) as CacheSetFetch.Hit).valueSet()).toEqual(
      new Set(['foo', 'bar', 'baz', 'bam']),
    );
  });
});

describe('#removeElements', () => {
  const removes = async (set: string, elements: string[] | Uint8Array[]) =>
    expect(await client().setRemoveElements(cacheName(), set, elements)).toBeInstanceOf(CacheSetRemoveElements.Success);

  it('should succeed for removeElements byte arrays happy path', async () => {
    const set = uuid();
    await added(set, [LOL, FOO]);
    await removes(set, [FOO]);
    expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL]));
  });

  it('should succeed for removeElements string arrays happy path', async () => {
    const set = uuid();
    await added(set, ['lol', 'foo']);
    await removes(set, ['foo']);
    expect((await fetched(set)).valueSetString()).toEqual(new Set(['lol']));
  });

  it('should succeed for removeElements when the element does not exist', async () => {
    const set = uuid();
    await added(set, [LOL]);
    await removes(set, [FOO]);
    expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([LOL]));
  });

  it('should succeed for removeElements when bytes/strings are used together', async () => {
    const set = uuid();
    await added(set, [LOL, FOO]);
    await removes(set, ['lol']);
    expect((await fetched(set)).valueSetUint8Array()).toEqual(new Set([FOO]));
  });

  it('should support happy path for removeElements via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar', 'baz', 'bam']);
    expect(await cache.setRemoveElements(set, ['bar', 'baz'])).toBeInstanceOf(CacheSetRemoveElements.Success);
    expect(((await cache.setFetch(set)) as CacheSetFetch.Hit).valueSet()).toEqual(new Set(['foo', 'bam']));
  });
});

describe('#setFetch', () => {
  it('should succeed for string arrays happy path', async () => {
    const set = uuid();
    await added(set, ['how', 'ya', 'ding']);
    const hit = await fetched(set);
    expect(hit.valueSet()).toEqual(new Set(['how', 'ya', 'ding']));
    expect(hit.valueSetString()).toEqual(new Set(['how', 'ya', 'ding']));
    expect(hit.valueArray().sort()).toEqual(['ding', 'how', 'ya']);
    expect(hit.valueArrayString().sort()).toEqual(['ding', 'how', 'ya']);
  });

  it('should return MISS if set does not exist', async () => {
    expect(await client().setFetch(cacheName(), uuid())).toBeInstanceOf(CacheSetFetch.Miss);
  });

  it('should return MISS if set has been deleted', async () => {
    const set = uuid();
    await added(set, [LOL, FOO]);
    expect(await client().delete(cacheName(), set)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().setFetch(cacheName(), set)).toBeInstanceOf(CacheSetFetch.Miss);
  });

  it('should support happy path for fetch via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(((await cache.setFetch(set)) as CacheSetFetch.Hit).valueSet()).toEqual(new Set(['foo', 'bar']));
  });

  it('should support accessing value for CacheSetFetch.Hit without instanceof check', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar']);
    const hit = await client().setFetch(cacheName(), set);
    expect(new Set(hit.value())).toEqual(new Set(['foo', 'bar']));
    expect(new Set((hit as CacheSetFetch.Hit).valueArray())).toEqual(new Set(['foo', 'bar']));
    const miss = await client().setFetch(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheSetFetch.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#setSample', () => {
  it('validates limit', async () => {
    const response = await client().setSample(cacheName(), uuid(), -1);
    expect(response).toBeInstanceOf(CacheSetSample.Error);
    expect((response as CacheSetSample.Error).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('should return MISS if set does not exist', async () => {
    expect(await client().setSample(cacheName(), uuid(), 10)).toBeInstanceOf(CacheSetSample.Miss);
  });

  it('should return HIT when set exists', async () => {
    const set = uuid();
    await added(set, FRUITS);
    expect(await client().setSample(cacheName(), set, 0)).toBeInstanceOf(CacheSetSample.Hit);
    for (const [limit, size] of [
      [3, 3],
      [5, 5],
      [10, 5],
    ]) {
      const response = await client().setSample(cacheName(), set, limit!);
      expect(response, response.toString()).toBeInstanceOf(CacheSetSample.Hit);
      const values = (response as CacheSetSample.Hit).valueArray();
      expect(values).toHaveLength(size!);
      expect(new Set(values).size).toBe(size);
      for (const value of values) expect(FRUITS).toContain(value);
    }
  });

  it('should support happy path via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(((await cache.setSample(set, 2)) as CacheSetSample.Hit).valueSet()).toEqual(new Set(['foo', 'bar']));
  });

  it('should support accessing value for CacheSetSample.Hit without instanceof check', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar']);
    const hit = await client().setSample(cacheName(), set, 2);
    expect(new Set(hit.value())).toEqual(new Set(['foo', 'bar']));
    expect(new Set((hit as CacheSetSample.Hit).valueArray())).toEqual(new Set(['foo', 'bar']));
    const miss = await client().setSample(cacheName(), uuid(), 2);
    expect(miss).toBeInstanceOf(CacheSetSample.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#setPop', () => {
  it('validates count', async () => {
    for (const count of [-1, 0]) {
      const response = await client().setPop(cacheName(), uuid(), count);
      expect(response).toBeInstanceOf(CacheSetPop.Error);
      expect((response as CacheSetPop.Error).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    }
  });

  it('should return MISS if set does not exist', async () => {
    expect(await client().setPop(cacheName(), uuid(), 10)).toBeInstanceOf(CacheSetPop.Miss);
  });

  for (const [relation, count, popped] of [
    ['<', 3, 3],
    ['==', 5, 5],
    ['>', 10, 5],
  ] as const)
    it(`should return HIT when set exists - count ${relation} set size`, async () => {
      const set = uuid();
      await added(set, FRUITS);
      const response = await client().setPop(cacheName(), set, count);
      expect(response, response.toString()).toBeInstanceOf(CacheSetPop.Hit);
      const values = (response as CacheSetPop.Hit).valueArray();
      expect(values).toHaveLength(popped);
      for (const value of values) expect(FRUITS).toContain(value);
      const length = await client().setLength(cacheName(), set);
      if (popped < FRUITS.length) expect((length as CacheSetLength.Hit).length()).toBe(FRUITS.length - popped);
      // Emptied, the set is gone.
      else expect(length).toBeInstanceOf(CacheSetLength.Miss);
    });

  it('should support happy path for setPop via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(((await cache.setPop(set, 2)) as CacheSetPop.Hit).valueSet()).toEqual(new Set(['foo', 'bar']));
  });

  it('should support accessing value for CacheSetPop.Hit without instanceof check', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar']);
    const hit = await client().setPop(cacheName(), set, 2);
    expect(hit).toBeInstanceOf(CacheSetPop.Hit);
    expect(new Set(hit.value())).toEqual(new Set(['foo', 'bar']));
    const miss = await client().setPop(cacheName(), uuid(), 2);
    expect(miss).toBeInstanceOf(CacheSetPop.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#setLength', () => {
  it('should return MISS if set does not exist', async () => {
    expect(await client().setLength(cacheName(), uuid())).toBeInstanceOf(CacheSetLength.Miss);
  });

  it('should return HIT when set exists', async () => {
    const set = uuid();
    await added(set, FRUITS);
    expect(((await client().setLength(cacheName(), set)) as CacheSetLength.Hit).length()).toBe(FRUITS.length);
  });

  it('should support happy path for setLength via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.setAddElements(set, ['foo', 'bar']);
    expect(((await cache.setLength(set)) as CacheSetLength.Hit).length()).toBe(2);
  });

  it('should support accessing value for CacheSetLength.Hit without instanceof check', async () => {
    const set = uuid();
    await added(set, ['foo', 'bar']);
    const hit = await client().setLength(cacheName(), set);
    expect(hit.length()).toBe(2);
    const miss = await client().setLength(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheSetLength.Miss);
    expect(miss.length()).toBeUndefined();
  });
});
