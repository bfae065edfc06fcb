import {
  CacheDelete,
  CacheItemGetTtl,
  CacheListConcatenateBack,
  CacheListConcatenateFront,
  CacheListFetch,
  CacheListLength,
  CacheListPopBack,
  CacheListPopFront,
  CacheListPushBack,
  CacheListPushFront,
  CacheListRemoveValue,
  CacheListRetain,
  CollectionTtl,
} from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { uuid, validatesNames } from './collections.js';
import { fileCache } from './sdk.js';

// The cases of the provider's shared list suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/list.ts), rewritten against the suite's CLI emulator
// with the SDK unchanged. Its TTL cases wait for the expiry, and for the TTL to run down before a
// refreshing write, instead of sleeping.

const shared = fileCache();
const client = () => shared.client;
const cacheName = () => shared.cacheName;

interface Added {
  list: string;
  value: string | Uint8Array;
  ttl?: CollectionTtl;
  truncateToSize?: number;
}
type AddValue = (props: Added) => Promise<unknown>;

/** The call's options, only those given (the SDK's option types take no undefined). */
const optionsOf = (truncate: 'truncateFrontToSize' | 'truncateBackToSize', { ttl, truncateToSize }: Added) => ({
  ...(truncateToSize !== undefined ? { [truncate]: truncateToSize } : {}),
  ...(ttl ? { ttl } : {}),
});

async function fetched(list: string): Promise<CacheListFetch.Hit> {
  const response = await client().listFetch(cacheName(), list);
  expect(response, response.toString()).toBeInstanceOf(CacheListFetch.Hit);
  return response as CacheListFetch.Hit;
}

const remaining = async (list: string) =>
  ((await client().itemGetTtl(cacheName(), list)) as CacheItemGetTtl.Hit).remainingTtlMillis();

function hasCollectionTtl(addValue: AddValue): void {
  it('sets ttl', async () => {
    const list = uuid();
    for (const value of ['one', 'two', 'three']) await addValue({ list, value, ttl: new CollectionTtl(1, false) });
    await vi.waitFor(
      async () => expect(await client().listFetch(cacheName(), list)).toBeInstanceOf(CacheListFetch.Miss),
      {
        timeout: 5000,
        interval: 100,
      },
    );
  });

  it('refreshes ttl', async () => {
    const list = uuid();
    const ttl = new CollectionTtl(3, true);
    const values = ['one', 'two', 'three'];
    for (const value of values) {
      await addValue({ list, value, ttl });
      // Each write sets the TTL anew (3 s): let it run below half before the next one.
      await vi.waitFor(async () => expect(await remaining(list)).toBeLessThan(1500), { timeout: 5000, interval: 100 });
    }
    expect(new Set((await fetched(list)).valueListString())).toEqual(new Set(values));
  });
}

function addsValues(addValue: AddValue): void {
  it('returns the new list length', async () => {
    const list = uuid();
    let length = 0;
    for (const value of ['one', 'two', 'three'])
      expect(((await addValue({ list, value })) as { listLength(): number }).listLength()).toBe(++length);
  });
}

function addsValuesToTheBack(addValue: AddValue): void {
  hasCollectionTtl(addValue);
  addsValues(addValue);

  it('adds to the back', async () => {
    const list = uuid();
    for (const value of ['one', 'two', 'three']) await addValue({ list, value });
    expect((await fetched(list)).valueListString()).toEqual(['one', 'two', 'three']);
  });

  it('truncates the front', async () => {
    const list = uuid();
    for (const value of ['one', 'two', 'three']) await addValue({ list, value, truncateToSize: 2 });
    expect((await fetched(list)).valueListString()).toEqual(['two', 'three']);
  });
}

function addsValuesToTheFront(addValue: AddValue): void {
  hasCollectionTtl(addValue);
  addsValues(addValue);

  it('adds to the front', async () => {
    const list = uuid();
    for (const value of ['one', 'two', 'three']) await addValue({ list, value });
    expect((await fetched(list)).valueListString()).toEqual(['three', 'two', 'one']);
  });

  it('truncates the back', async () => {
    const list = uuid();
    for (const value of ['one', 'two', 'three']) await addValue({ list, value, truncateToSize: 2 });
    expect((await fetched(list)).valueListString()).toEqual(['three', 'two']);
  });
}

describe('#listFetch', () => {
  validatesNames('list', (cache, list) => client().listFetch(cache, list), cacheName);

  it('returns a miss if the list does not exist', async () => {
    expect(await client().listFetch(cacheName(), uuid())).toBeInstanceOf(CacheListFetch.Miss);
  });

  it('returns a hit if the list exists', async () => {
    const list = uuid();
    await client().listPushFront(cacheName(), list, 'abc123');
    const hit = await fetched(list);
    expect(hit.valueListString()).toEqual(['abc123']);
    expect(hit.valueList()).toEqual(['abc123']);
    expect(hit.valueListUint8Array()).toEqual([new Uint8Array([97, 98, 99, 49, 50, 51])]);
  });

  it('returns a miss if the list is deleted', async () => {
    const list = uuid();
    await client().listPushFront(cacheName(), list, '123');
    await fetched(list);
    expect(await client().delete(cacheName(), list)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().listFetch(cacheName(), list)).toBeInstanceOf(CacheListFetch.Miss);
  });

  it('returns a sliced hit if the list exists', async () => {
    const list = uuid();
    await client().listConcatenateBack(cacheName(), list, ['a', 'b', 'c', '1', '2', '3']);
    const hit = await client().listFetch(cacheName(), list, { startIndex: 2, endIndex: 4 });
    expect((hit as CacheListFetch.Hit).valueListString()).toEqual(['c', '1']);
  });

  it('should support happy path for listFetch via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar']);
    expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(['foo', 'bar']);
  });

  it('should support accessing value for CacheListFetch.Hit without instanceof check', async () => {
    const list = uuid();
    await client().listConcatenateFront(cacheName(), list, ['foo', 'bar']);
    const hit = await client().listFetch(cacheName(), list);
    expect(hit.value()).toEqual(['foo', 'bar']);
    expect((hit as CacheListFetch.Hit).valueList()).toEqual(['foo', 'bar']);
    const miss = await client().listFetch(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheListFetch.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#listLength', () => {
  validatesNames('list', (cache, list) => client().listLength(cache, list), cacheName);

  it('returns a miss if the list does not exist', async () => {
    expect(await client().listLength(cacheName(), uuid())).toBeInstanceOf(CacheListLength.Miss);
  });

  it('returns the length if the list exists', async () => {
    const list = uuid();
    await client().listConcatenateFront(cacheName(), list, ['one', 'two', 'three']);
    const response = await client().listLength(cacheName(), list);
    expect(response, response.toString()).toBeInstanceOf(CacheListLength.Hit);
    expect((response as CacheListLength.Hit).length()).toBe(3);
  });

  it('should support happy path for listLength via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar']);
    expect(((await cache.listLength(list)) as CacheListLength.Hit).length()).toBe(2);
  });
});

for (const [end, Pop, values, popped, curried] of [
  ['Back', CacheListPopBack, ['one', 'two', 'lol'], 'lol', 'bar'],
  ['Front', CacheListPopFront, ['lol', 'two', 'three'], 'lol', 'foo'],
] as const) {
  const pop = (cache: string, list: string) =>
    end === 'Back' ? client().listPopBack(cache, list) : client().listPopFront(cache, list);

  describe(`#listPop${end}`, () => {
    validatesNames('list', pop, cacheName);

    it('misses when the list does not exist', async () => {
      expect(await pop(cacheName(), uuid())).toBeInstanceOf(Pop.Miss);
    });

    it('hits when the list exists', async () => {
      const list = uuid();
      await client().listConcatenateFront(cacheName(), list, [...values]);
      const response = await pop(cacheName(), list);
      expect(response, response.toString()).toBeInstanceOf(Pop.Hit);
      expect((response as CacheListPopBack.Hit).valueString()).toBe(popped);
      expect((response as CacheListPopBack.Hit).valueUint8Array()).toEqual(Uint8Array.of(108, 111, 108));
    });

    it(`should support happy path for listPop${end} via curried cache via ICache interface`, async () => {
      const list = uuid();
      const cache = client().cache(cacheName());
      await cache.listConcatenateFront(list, ['foo', 'bar']);
      const response = end === 'Back' ? await cache.listPopBack(list) : await cache.listPopFront(list);
      expect((response as CacheListPopBack.Hit).valueString()).toBe(curried);
    });

    it(`should support accessing value for CacheListPop${end}.Hit without instanceof check`, async () => {
      const list = uuid();
      await client().listConcatenateFront(cacheName(), list, ['foo', 'bar']);
      const hit = await pop(cacheName(), list);
      expect(hit).toBeInstanceOf(Pop.Hit);
      expect(hit.value()).toBe(curried);
      expect((hit as CacheListPopBack.Hit).valueString()).toBe(curried);
      const miss = await pop(cacheName(), uuid());
      expect(miss).toBeInstanceOf(Pop.Miss);
      expect(miss.value()).toBeUndefined();
    });
  });
}

describe('#listPushBack', () => {
  validatesNames('list', (cache, list) => client().listPushBack(cache, list, uuid()), cacheName);
  addsValuesToTheBack((added) =>
    client().listPushBack(cacheName(), added.list, added.value, optionsOf('truncateFrontToSize', added)),
  );

  it('returns a CacheListPushBack response', async () => {
    expect(await client().listPushBack(cacheName(), uuid(), 'test')).toBeInstanceOf(CacheListPushBack.Success);
  });

  it('should support happy path for listPushBack via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar']);
    expect(await cache.listPushBack(list, 'baz')).toBeInstanceOf(CacheListPushBack.Success);
    expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(['foo', 'bar', 'baz']);
  });
});

describe('#listPushFront', () => {
  validatesNames('list', (cache, list) => client().listPushFront(cache, list, uuid()), cacheName);
  addsValuesToTheFront((added) =>
    client().listPushFront(cacheName(), added.list, added.value, optionsOf('truncateBackToSize', added)),
  );

  it('returns a CacheListPushFront response', async () => {
    expect(await client().listPushFront(cacheName(), uuid(), 'test')).toBeInstanceOf(CacheListPushFront.Success);
  });

  it('should support happy path for listPushFront via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar']);
    expect(await cache.listPushFront(list, 'baz')).toBeInstanceOf(CacheListPushFront.Success);
    expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(['baz', 'foo', 'bar']);
  });
});

describe('#listRemoveValue', () => {
  validatesNames('list', (cache, list) => client().listRemoveValue(cache, list, uuid()), cacheName);

  it('removes values', async () => {
    const list = uuid();
    await client().listConcatenateFront(cacheName(), list, [
      'number 9',
      'turn me on',
      'number 9',
      'dead man',
      'number 9',
    ]);
    expect(await client().listRemoveValue(cacheName(), list, 'number 9')).toBeInstanceOf(CacheListRemoveValue.Success);
    expect((await fetched(list)).valueListString()).toEqual(['turn me on', 'dead man']);
  });

  it('should support happy path for listRemoveValue via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar', 'baz']);
    expect(await cache.listRemoveValue(list, 'bar')).toBeInstanceOf(CacheListRemoveValue.Success);
    expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(['foo', 'baz']);
  });
});

describe('#listRetain', () => {
  validatesNames('list', (cache, list) => client().listRetain(cache, list), cacheName);

  it('returns Success if the list does not exist', async () => {
    expect(await client().listRetain(cacheName(), uuid())).toBeInstanceOf(CacheListRetain.Success);
  });

  it('returns Success if the list exists', async () => {
    const list = uuid();
    expect(await client().listConcatenateBack(cacheName(), list, ['a', 'b', 'c', '1', '2', '3'])).toBeInstanceOf(
      CacheListConcatenateBack.Success,
    );
    expect(await client().listRetain(cacheName(), list, { startIndex: 1, endIndex: 2 })).toBeInstanceOf(
      CacheListRetain.Success,
    );
    const hit = await fetched(list);
    expect(hit.valueListString()).toEqual(['b']);
    expect(hit.valueList()).toEqual(['b']);
    expect(hit.valueListUint8Array()).toEqual([new Uint8Array([98])]);
  });

  it('should support happy path for listRetain via curried cache via ICache interface', async () => {
    const list = uuid();
    const cache = client().cache(cacheName());
    await cache.listConcatenateFront(list, ['foo', 'bar', 'baz', 'bam']);
    expect(await cache.listRetain(list, { startIndex: 1, endIndex: 3 })).toBeInstanceOf(CacheListRetain.Success);
    expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(['bar', 'baz']);
  });
});

for (const [end, Concatenate] of [
  ['Back', CacheListConcatenateBack],
  ['Front', CacheListConcatenateFront],
] as const) {
  const concatenate = (list: string, values: string[], options = {}) =>
    end === 'Back'
      ? client().listConcatenateBack(cacheName(), list, values, options)
      : client().listConcatenateFront(cacheName(), list, values, options);

  describe(`#listConcatenate${end}`, () => {
    validatesNames(
      'list',
      (cache, list) =>
        end === 'Back'
          ? client().listConcatenateBack(cache, list, [uuid()])
          : client().listConcatenateFront(cache, list, [uuid()]),
      cacheName,
    );
    const addValue: AddValue = (added) =>
      end === 'Back'
        ? client().listConcatenateBack(
            cacheName(),
            added.list,
            [added.value] as string[],
            optionsOf('truncateFrontToSize', added),
          )
        : client().listConcatenateFront(
            cacheName(),
            added.list,
            [added.value] as string[],
            optionsOf('truncateBackToSize', added),
          );
    if (end === 'Back') addsValuesToTheBack(addValue);
    else addsValuesToTheFront(addValue);

    it('adds multiple values', async () => {
      const list = uuid();
      const [values1, values2] = [
        ['1', '2', '3', '4'],
        ['this', 'that'],
      ];
      const first = await concatenate(list, values1);
      expect(first, first.toString()).toBeInstanceOf(Concatenate.Success);
      expect((first as CacheListConcatenateBack.Success).listLength()).toBe(4);
      expect((await fetched(list)).valueListString()).toEqual(values1);
      const second = await concatenate(list, values2);
      expect((second as CacheListConcatenateBack.Success).listLength()).toBe(6);
      expect((await fetched(list)).valueListString()).toEqual(
        end === 'Back' ? values1.concat(values2) : values2.concat(values1),
      );
    });

    it(`should support happy path for listConcatenate${end} via curried cache via ICache interface`, async () => {
      const list = uuid();
      const cache = client().cache(cacheName());
      await cache.listConcatenateFront(list, ['foo', 'bar']);
      const response =
        end === 'Back'
          ? await cache.listConcatenateBack(list, ['baz', 'bam'])
          : await cache.listConcatenateFront(list, ['baz', 'bam']);
      expect(response).toBeInstanceOf(Concatenate.Success);
      expect(((await cache.listFetch(list)) as CacheListFetch.Hit).valueList()).toEqual(
        end === 'Back' ? ['foo', 'bar', 'baz', 'bam'] : ['baz', 'bam', 'foo', 'bar'],
      );
    });
  });
}
