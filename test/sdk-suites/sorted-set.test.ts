import {
  CacheDelete,
  CacheSortedSetFetch,
  CacheSortedSetGetRank,
  CacheSortedSetGetScore,
  CacheSortedSetGetScores,
  CacheSortedSetIncrementScore,
  CacheSortedSetLength,
  CacheSortedSetLengthByScore,
  CacheSortedSetPutElement,
  CacheSortedSetPutElements,
  CacheSortedSetRemoveElement,
  CacheSortedSetRemoveElements,
  CacheSortedSetUnionStore,
  MomentoErrorCode,
  SortedSetAggregate,
  SortedSetOrder,
} from '@gomomento/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, hasCollectionTtl, missesWhenAbsent, uuid, validatesNames } from './collections.js';
import { fileCache } from './sdk.js';

// The cases of the provider's shared sorted-set suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/sorted-set.ts), rewritten against the suite's CLI
// emulator with the SDK unchanged (its newest version, with sortedSetUnionStore). The many range
// cases are one table each.

const shared = fileCache();
const client = () => shared.client;
const cacheName = () => shared.cacheName;

const SPICY = { bam: 1000, foo: 1, taco: 90210, bar: 2, burrito: 9000, baz: 42, habanero: 68, jalapeno: 1_000_000 };
const ASCENDING = [
  { value: 'foo', score: 1 },
  { value: 'bar', score: 2 },
  { value: 'baz', score: 42 },
  { value: 'habanero', score: 68 },
  { value: 'bam', score: 1000 },
  { value: 'burrito', score: 9000 },
  { value: 'taco', score: 90210 },
  { value: 'jalapeno', score: 1_000_000 },
];
const DESCENDING = [...ASCENDING].reverse();
const TRIO = { foo: 42, bar: 84, baz: 90210 };
const ELEMENTS = { foo: 42, bar: 42, baz: 42, apple: 1, banana: 1, water: 555, air: 555, earth: 555, fire: 555 };

const present = async (set: string) =>
  (await client().sortedSetFetchByRank(cacheName(), set)) instanceof CacheSortedSetFetch.Hit;

async function fetchedByRank(set: string): Promise<CacheSortedSetFetch.Hit> {
  const response = await client().sortedSetFetchByRank(cacheName(), set);
  expect(response, response.toString()).toBeInstanceOf(CacheSortedSetFetch.Hit);
  return response as CacheSortedSetFetch.Hit;
}

async function put(set: string, elements: Parameters<typeof shared.client.sortedSetPutElements>[2]): Promise<void> {
  const response = await client().sortedSetPutElements(cacheName(), set, elements);
  expect(response, response.toString()).toBeInstanceOf(CacheSortedSetPutElements.Success);
}

/** An SDK argument check: the error, its message and toString. */
function refusedWith(response: CacheSortedSetFetch.Response, message: string): void {
  expect(response).toBeInstanceOf(CacheSortedSetFetch.Error);
  const error = response as CacheSortedSetFetch.Error;
  expect(error.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  expect(error.message()).toBe(`Invalid argument passed to Momento client: ${message}`);
  expect(error.toString()).toBe(`Invalid argument passed to Momento client: ${message}`);
}

function ttlOf(write: (set: string, ttl: import('@gomomento/sdk').CollectionTtl) => Promise<unknown>) {
  hasCollectionTtl(write, present, client, cacheName);
}

it('is good at logic', () => {
  expect(ASCENDING).toHaveLength(Object.keys(SPICY).length);
});

describe('#sortedSetFetchByRank', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetFetchByRank(cache, set), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetFetchByRank(cacheName(), set));

  it('should return expected toString value with sortedSetFetch', async () => {
    const set = uuid();
    await client().sortedSetPutElement(cacheName(), set, 'a', 42);
    expect((await fetchedByRank(set)).toString()).toBe('Hit: valueArrayStringElements: a: 42');
  });

  it('should provide value accessors for string and byte elements', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        ['foo', 90210],
        ['bar', 42],
      ]),
    );
    const hit = await fetchedByRank(set);
    const strings = [
      { value: 'bar', score: 42 },
      { value: 'foo', score: 90210 },
    ];
    expect(hit.valueArrayStringElements()).toEqual(strings);
    expect(hit.valueArrayUint8Elements()).toEqual([
      { value: bytesOf('bar'), score: 42 },
      { value: bytesOf('foo'), score: 90210 },
    ]);
    expect(hit.valueArray()).toEqual(strings);
  });

  describe('when fetching with ranges and order', () => {
    const set = uuid();
    beforeAll(() => put(set, SPICY));

    const fetches: [string, Parameters<typeof shared.client.sortedSetFetchByRank>[2], typeof ASCENDING][] = [
      ['should fetch only the specified range if start rank is specified', { startRank: 4 }, ASCENDING.slice(4)],
      ['should fetch only the specified range if end rank is specified', { endRank: 3 }, ASCENDING.slice(0, 3)],
      [
        'should fetch only the specified range if both start and end rank are specified',
        { startRank: 1, endRank: 5 },
        ASCENDING.slice(1, 5),
      ],
      ['should return an empty list if start rank is out of bounds', { startRank: 10 }, []],
      [
        'should return all the remaining elements if end rank is out of bounds',
        { startRank: 5, endRank: 100 },
        ASCENDING.slice(5),
      ],
      ['should return the last elements if start rank is negative', { startRank: -5 }, ASCENDING.slice(-5)],
      ['should return all but the last elements if end rank is negative', { endRank: -2 }, ASCENDING.slice(0, -2)],
      [
        'should return a range from the end of the set if both start and end rank are negative',
        { startRank: -5, endRank: -2 },
        ASCENDING.slice(-5, -2),
      ],
      [
        'should fetch in ascending order if order is explicitly specified',
        { order: SortedSetOrder.Ascending },
        ASCENDING,
      ],
      ['should fetch in descending order if specified', { order: SortedSetOrder.Descending }, DESCENDING],
      [
        'should support descending order with a start rank',
        { order: SortedSetOrder.Descending, startRank: 5 },
        DESCENDING.slice(5),
      ],
      [
        'should support descending order with a end rank',
        { order: SortedSetOrder.Descending, endRank: 3 },
        DESCENDING.slice(0, 3),
      ],
      [
        'should support descending order with a start and end rank',
        { order: SortedSetOrder.Descending, startRank: 3, endRank: 5 },
        DESCENDING.slice(3, 5),
      ],
    ];
    for (const [name, options, expected] of fetches)
      it(name, async () => {
        const response = await client().sortedSetFetchByRank(cacheName(), set, options);
        expect(response, response.toString()).toBeInstanceOf(CacheSortedSetFetch.Hit);
        expect((response as CacheSortedSetFetch.Hit).valueArray()).toEqual(expected);
      });

    it('should error if start rank is greater than end rank', async () => {
      refusedWith(
        await client().sortedSetFetchByRank(cacheName(), set, {
          order: SortedSetOrder.Descending,
          startRank: 5,
          endRank: 3,
        }),
        'start rank must be less than end rank',
      );
    });

    it('should error if negative start rank is less than negative end rank', async () => {
      refusedWith(
        await client().sortedSetFetchByRank(cacheName(), set, {
          order: SortedSetOrder.Descending,
          startRank: -3,
          endRank: -5,
        }),
        'negative start rank must be less than negative end rank',
      );
    });
  });

  it('should return a miss if the sorted set does not exist', async () => {
    const set = uuid();
    expect(await client().sortedSetFetchByRank(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Miss);
    await put(
      set,
      new Map([
        [uuid(), 1],
        [uuid(), 2],
        [uuid(), 3],
      ]),
    );
    await fetchedByRank(set);
    expect(await client().delete(cacheName(), set)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().sortedSetFetchByRank(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Miss);
  });

  it('should support happy path for fetchByRank via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, SPICY);
    const response = await cache.sortedSetFetchByRank(set, { startRank: 1, endRank: 5 });
    expect((response as CacheSortedSetFetch.Hit).valueArray()).toEqual(ASCENDING.slice(1, 5));
  });

  it('should support accessing value for a sortedSetFetchByRank Hit without instanceof check', async () => {
    const set = uuid();
    await put(set, SPICY);
    const hit = await client().sortedSetFetchByRank(cacheName(), set, { startRank: 1, endRank: 5 });
    expect(hit.value()).toEqual(ASCENDING.slice(1, 5));
    expect((hit as CacheSortedSetFetch.Hit).valueArray()).toEqual(ASCENDING.slice(1, 5));
    const miss = await client().sortedSetFetchByRank(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheSortedSetFetch.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#sortedSetFetchByScore', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetFetchByScore(cache, set), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetFetchByScore(cacheName(), set));

  it('should return expected toString value', async () => {
    const set = uuid();
    await client().sortedSetPutElement(cacheName(), set, 'a', 42);
    const response = await client().sortedSetFetchByScore(cacheName(), set);
    expect(response.toString()).toBe('Hit: valueArrayStringElements: a: 42');
  });

  it('should provide value accessors for string and byte elements', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        ['foo', 90210],
        ['bar', 42],
      ]),
    );
    const hit = (await client().sortedSetFetchByScore(cacheName(), set)) as CacheSortedSetFetch.Hit;
    expect(hit).toBeInstanceOf(CacheSortedSetFetch.Hit);
    expect(hit.valueArrayStringElements()).toEqual([
      { value: 'bar', score: 42 },
      { value: 'foo', score: 90210 },
    ]);
    expect(hit.valueArrayUint8Elements()).toEqual([
      { value: bytesOf('bar'), score: 42 },
      { value: bytesOf('foo'), score: 90210 },
    ]);
  });

  describe('when fetching with minScore, maxScore, ranges and order', () => {
    const set = uuid();
    beforeAll(() => put(set, SPICY));
    const from100 = ASCENDING.slice(4);

    const fetches: [string, Parameters<typeof shared.client.sortedSetFetchByScore>[2], typeof ASCENDING][] = [
      ['should fetch only the matching elements if minScore is specified', { minScore: 100 }, from100],
      ['should fetch only the matching elements if maxScore is specified', { maxScore: 1000 }, ASCENDING.slice(0, 5)],
      [
        'should fetch only the matching elements if minScore and maxScore are specified',
        { minScore: 100, maxScore: 10_000 },
        ASCENDING.slice(4, 6),
      ],
      ['should fetch an empty list if minScore is out of range', { minScore: 2_000_000 }, []],
      ['should fetch an empty list if maxScore is out of range', { maxScore: 0 }, []],
      ['should fetch the whole set if minScore is less than the minimum score', { minScore: 0 }, ASCENDING],
      ['should fetch the whole set if maxScore is greater than the maximum score', { maxScore: 2_000_000 }, ASCENDING],
      ['should fetch starting from the offset if specified', { minScore: 100, offset: 2 }, from100.slice(2)],
      [
        'should fetch the specified number of results if count is specified',
        { minScore: 100, count: 2 },
        from100.slice(0, 2),
      ],
      [
        'should fetch the specified number of results from the offset if both count and offset are specified',
        { minScore: 10, offset: 2, count: 3 },
        ASCENDING.slice(4, 7),
      ],
      [
        'should return an empty list if offset is greater than the size of the results',
        { minScore: 100, offset: 5 },
        [],
      ],
      [
        'should return all remaining results if count is greater than the number of available results',
        { minScore: 100, count: 100 },
        from100,
      ],
      [
        'should return results in ascending order if order is explicitly set to ascending',
        { order: SortedSetOrder.Ascending, minScore: 100 },
        from100,
      ],
      [
        'should return results in descending order if order is set to descending',
        { order: SortedSetOrder.Descending, minScore: 100 },
        [...from100].reverse(),
      ],
      [
        'should support offset and count when returning results in descending order',
        { order: SortedSetOrder.Descending, minScore: 20, maxScore: 100_000, offset: 2, count: 2 },
        [
          { value: 'bam', score: 1000 },
          { value: 'habanero', score: 68 },
        ],
      ],
    ];
    for (const [name, options, expected] of fetches)
      it(name, async () => {
        const response = await client().sortedSetFetchByScore(cacheName(), set, options);
        expect(response, response.toString()).toBeInstanceOf(CacheSortedSetFetch.Hit);
        expect((response as CacheSortedSetFetch.Hit).valueArray()).toEqual(expected);
      });

    it('should error if minScore is greater than maxScore', async () => {
      refusedWith(
        await client().sortedSetFetchByScore(cacheName(), set, { minScore: 1000, maxScore: 100 }),
        'minScore must be less than or equal to maxScore',
      );
    });

    it('should error if count is negative', async () => {
      refusedWith(
        await client().sortedSetFetchByScore(cacheName(), set, { minScore: 100, count: -2 }),
        'count must be strictly positive (> 0)',
      );
    });

    it('should error if offset is negative', async () => {
      refusedWith(
        await client().sortedSetFetchByScore(cacheName(), set, { minScore: 100, offset: -2 }),
        'offset must be non-negative (>= 0)',
      );
    });
  });

  it('should return a miss if the sorted set does not exist', async () => {
    const set = uuid();
    expect(await client().sortedSetFetchByScore(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Miss);
    await put(
      set,
      new Map([
        [uuid(), 1],
        [uuid(), 2],
      ]),
    );
    expect(await client().sortedSetFetchByScore(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Hit);
    expect(await client().delete(cacheName(), set)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().sortedSetFetchByScore(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Miss);
  });

  it('should support happy path for fetchByScore via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, SPICY);
    const response = await cache.sortedSetFetchByScore(set, { minScore: 100, maxScore: 10_000 });
    expect((response as CacheSortedSetFetch.Hit).valueArray()).toEqual(ASCENDING.slice(4, 6));
  });

  it('should support accessing value for sortedSetFetchByScore Hit without instanceof check', async () => {
    const set = uuid();
    await put(set, SPICY);
    const hit = await client().sortedSetFetchByScore(cacheName(), set, { minScore: 100, maxScore: 10_000 });
    expect(hit.value()).toEqual(ASCENDING.slice(4, 6));
    const miss = await client().sortedSetFetchByScore(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheSortedSetFetch.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#sortedSetGetRank', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetGetRank(cache, set, uuid()), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetGetRank(cacheName(), set, uuid()));

  it('retrieves rank for a value that exists', async () => {
    const set = uuid();
    await put(set, TRIO);
    const rank = async (value: string, order?: SortedSetOrder) => {
      const response = await client().sortedSetGetRank(cacheName(), set, value, order === undefined ? {} : { order });
      expect(response, response.toString()).toBeInstanceOf(CacheSortedSetGetRank.Hit);
      return (response as CacheSortedSetGetRank.Hit).rank();
    };
    expect(await rank('bar')).toBe(1);
    expect(await rank('baz')).toBe(2);
    expect(await rank('foo')).toBe(0);
    expect(await rank('foo', SortedSetOrder.Descending)).toBe(2);
    expect(await rank('foo', SortedSetOrder.Ascending)).toBe(0);
  });

  it('returns a miss for a value that does not exist', async () => {
    const set = uuid();
    await put(set, TRIO);
    expect(await client().sortedSetGetRank(cacheName(), set, 'taco')).toBeInstanceOf(CacheSortedSetGetRank.Miss);
  });

  it('should support happy path for sortedSetGetRank via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(((await cache.sortedSetGetRank(set, 'bar')) as CacheSortedSetGetRank.Hit).rank()).toBe(1);
  });
});

describe('#sortedSetGetScore', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetGetScore(cache, set, uuid()), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetGetScore(cacheName(), set, uuid()));

  it('retrieves score for a value that exists', async () => {
    const set = uuid();
    await put(set, TRIO);
    expect(((await client().sortedSetGetScore(cacheName(), set, 'bar')) as CacheSortedSetGetScore.Hit).score()).toBe(
      84,
    );
    expect(((await client().sortedSetGetScore(cacheName(), set, 'baz')) as CacheSortedSetGetScore.Hit).score()).toBe(
      90210,
    );
  });

  it('returns a miss for a value that does not exist', async () => {
    const set = uuid();
    await put(set, TRIO);
    expect(await client().sortedSetGetScore(cacheName(), set, 'taco')).toBeInstanceOf(CacheSortedSetGetScore.Miss);
  });

  it('should support happy path for sortedSetGetScore via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(((await cache.sortedSetGetScore(set, 'bar')) as CacheSortedSetGetScore.Hit).score()).toBe(84);
  });

  it('should support accessing value for CacheSortedSetGetScore.Hit without instanceof check', async () => {
    const set = uuid();
    await put(set, TRIO);
    const hit = await client().sortedSetGetScore(cacheName(), set, 'bar');
    expect(hit).toBeInstanceOf(CacheSortedSetGetScore.Hit);
    expect(hit.score()).toBe(84);
    const miss = await client().sortedSetGetScore(cacheName(), uuid(), 'bar');
    expect(miss).toBeInstanceOf(CacheSortedSetGetScore.Miss);
    expect(miss.score()).toBeUndefined();
  });
});

describe('#sortedSetGetScores', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetGetScores(cache, set, [uuid()]), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetGetScores(cacheName(), set, [uuid()]));

  it('retrieves scores for values that exist', async () => {
    const set = uuid();
    await put(set, TRIO);
    const hit = await client().sortedSetGetScores(cacheName(), set, ['bar', 'baz']);
    expect((hit as CacheSortedSetGetScores.Hit).valueRecord()).toEqual({ bar: 84, baz: 90210 });
  });

  it('returns partial record if some values do not exist', async () => {
    const set = uuid();
    await put(set, TRIO);
    const hit = await client().sortedSetGetScores(cacheName(), set, ['bar', 'taco']);
    expect(hit).toBeInstanceOf(CacheSortedSetGetScores.Hit);
    expect((hit as CacheSortedSetGetScores.Hit).valueRecord()).toEqual({ bar: 84 });
  });

  it('should support happy path for sortedSetGetScores via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    const hit = await cache.sortedSetGetScores(set, ['bar', 'baz']);
    expect((hit as CacheSortedSetGetScores.Hit).valueRecord()).toEqual({ bar: 84, baz: 90210 });
  });

  it('should support accessing value for CacheSortedSetGetScores.Hit without instanceof check', async () => {
    const set = uuid();
    await put(set, TRIO);
    const hit = await client().sortedSetGetScores(cacheName(), set, ['bar', 'baz']);
    expect(hit.value()).toEqual({ bar: 84, baz: 90210 });
    const miss = await client().sortedSetGetScores(cacheName(), uuid(), ['foo', 'bar']);
    expect(miss).toBeInstanceOf(CacheSortedSetGetScores.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#sortedSetIncrementScore', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetIncrementScore(cache, set, uuid()), cacheName);
  ttlOf((set, ttl) => client().sortedSetIncrementScore(cacheName(), set, 'v', 5, { ttl }));

  it('creates sorted set and element if they do not exist', async () => {
    const set = uuid();
    expect(await client().sortedSetFetchByRank(cacheName(), set)).toBeInstanceOf(CacheSortedSetFetch.Miss);
    const first = await client().sortedSetIncrementScore(cacheName(), set, 'foo');
    expect((first as CacheSortedSetIncrementScore.Success).score()).toBe(1);
    expect((await fetchedByRank(set)).valueArray()).toEqual([{ value: 'foo', score: 1 }]);
    const second = await client().sortedSetIncrementScore(cacheName(), set, 'bar', 42);
    expect((second as CacheSortedSetIncrementScore.Success).score()).toBe(42);
    expect((await fetchedByRank(set)).valueArray()).toEqual([
      { value: 'foo', score: 1 },
      { value: 'bar', score: 42 },
    ]);
  });

  for (const [verb, amount, expected] of [
    ['increments', 10, 90220],
    ['decrements', -10, 90200],
  ] as const) {
    it(`${verb} an existing field by the expected amount for a string value`, async () => {
      const set = uuid();
      await client().sortedSetPutElement(cacheName(), set, 'foo', 90210);
      const response = await client().sortedSetIncrementScore(cacheName(), set, 'foo', amount);
      expect(response, response.toString()).toBeInstanceOf(CacheSortedSetIncrementScore.Success);
      expect((response as CacheSortedSetIncrementScore.Success).score()).toBe(expected);
      expect((await fetchedByRank(set)).valueArray()).toEqual([{ value: 'foo', score: expected }]);
    });

    it(`${verb === 'increments' ? 'increments' : 'increments (by a negative amount)'} an existing field by the expected amount for a bytes value`, async () => {
      const set = uuid();
      const value = bytesOf('foo');
      await client().sortedSetPutElement(cacheName(), set, value, 90210);
      const response = await client().sortedSetIncrementScore(cacheName(), set, value, amount);
      expect((response as CacheSortedSetIncrementScore.Success).score()).toBe(expected);
      expect((await fetchedByRank(set)).valueArrayUint8Elements()).toEqual([{ value, score: expected }]);
    });
  }

  it('should support happy path for sortedSetIncrementScore via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(((await cache.sortedSetIncrementScore(set, 'bar')) as CacheSortedSetIncrementScore.Success).score()).toBe(
      85,
    );
  });

  it('should support accessing value for SortedSetIncrementScore.Success without instanceof check', async () => {
    const set = uuid();
    await put(set, TRIO);
    const response = await client().sortedSetIncrementScore(cacheName(), set, 'bar');
    expect(response).toBeInstanceOf(CacheSortedSetIncrementScore.Success);
    expect(response.score()).toBe(85);
  });
});

describe('#sortedSetRemoveElement', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetRemoveElement(cache, set, uuid()), cacheName);

  it('should remove a string value', async () => {
    const set = uuid();
    await put(set, { foo: 21, bar: 42 });
    expect(await client().sortedSetRemoveElement(cacheName(), set, 'foo')).toBeInstanceOf(
      CacheSortedSetRemoveElement.Success,
    );
    expect((await fetchedByRank(set)).valueArray()).toEqual([{ value: 'bar', score: 42 }]);
  });

  it('should remove a bytes value', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        [bytesOf('foo'), 21],
        [bytesOf('bar'), 42],
      ]),
    );
    expect(await client().sortedSetRemoveElement(cacheName(), set, bytesOf('foo'))).toBeInstanceOf(
      CacheSortedSetRemoveElement.Success,
    );
    expect((await fetchedByRank(set)).valueArrayUint8Elements()).toEqual([{ value: bytesOf('bar'), score: 42 }]);
  });

  it("should do nothing for a value that doesn't exist", async () => {
    const set = uuid();
    await put(set, { foo: 21, bar: 42 });
    expect(await client().sortedSetRemoveElement(cacheName(), set, 'taco')).toBeInstanceOf(
      CacheSortedSetRemoveElement.Success,
    );
    expect((await fetchedByRank(set)).valueArray()).toEqual([
      { value: 'foo', score: 21 },
      { value: 'bar', score: 42 },
    ]);
  });

  it('should support happy path for sortedSetRemoveElement via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(await cache.sortedSetRemoveElement(set, 'bar')).toBeInstanceOf(CacheSortedSetRemoveElement.Success);
    expect(((await cache.sortedSetFetchByRank(set)) as CacheSortedSetFetch.Hit).valueArray()).toEqual([
      { value: 'foo', score: 42 },
      { value: 'baz', score: 90210 },
    ]);
  });
});

describe('#sortedSetRemoveElements', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetRemoveElements(cache, set, ['foo']), cacheName);

  it('should remove string values', async () => {
    const set = uuid();
    await put(set, { foo: 21, bar: 42, baz: 84 });
    expect(await client().sortedSetRemoveElements(cacheName(), set, ['foo', 'baz'])).toBeInstanceOf(
      CacheSortedSetRemoveElements.Success,
    );
    expect((await fetchedByRank(set)).valueArray()).toEqual([{ value: 'bar', score: 42 }]);
  });

  it('should remove bytes values', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        [bytesOf('foo'), 21],
        [bytesOf('bar'), 42],
        [bytesOf('baz'), 84],
      ]),
    );
    expect(await client().sortedSetRemoveElements(cacheName(), set, [bytesOf('foo'), bytesOf('baz')])).toBeInstanceOf(
      CacheSortedSetRemoveElements.Success,
    );
    expect((await fetchedByRank(set)).valueArrayUint8Elements()).toEqual([{ value: bytesOf('bar'), score: 42 }]);
  });

  it("should do nothing for values that don't exist", async () => {
    const set = uuid();
    await put(set, { foo: 21, bar: 42, baz: 84 });
    expect(await client().sortedSetRemoveElements(cacheName(), set, ['taco', 'habanero'])).toBeInstanceOf(
      CacheSortedSetRemoveElements.Success,
    );
    expect((await fetchedByRank(set)).valueArray()).toEqual([
      { value: 'foo', score: 21 },
      { value: 'bar', score: 42 },
      { value: 'baz', score: 84 },
    ]);
  });

  it('should support happy path for sortedSetRemoveElements via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(await cache.sortedSetRemoveElements(set, ['bar', 'baz'])).toBeInstanceOf(
      CacheSortedSetRemoveElements.Success,
    );
    expect(((await cache.sortedSetFetchByRank(set)) as CacheSortedSetFetch.Hit).valueArray()).toEqual([
      { value: 'foo', score: 42 },
    ]);
  });
});

describe('#sortedSetPutElement', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetPutElement(cache, set, uuid(), 42), cacheName);
  ttlOf((set, ttl) => client().sortedSetPutElement(cacheName(), set, 'v', 42, { ttl }));

  it('should store an element with a string value', async () => {
    const set = uuid();
    expect(await client().sortedSetPutElement(cacheName(), set, 'foo', 42)).toBeInstanceOf(
      CacheSortedSetPutElement.Success,
    );
    expect((await fetchedByRank(set)).valueArray()).toEqual([{ value: 'foo', score: 42 }]);
  });

  it('should store an element with a bytes value', async () => {
    const set = uuid();
    expect(await client().sortedSetPutElement(cacheName(), set, bytesOf('foo'), 42)).toBeInstanceOf(
      CacheSortedSetPutElement.Success,
    );
    expect((await fetchedByRank(set)).valueArrayUint8Elements()).toEqual([{ value: bytesOf('foo'), score: 42 }]);
  });

  it('should support happy path for sortedSetPutElement via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(await cache.sortedSetPutElement(set, 'bam', 9000)).toBeInstanceOf(CacheSortedSetPutElement.Success);
    expect(((await cache.sortedSetFetchByRank(set)) as CacheSortedSetFetch.Hit).valueArray()).toEqual([
      { value: 'foo', score: 42 },
      { value: 'bar', score: 84 },
      { value: 'bam', score: 9000 },
      { value: 'baz', score: 90210 },
    ]);
  });
});

describe('#sortedSetPutElements', () => {
  validatesNames(
    'sorted set',
    (cache, set) => client().sortedSetPutElements(cache, set, new Map([[uuid(), 42]])),
    cacheName,
  );
  ttlOf((set, ttl) => client().sortedSetPutElements(cacheName(), set, new Map([['v', 42]]), { ttl }));

  const FOO_BAR = [
    { value: 'foo', score: 42 },
    { value: 'bar', score: 84 },
  ];
  for (const [how, elements] of [
    [
      'Map',
      new Map([
        ['foo', 42],
        ['bar', 84],
      ]),
    ],
    ['Record', { foo: 42, bar: 84 }],
    [
      'Array',
      [
        ['foo', 42],
        ['bar', 84],
      ] as [string, number][],
    ],
  ] as const)
    it(`should store elements with a string values passed via ${how}`, async () => {
      const set = uuid();
      await put(set, elements);
      expect((await fetchedByRank(set)).valueArray()).toEqual(FOO_BAR);
    });

  it('should store elements with a bytes values passed via Map', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        [bytesOf('foo'), 42],
        [bytesOf('bar'), 84],
      ]),
    );
    expect((await fetchedByRank(set)).valueArrayUint8Elements()).toEqual([
      { value: bytesOf('foo'), score: 42 },
      { value: bytesOf('bar'), score: 84 },
    ]);
  });

  it('should support happy path for sortedSetPutElements via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(await cache.sortedSetPutElements(set, { bam: 9000, taco: 1_000_000 })).toBeInstanceOf(
      CacheSortedSetPutElements.Success,
    );
    expect(((await cache.sortedSetFetchByRank(set)) as CacheSortedSetFetch.Hit).valueArray()).toEqual([
      { value: 'foo', score: 42 },
      { value: 'bar', score: 84 },
      { value: 'bam', score: 9000 },
      { value: 'baz', score: 90210 },
      { value: 'taco', score: 1_000_000 },
    ]);
  });
});

describe('#sortedSetLength', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetLength(cache, set), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetLength(cacheName(), set));

  it('returns the length if the sorted set exists', async () => {
    const set = uuid();
    await put(set, TRIO);
    expect(((await client().sortedSetLength(cacheName(), set)) as CacheSortedSetLength.Hit).length()).toBe(3);
  });

  it('should support happy path for sortedSetLength via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    expect(((await cache.sortedSetLength(set)) as CacheSortedSetLength.Hit).length()).toBe(3);
  });
});

describe('#sortedSetLengthByScore', () => {
  validatesNames('sorted set', (cache, set) => client().sortedSetLength(cache, set), cacheName);
  missesWhenAbsent('sorted set', (set) => client().sortedSetLength(cacheName(), set));

  const negative = Object.fromEntries(Object.entries(ELEMENTS).map(([k, v]) => [k, -v]));
  const lengths: [
    string,
    Record<string, number>,
    Parameters<typeof shared.client.sortedSetLengthByScore>[2],
    number,
  ][] = [
    ['gets the length when each score has only one element', TRIO, undefined, 3],
    ['gets the length when only one score has multiple elements', { foo: 42, bar: 42, baz: 42 }, undefined, 3],
    ['gets the length when multiple scores have varying number of elements', ELEMENTS, undefined, 9],
    ['gets the length for scores between a lower bound and undefined upper bound', ELEMENTS, { minScore: 42 }, 7],
    ['gets the length for scores between undefined lower bound and an upper bound', ELEMENTS, { maxScore: 42 }, 5],
    [
      'gets the length for scores between zero lower bound and an upper bound',
      ELEMENTS,
      { minScore: 0, maxScore: 100 },
      5,
    ],
    [
      'gets the length for scores between a lower bound and a zero upper bound',
      negative,
      { minScore: -100, maxScore: 0 },
      5,
    ],
    ['gets the length for scores between lower and upper bound', ELEMENTS, { minScore: 1, maxScore: 42 }, 5],
  ];
  for (const [name, elements, range, length] of lengths)
    it(name, async () => {
      const set = uuid();
      await put(set, elements);
      const response = await client().sortedSetLengthByScore(cacheName(), set, range);
      expect(response, response.toString()).toBeInstanceOf(CacheSortedSetLengthByScore.Hit);
      expect((response as CacheSortedSetLengthByScore.Hit).length()).toBe(length);
    });

  it('should support happy path for sortedSetLengthByScore via curried cache via ICache interface', async () => {
    const set = uuid();
    const cache = client().cache(cacheName());
    await cache.sortedSetPutElements(set, TRIO);
    const response = await cache.sortedSetLengthByScore(set, { minScore: 50, maxScore: 1000 });
    expect((response as CacheSortedSetLengthByScore.Hit).length()).toBe(1);
  });
});

describe('test deleting sorted set', () => {
  it('returns a miss for a deleted sorted set', async () => {
    const set = uuid();
    await put(
      set,
      new Map([
        ['foo', 42],
        ['bar', 84],
      ]),
    );
    expect(await client().delete(cacheName(), set)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().sortedSetGetScore(cacheName(), set, 'foo')).toBeInstanceOf(CacheSortedSetGetScore.Miss);
  });
});

describe('#sortedSetUnionStore', () => {
  const sources = [
    { sortedSetName: 'set1', weight: 1.0 },
    { sortedSetName: 'set2', weight: 2.5 },
  ];
  const overlapping = [
    { sortedSetName: 'set3', weight: 1.0 },
    { sortedSetName: 'set4', weight: 2.5 },
  ];
  const FIELDS = ['foo', 'bar', 'abc', 'def'];
  beforeAll(async () => {
    await put('set1', { foo: 1, bar: 2 });
    await put('set2', { abc: 3, def: 4 });
    await put('set3', { foo: 1, bar: 3 });
    await put('set4', { abc: 2, bar: 2 });
  });

  /** Stores the union at a new name: its length and the scores it holds. */
  async function union(
    from: { sortedSetName: string; weight: number }[],
    options?: Parameters<typeof shared.client.sortedSetUnionStore>[3],
  ): Promise<{ length: number; scores: unknown }> {
    const destination = uuid();
    const response = await client().sortedSetUnionStore(cacheName(), destination, from, options);
    expect(response, response.toString()).toBeInstanceOf(CacheSortedSetUnionStore.Success);
    const scores = await client().sortedSetGetScores(cacheName(), destination, FIELDS);
    expect(scores, scores.toString()).toBeInstanceOf(CacheSortedSetGetScores.Hit);
    return { length: (response as CacheSortedSetUnionStore.Success).length(), scores: scores.value() };
  }

  validatesNames('sorted set', (cache, set) => client().sortedSetUnionStore(cache, set, sources), cacheName);

  it('should store all distinct elements from the source sets', async () => {
    expect(await union(sources)).toEqual({ length: 4, scores: { foo: 1, bar: 2, abc: 7.5, def: 10 } });
  });

  it('uses specified aggregate function to combine weighted scores for elements existing in multiple source sets', async () => {
    expect(await union(overlapping, { aggregate: SortedSetAggregate.SUM })).toEqual({
      length: 3,
      scores: { foo: 1, bar: 8, abc: 5 },
    });
    expect(await union(overlapping, { aggregate: SortedSetAggregate.MIN })).toEqual({
      length: 3,
      scores: { foo: 1, bar: 3, abc: 5 },
    });
    expect(await union(overlapping, { aggregate: SortedSetAggregate.MAX })).toEqual({
      length: 3,
      scores: { foo: 1, bar: 5, abc: 5 },
    });
  });

  it('uses SUM function as default to combine weighted scores for elements existing in multiple source sets', async () => {
    expect(await union(overlapping)).toEqual({ length: 3, scores: { foo: 1, bar: 8, abc: 5 } });
  });

  it('returns 0 scores for 0 weight', async () => {
    const zero = sources.map((s) => ({ ...s, weight: 0 }));
    expect(await union(zero)).toEqual({ length: 4, scores: { foo: 0, bar: 0, abc: 0, def: 0 } });
  });

  it('returns 0 score for 0 weights with overlap', async () => {
    const zero = overlapping.map((s) => ({ ...s, weight: 0 }));
    expect(await union(zero)).toEqual({ length: 3, scores: { foo: 0, bar: 0, abc: 0 } });
  });

  it('stores union of sets with negative weight', async () => {
    const from = [
      { sortedSetName: 'set1', weight: 1 },
      { sortedSetName: 'set2', weight: -1 },
    ];
    expect(await union(from)).toEqual({ length: 4, scores: { foo: 1, bar: 2, abc: -3, def: -4 } });
  });

  it('stores union of sets with negative weight with overlap', async () => {
    const from = [
      { sortedSetName: 'set3', weight: 1 },
      { sortedSetName: 'set4', weight: -1 },
    ];
    expect(await union(from)).toEqual({ length: 3, scores: { foo: 1, bar: 1, abc: -2 } });
  });

  it('errors with invalid weight', async () => {
    const response = await client().sortedSetUnionStore(cacheName(), uuid(), [
      { sortedSetName: 'set1', weight: Infinity },
      { sortedSetName: 'set2', weight: Infinity },
    ]);
    expect(response).toBeInstanceOf(CacheSortedSetUnionStore.Error);
    expect((response as CacheSortedSetUnionStore.Error).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    expect((response as CacheSortedSetUnionStore.Error).message()).toBe(
      'Invalid argument passed to Momento client: weight must be a finite number',
    );
  });

  it('errors when no source is provided', async () => {
    const response = await client().sortedSetUnionStore(cacheName(), uuid(), []);
    expect(response).toBeInstanceOf(CacheSortedSetUnionStore.Error);
    expect((response as CacheSortedSetUnionStore.Error).errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });

  it('passes when one source is provided', async () => {
    const destination = uuid();
    const response = await client().sortedSetUnionStore(cacheName(), destination, [
      { sortedSetName: 'set1', weight: 1 },
    ]);
    expect((response as CacheSortedSetUnionStore.Success).length()).toBe(2);
    const scores = await client().sortedSetGetScores(cacheName(), destination, ['foo', 'bar']);
    expect(scores.value()).toEqual({ foo: 1, bar: 2 });
  });
});
