import {
  CacheDelete,
  CacheDictionaryFetch,
  CacheDictionaryGetField,
  CacheDictionaryGetFields,
  CacheDictionaryIncrement,
  CacheDictionaryLength,
  CacheDictionaryRemoveField,
  CacheDictionaryRemoveFields,
  CacheDictionarySetField,
  CacheDictionarySetFields,
  CollectionTtl,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { describe, expect, it } from 'vitest';
import { bytesOf, hasCollectionTtl, missesWhenAbsent, uuid, validatesNames } from './collections.js';
import { fileCache } from './sdk.js';

// The cases of the provider's shared dictionary suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/dictionary.ts), rewritten against the suite's CLI
// emulator with the SDK unchanged.

const shared = fileCache();
const client = () => shared.client;
const cacheName = () => shared.cacheName;

const hasField = async (dictionary: string, field: string | Uint8Array) =>
  (await client().dictionaryGetField(cacheName(), dictionary, field)) instanceof CacheDictionaryGetField.Hit;
const present = async (dictionary: string) =>
  (await client().dictionaryFetch(cacheName(), dictionary)) instanceof CacheDictionaryFetch.Hit;

function missesWhenFieldAbsent(call: (dictionary: string, field: string | Uint8Array) => Promise<unknown>): void {
  for (const [kind, field] of [
    ['string', () => uuid()],
    ['byte', () => bytesOf(uuid())],
  ] as const)
    it(`misses when a ${kind} field does not exist`, async () => {
      const dictionary = uuid();
      expect(await client().dictionarySetField(cacheName(), dictionary, uuid(), uuid())).toBeInstanceOf(
        CacheDictionarySetField.Success,
      );
      expect(((await call(dictionary, field())) as { is_miss?: boolean }).is_miss).toBe(true);
    });
}

describe('#dictionaryFetch', () => {
  validatesNames('dictionary', (cache, dictionary) => client().dictionaryFetch(cache, dictionary), cacheName);
  missesWhenAbsent('dictionary', (dictionary) => client().dictionaryFetch(cacheName(), dictionary));

  it('should return expected toString value with dictionaryFetch', async () => {
    const dictionary = uuid();
    await client().dictionarySetField(cacheName(), dictionary, 'a', 'b');
    const response = await client().dictionaryFetch(cacheName(), dictionary);
    expect(response).toBeInstanceOf(CacheDictionaryFetch.Hit);
    expect(response.toString()).toBe('Hit: valueDictionaryStringString: a: b');
  });

  it('should provide value accessors for string fields with dictionaryFetch', async () => {
    const dictionary = uuid();
    const [value1, value2] = [uuid(), uuid()];
    await client().dictionarySetFields(
      cacheName(),
      dictionary,
      new Map([
        ['foo', value1],
        ['bar', value2],
      ]),
    );
    const hit = (await client().dictionaryFetch(cacheName(), dictionary)) as CacheDictionaryFetch.Hit;
    expect(hit).toBeInstanceOf(CacheDictionaryFetch.Hit);
    const strings = new Map([
      ['foo', value1],
      ['bar', value2],
    ]);
    expect(hit.valueMapStringUint8Array()).toEqual(
      new Map([
        ['foo', bytesOf(value1)],
        ['bar', bytesOf(value2)],
      ]),
    );
    expect(hit.valueMapStringString()).toEqual(strings);
    expect(hit.valueMap()).toEqual(strings);
    expect(hit.valueRecordStringUint8Array()).toEqual({ foo: bytesOf(value1), bar: bytesOf(value2) });
    expect(hit.valueRecordStringString()).toEqual({ foo: value1, bar: value2 });
    expect(hit.valueRecord()).toEqual({ foo: value1, bar: value2 });
  });

  it('should do nothing with dictionaryFetch if dictionary does not exist', async () => {
    const dictionary = uuid();
    expect(await client().dictionaryFetch(cacheName(), dictionary)).toBeInstanceOf(CacheDictionaryFetch.Miss);
    expect(await client().delete(cacheName(), dictionary)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().dictionaryFetch(cacheName(), dictionary)).toBeInstanceOf(CacheDictionaryFetch.Miss);
  });

  it('should delete with dictionaryFetch if dictionary exists', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(
      cacheName(),
      dictionary,
      new Map([
        [uuid(), uuid()],
        [uuid(), uuid()],
        [uuid(), uuid()],
      ]),
    );
    expect(await client().dictionaryFetch(cacheName(), dictionary)).toBeInstanceOf(CacheDictionaryFetch.Hit);
    expect(await client().delete(cacheName(), dictionary)).toBeInstanceOf(CacheDelete.Success);
    expect(await client().dictionaryFetch(cacheName(), dictionary)).toBeInstanceOf(CacheDictionaryFetch.Miss);
  });

  it('should support happy path for dictionaryFetch via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B' });
    const response = await cache.dictionaryFetch(dictionary);
    expect((response as CacheDictionaryFetch.Hit).valueRecord()).toEqual({ a: 'A', b: 'B' });
  });

  it('should support accessing value for CacheDictionaryFetch.Hit without instanceof check', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(cacheName(), dictionary, { a: 'A', b: 'B' });
    const hit = await client().dictionaryFetch(cacheName(), dictionary);
    expect(hit).toBeInstanceOf(CacheDictionaryFetch.Hit);
    expect(hit.value()).toEqual({ a: 'A', b: 'B' });
    expect((hit as CacheDictionaryFetch.Hit).valueRecord()).toEqual({ a: 'A', b: 'B' });
    const miss = await client().dictionaryFetch(cacheName(), uuid());
    expect(miss).toBeInstanceOf(CacheDictionaryFetch.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#dictionaryGetField', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionaryGetField(cache, dictionary, uuid()),
    cacheName,
  );
  missesWhenAbsent('dictionary', (dictionary) => client().dictionaryGetField(cacheName(), dictionary, uuid()));
  missesWhenFieldAbsent((dictionary, field) => client().dictionaryGetField(cacheName(), dictionary, field));

  it('returns the expected toString value', async () => {
    const [dictionary, field, value] = [uuid(), uuid(), uuid()];
    expect(await client().dictionarySetField(cacheName(), dictionary, field, value)).toBeInstanceOf(
      CacheDictionarySetField.Success,
    );
    const response = await client().dictionaryGetField(cacheName(), dictionary, field);
    expect(response).toBeInstanceOf(CacheDictionaryGetField.Hit);
    expect(response.toString()).toBe(`Hit: ${value.substring(0, 32)}...`);
  });

  it('should support happy path for dictionaryGetField via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B' });
    expect(((await cache.dictionaryGetField(dictionary, 'b')) as CacheDictionaryGetField.Hit).valueString()).toBe('B');
  });

  it('should support accessing value for CacheDictionaryGetField.Hit without instanceof check', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(cacheName(), dictionary, { a: 'A', b: 'B' });
    const hit = await client().dictionaryGetField(cacheName(), dictionary, 'b');
    expect(hit.value()).toBe('B');
    expect((hit as CacheDictionaryGetField.Hit).valueString()).toBe('B');
    const miss = await client().dictionaryGetField(cacheName(), uuid(), 'foo');
    expect(miss).toBeInstanceOf(CacheDictionaryGetField.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#dictionaryGetFields', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionaryGetFields(cache, dictionary, [uuid()]),
    cacheName,
  );
  missesWhenAbsent('dictionary', (dictionary) => client().dictionaryGetFields(cacheName(), dictionary, [uuid()]));

  it('return expected toString value', async () => {
    const dictionary = uuid();
    await client().dictionarySetField(cacheName(), dictionary, 'a', 'b');
    await client().dictionarySetField(cacheName(), dictionary, 'c', 'd');
    const response = await client().dictionaryGetFields(cacheName(), dictionary, ['a', 'c']);
    expect(response).toBeInstanceOf(CacheDictionaryGetFields.Hit);
    expect(response.toString()).toBe('Hit: valueDictionaryStringString: a: b, c: d');
  });

  it('should dictionarySetField/dictionaryGetFields with string fields/values', async () => {
    const dictionary = uuid();
    const [value1, value2] = [uuid(), uuid()];
    await client().dictionarySetField(cacheName(), dictionary, 'foo', value1);
    await client().dictionarySetField(cacheName(), dictionary, 'bar', value2);
    const hit = (await client().dictionaryGetFields(cacheName(), dictionary, [
      'foo',
      'bar',
      'baz',
    ])) as CacheDictionaryGetFields.Hit;
    expect(hit).toBeInstanceOf(CacheDictionaryGetFields.Hit);
    expect(hit.responses.map((r) => r.constructor)).toEqual([
      CacheDictionaryGetField.Hit,
      CacheDictionaryGetField.Hit,
      CacheDictionaryGetField.Miss,
    ]);
    expect((hit.responses[0] as CacheDictionaryGetField.Hit).fieldString()).toBe('foo');
    expect((hit.responses[1] as CacheDictionaryGetField.Hit).fieldString()).toBe('bar');
    expect((hit.responses[2] as CacheDictionaryGetField.Miss).fieldString()).toBe('baz');
    const strings = new Map([
      ['foo', value1],
      ['bar', value2],
    ]);
    expect(hit.valueMapStringString()).toEqual(strings);
    expect(hit.valueMap()).toEqual(strings);
    expect(hit.valueMapStringUint8Array()).toEqual(
      new Map([
        ['foo', bytesOf(value1)],
        ['bar', bytesOf(value2)],
      ]),
    );
    expect(hit.valueRecordStringString()).toEqual({ foo: value1, bar: value2 });
    expect(hit.valueRecord()).toEqual({ foo: value1, bar: value2 });
    expect(hit.valueRecordStringUint8Array()).toEqual({ foo: bytesOf(value1), bar: bytesOf(value2) });
  });

  it('should dictionarySetField/dictionaryGetFields with Uint8Array fields/values', async () => {
    const dictionary = uuid();
    const [field1, field2, field3] = [bytesOf(uuid()), bytesOf(uuid()), bytesOf(uuid())];
    await client().dictionarySetField(cacheName(), dictionary, field1, bytesOf(uuid()));
    await client().dictionarySetField(cacheName(), dictionary, field2, bytesOf(uuid()));
    const hit = (await client().dictionaryGetFields(cacheName(), dictionary, [
      field1,
      field2,
      field3,
    ])) as CacheDictionaryGetFields.Hit;
    expect(hit).toBeInstanceOf(CacheDictionaryGetFields.Hit);
    expect((hit.responses[0] as CacheDictionaryGetField.Hit).fieldUint8Array()).toEqual(field1);
    expect((hit.responses[1] as CacheDictionaryGetField.Hit).fieldUint8Array()).toEqual(field2);
    expect(hit.responses[2]).toBeInstanceOf(CacheDictionaryGetField.Miss);
    expect((hit.responses[2] as CacheDictionaryGetField.Miss).fieldUint8Array()).toEqual(field3);
  });

  it('should support happy path for dictionaryGetFields via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B', c: 'C' });
    const hit = (await cache.dictionaryGetFields(dictionary, ['a', 'c'])) as CacheDictionaryGetFields.Hit;
    expect(hit.valueRecord()).toEqual({ a: 'A', c: 'C' });
  });

  it('should support accessing value for CacheDictionaryGetFields.Hit without instanceof check', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(cacheName(), dictionary, { a: 'A', b: 'B', c: 'C' });
    const hit = await client().dictionaryGetFields(cacheName(), dictionary, ['a', 'c']);
    expect(hit.value()).toEqual({ a: 'A', c: 'C' });
    const miss = await client().dictionaryGetFields(cacheName(), uuid(), ['foo', 'bar']);
    expect(miss).toBeInstanceOf(CacheDictionaryGetFields.Miss);
    expect(miss.value()).toBeUndefined();
  });
});

describe('#dictionaryIncrement', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionaryIncrement(cache, dictionary, uuid()),
    cacheName,
  );
  hasCollectionTtl(
    (dictionary, ttl) => client().dictionaryIncrement(cacheName(), dictionary, 'f', 5, { ttl }),
    present,
    client,
    cacheName,
  );

  for (const [kind, field] of [
    ['string', () => uuid()],
    ['Uint8Array', () => bytesOf(uuid())],
  ] as const)
    it(`increments from 0 to expected amount with ${kind} field`, async () => {
      const [dictionary, f] = [uuid(), field()];
      const increment = async (amount: number) => {
        const response = await client().dictionaryIncrement(cacheName(), dictionary, f, amount);
        expect(response, response.toString()).toBeInstanceOf(CacheDictionaryIncrement.Success);
        return response as CacheDictionaryIncrement.Success;
      };
      expect((await increment(1)).valueNumber()).toBe(1);
      const answer = await increment(41);
      expect(answer.valueNumber()).toBe(42);
      expect(answer.toString()).toBe('Success: value: 42');
      expect((await increment(-1042)).valueNumber()).toBe(-1000);
      const got = await client().dictionaryGetField(cacheName(), dictionary, f);
      expect((got as CacheDictionaryGetField.Hit).valueString()).toBe('-1000');
    });

  it('increments with setting and resetting field', async () => {
    const [dictionary, field] = [uuid(), uuid()];
    const increment = async (amount: number) =>
      (
        (await client().dictionaryIncrement(cacheName(), dictionary, field, amount)) as CacheDictionaryIncrement.Success
      ).valueNumber();
    await client().dictionarySetField(cacheName(), dictionary, field, '10');
    expect(await increment(0)).toBe(10);
    expect(await increment(90)).toBe(100);
    await client().dictionarySetField(cacheName(), dictionary, field, '0');
    expect(await increment(0)).toBe(0);
  });

  it('fails with precondition with a bad amount', async () => {
    const [dictionary, field] = [uuid(), uuid()];
    await client().dictionarySetField(cacheName(), dictionary, field, 'abcxyz');
    const response = await client().dictionaryIncrement(cacheName(), dictionary, field);
    expect(response).toBeInstanceOf(CacheDictionaryIncrement.Error);
    expect((response as CacheDictionaryIncrement.Error).errorCode()).toBe(MomentoErrorCode.FAILED_PRECONDITION_ERROR);
  });

  it('should support happy path for dictionaryIncrement via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: '41' });
    expect(((await cache.dictionaryIncrement(dictionary, 'b')) as CacheDictionaryIncrement.Success).valueNumber()).toBe(
      42,
    );
  });

  it('should support accessing value for CacheDictionaryIncrement.Success without instanceof check', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(cacheName(), dictionary, { a: 'A', b: '41' });
    const response = await client().dictionaryIncrement(cacheName(), dictionary, 'b');
    expect(response).toBeInstanceOf(CacheDictionaryIncrement.Success);
    expect(response.value()).toBe(42);
  });
});

describe('#dictionaryRemoveField', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionaryRemoveField(cache, dictionary, uuid()),
    cacheName,
  );

  for (const [kind, make] of [
    ['Uint8Array', () => bytesOf(uuid())],
    ['string', () => uuid()],
  ] as const)
    it(`should remove a ${kind} field`, async () => {
      const [dictionary, field, value] = [uuid(), make(), make()];
      // When the field does not exist.
      expect(await hasField(dictionary, field)).toBe(false);
      expect(await client().dictionaryRemoveField(cacheName(), dictionary, field)).toBeInstanceOf(
        CacheDictionaryRemoveField.Success,
      );
      expect(await hasField(dictionary, field)).toBe(false);
      // When the field exists.
      expect(await client().dictionarySetField(cacheName(), dictionary, field, value)).toBeInstanceOf(
        CacheDictionarySetField.Success,
      );
      expect(await hasField(dictionary, field)).toBe(true);
      expect(await client().dictionaryRemoveField(cacheName(), dictionary, field)).toBeInstanceOf(
        CacheDictionaryRemoveField.Success,
      );
      expect(await hasField(dictionary, field)).toBe(false);
    });

  it('should support happy path for dictionaryRemoveField via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B', c: 'C' });
    expect(await cache.dictionaryRemoveField(dictionary, 'b')).toBeInstanceOf(CacheDictionaryRemoveField.Success);
    expect(((await cache.dictionaryFetch(dictionary)) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({
      a: 'A',
      c: 'C',
    });
  });
});

describe('#dictionaryRemoveFields', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionaryRemoveFields(cache, dictionary, [uuid()]),
    cacheName,
  );

  for (const [kind, make] of [
    ['Uint8Array', () => bytesOf(uuid())],
    ['string', () => uuid()],
  ] as const)
    it(`should remove ${kind} fields`, async () => {
      const dictionary = uuid();
      const fields = [make(), make()] as string[] | Uint8Array[];
      const getFields = () => client().dictionaryGetFields(cacheName(), dictionary, fields);
      // When the fields do not exist.
      expect(await getFields()).toBeInstanceOf(CacheDictionaryGetFields.Miss);
      expect(await client().dictionaryRemoveFields(cacheName(), dictionary, fields)).toBeInstanceOf(
        CacheDictionaryRemoveFields.Success,
      );
      expect(await getFields()).toBeInstanceOf(CacheDictionaryGetFields.Miss);
      // When the fields exist.
      const setFields = new Map<string | Uint8Array, string>([
        [fields[0]!, uuid()],
        [fields[1]!, uuid()],
      ]);
      expect(
        await client().dictionarySetFields(cacheName(), dictionary, setFields as Map<string, string>),
      ).toBeInstanceOf(CacheDictionarySetFields.Success);
      expect(await getFields()).toBeInstanceOf(CacheDictionaryGetFields.Hit);
      expect(await client().dictionaryRemoveFields(cacheName(), dictionary, fields)).toBeInstanceOf(
        CacheDictionaryRemoveFields.Success,
      );
      expect(await getFields()).toBeInstanceOf(CacheDictionaryGetFields.Miss);
    });

  it('should support happy path for dictionaryRemoveFields via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B', c: 'C', d: 'D' });
    expect(await cache.dictionaryRemoveFields(dictionary, ['b', 'd'])).toBeInstanceOf(
      CacheDictionaryRemoveFields.Success,
    );
    expect(((await cache.dictionaryFetch(dictionary)) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({
      a: 'A',
      c: 'C',
    });
  });
});

describe('#dictionarySetField', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionarySetField(cache, dictionary, uuid(), uuid()),
    cacheName,
  );
  hasCollectionTtl(
    (dictionary, ttl) => client().dictionarySetField(cacheName(), dictionary, 'f', uuid(), { ttl }),
    present,
    client,
    cacheName,
  );

  for (const [kind, field, value, read] of [
    [
      'Uint8Array field/value',
      () => bytesOf(uuid()),
      () => bytesOf(uuid()),
      (hit: CacheDictionaryGetField.Hit) => hit.valueUint8Array(),
    ],
    ['string field/value', () => uuid(), () => uuid(), (hit: CacheDictionaryGetField.Hit) => hit.valueString()],
    [
      'string field and Uint8Array value',
      () => uuid(),
      () => bytesOf(uuid()),
      (hit: CacheDictionaryGetField.Hit) => hit.valueUint8Array(),
    ],
  ] as const)
    it(`should set/get a dictionary with ${kind}`, async () => {
      const [dictionary, f, v] = [uuid(), field(), value()];
      expect(await client().dictionarySetField(cacheName(), dictionary, f, v)).toBeInstanceOf(
        CacheDictionarySetField.Success,
      );
      const got = await client().dictionaryGetField(cacheName(), dictionary, f);
      expect(got).toBeInstanceOf(CacheDictionaryGetField.Hit);
      expect(read(got as CacheDictionaryGetField.Hit)).toEqual(v);
    });

  it('should support happy path for dictionarySetField via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    expect(await cache.dictionarySetField(dictionary, 'a', 'A')).toBeInstanceOf(CacheDictionarySetField.Success);
    expect(((await cache.dictionaryFetch(dictionary)) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({ a: 'A' });
  });
});

describe('#dictionarySetFields', () => {
  validatesNames(
    'dictionary',
    (cache, dictionary) => client().dictionarySetFields(cache, dictionary, new Map([[uuid(), uuid()]])),
    cacheName,
  );
  hasCollectionTtl(
    (dictionary, ttl) => client().dictionarySetFields(cacheName(), dictionary, new Map([['f', uuid()]]), { ttl }),
    present,
    client,
    cacheName,
  );

  /** Sets two fields as `items` says, and reads each back with `read`. */
  async function setsBoth(
    items: (f1: string, v1: string, f2: string, v2: string) => Parameters<typeof shared.client.dictionarySetFields>[2],
    names: [string, string],
    read: (hit: CacheDictionaryGetField.Hit) => unknown,
    expected: (value: string) => unknown,
  ) {
    const dictionary = uuid();
    const [value1, value2] = [uuid(), uuid()];
    const response = await client().dictionarySetFields(
      cacheName(),
      dictionary,
      items(names[0], value1, names[1], value2),
      {
        ttl: CollectionTtl.of(10),
      },
    );
    expect(response).toBeInstanceOf(CacheDictionarySetFields.Success);
    for (const [field, value] of [
      [names[0], value1],
      [names[1], value2],
    ] as const) {
      const got = await client().dictionaryGetField(cacheName(), dictionary, field);
      expect(got).toBeInstanceOf(CacheDictionaryGetField.Hit);
      expect(read(got as CacheDictionaryGetField.Hit)).toEqual(expected(value));
    }
  }

  it('should set fields with Uint8Array items', async () => {
    const dictionary = uuid();
    const [field1, value1, field2, value2] = [bytesOf(uuid()), bytesOf(uuid()), bytesOf(uuid()), bytesOf(uuid())];
    const response = await client().dictionarySetFields(
      cacheName(),
      dictionary,
      new Map([
        [field1, value1],
        [field2, value2],
      ]),
      { ttl: CollectionTtl.of(10) },
    );
    expect(response).toBeInstanceOf(CacheDictionarySetFields.Success);
    for (const [field, value] of [
      [field1, value1],
      [field2, value2],
    ] as const)
      expect(
        (
          (await client().dictionaryGetField(cacheName(), dictionary, field)) as CacheDictionaryGetField.Hit
        ).valueUint8Array(),
      ).toEqual(value);
  });

  it('should set fields with string items Map', () =>
    setsBoth(
      (f1, v1, f2, v2) =>
        new Map([
          [f1, v1],
          [f2, v2],
        ]),
      [uuid(), uuid()],
      (hit) => hit.valueString(),
      (v) => v,
    ));

  it('should set fields with string items Record', () =>
    setsBoth(
      (_f1, v1, _f2, v2) => ({ foo: v1, bar: v2 }),
      ['foo', 'bar'],
      (hit) => hit.valueString(),
      (v) => v,
    ));

  it('should set fields with string items Array', () =>
    setsBoth(
      (f1, v1, f2, v2) => [
        [f1, v1],
        [f2, v2],
      ],
      ['foo', 'bar'],
      (hit) => hit.valueString(),
      (v) => v,
    ));

  it('should set fields with string field/Uint8Array value items', () =>
    setsBoth(
      (f1, v1, f2, v2) =>
        new Map([
          [f1, bytesOf(v1)],
          [f2, bytesOf(v2)],
        ]),
      [uuid(), uuid()],
      (hit) => hit.valueUint8Array(),
      bytesOf,
    ));

  it('should set fields with string fields / Uint8Array Record', () =>
    setsBoth(
      (_f1, v1, _f2, v2) => ({ foo: bytesOf(v1), bar: bytesOf(v2) }),
      ['foo', 'bar'],
      (hit) => hit.valueString(),
      (v) => v,
    ));

  it('should support happy path for dictionarySetFields via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    expect(await cache.dictionarySetFields(dictionary, { a: 'A', b: 'B', c: 'C' })).toBeInstanceOf(
      CacheDictionarySetFields.Success,
    );
    expect(((await cache.dictionaryFetch(dictionary)) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({
      a: 'A',
      b: 'B',
      c: 'C',
    });
  });
});

describe('#dictionaryLength', () => {
  validatesNames('dictionary', (cache, dictionary) => client().dictionaryLength(cache, dictionary), cacheName);

  it('returns a miss if the dictionary does not exist', async () => {
    expect(await client().dictionaryLength(cacheName(), uuid())).toBeInstanceOf(CacheDictionaryLength.Miss);
  });

  it('returns the length if the dictionary exists', async () => {
    const dictionary = uuid();
    await client().dictionarySetFields(
      cacheName(),
      dictionary,
      new Map([
        [uuid(), bytesOf(uuid())],
        [uuid(), bytesOf(uuid())],
      ]),
      { ttl: CollectionTtl.of(10) },
    );
    const response = await client().dictionaryLength(cacheName(), dictionary);
    expect(response, response.toString()).toBeInstanceOf(CacheDictionaryLength.Hit);
    expect((response as CacheDictionaryLength.Hit).length()).toBe(2);
  });

  it('should support happy path for dictionaryLength via curried cache via ICache interface', async () => {
    const dictionary = uuid();
    const cache = client().cache(cacheName());
    await cache.dictionarySetFields(
      dictionary,
      new Map([
        [uuid(), bytesOf(uuid())],
        [uuid(), bytesOf(uuid())],
      ]),
      { ttl: CollectionTtl.of(10) },
    );
    expect(((await cache.dictionaryLength(dictionary)) as CacheDictionaryLength.Hit).length()).toBe(2);
  });
});
