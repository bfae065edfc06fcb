import { describe, expect, it } from 'vitest';
import { CollectionOperations } from '../../emulator/cache/collections.js';
import { InMemoryCacheItems } from '../../emulator/cache/items.js';
import { CACHE_BOUNDS, CacheOperations } from '../../emulator/cache/operations.js';
import { startEmulator } from '../../emulator/index.js';

// The collection operations themselves (cache/collections.ts), on a clock the test moves: the
// CollectionTtl rules, an emptied collection deleted, the type of the key held, the bounds checked
// before anything changes, and collections through a snapshot and the cache HTTP API.

const b = (text: string) => Buffer.from(text);
const ttl = (seconds: number, refresh = true) => ({ ttlMs: seconds * 1000, refresh });

function operations() {
  let now = 1_000_000;
  const clock = { now: () => now };
  const items = new InMemoryCacheItems();
  return {
    collections: new CollectionOperations(items, clock),
    scalars: new CacheOperations(items, clock),
    items,
    advance: (ms: number) => (now += ms),
  };
}

describe('collection operations', () => {
  it('a write makes the collection with its TTL, keeps the TTL unless it refreshes, and it expires on the clock', () => {
    const { collections, scalars, advance } = operations();
    collections.setAdd('c', b('s'), [b('a')], ttl(10));
    advance(4000);
    collections.setAdd('c', b('s'), [b('b')], ttl(60, false));
    expect(scalars.remainingTtl('c', b('s'))).toBe(6000);
    collections.setAdd('c', b('s'), [b('c')], ttl(60, true));
    expect(scalars.remainingTtl('c', b('s'))).toBe(60_000);
    advance(60_000);
    expect(collections.setFetch('c', b('s'))).toBeUndefined();
  });

  it('deletes a collection its last member leaves, and answers the type of what a key holds', () => {
    const { collections, scalars } = operations();
    collections.listConcatenate('c', b('l'), [b('x'), b('y')], 'back', undefined, ttl(10));
    expect(scalars.itemType('c', b('l'))).toBe('list');
    expect(collections.listPop('c', b('l'), 'front')).toEqual(b('x'));
    expect(collections.listPop('c', b('l'), 'front')).toEqual(b('y'));
    expect(scalars.itemType('c', b('l'))).toBeUndefined();
    expect(collections.listPop('c', b('l'), 'front')).toBeUndefined();
    collections.dictionarySet('c', b('d'), [[b('f'), b('v')]], ttl(10));
    collections.dictionaryRemove('c', b('d'), [b('f')]);
    expect(collections.length('c', b('d'), 'dictionary')).toBeUndefined();
  });

  it('refuses a call on a key of another type, naming both, and changes nothing', () => {
    const { collections, scalars } = operations();
    collections.sortedSetPut('c', b('z'), [[b('m'), 1]], ttl(10));
    expect(() => collections.setAdd('c', b('z'), [b('a')], ttl(10))).toThrow(
      /is a sorted set; this call works on a set/,
    );
    expect(() => scalars.get('c', b('z'))).toThrow(/is a sorted set; this call works on a scalar value/);
    scalars.set('c', b('k'), b('v'), 10_000);
    expect(() => collections.dictionaryFetch('c', b('k'))).toThrow(
      /is a scalar value; this call works on a dictionary/,
    );
    expect(collections.sortedSetFetchByRank('c', b('z'), 'ascending')).toEqual([[b('m'), 1]]);
  });

  it('checks the bounds before it changes anything: members per collection, bytes per collection', () => {
    const { collections } = operations();
    const many = Array.from({ length: CACHE_BOUNDS.maxMembers }, (_, i) => b(`m${i}`));
    collections.setAdd('c', b('big'), many, ttl(60));
    expect(() => collections.setAdd('c', b('big'), [b('one more'), b('m0')], ttl(60))).toThrow(
      /at most 100000 members \(this one would hold 100001\)/,
    );
    expect(collections.length('c', b('big'), 'set')).toBe(CACHE_BOUNDS.maxMembers);
    const half = Buffer.alloc(3 * 1024 * 1024);
    collections.listConcatenate('c', b('l'), [half], 'back', undefined, ttl(60));
    expect(() => collections.listConcatenate('c', b('l'), [half], 'back', undefined, ttl(60))).toThrow(
      /would hold \d+ bytes; an item may hold at most 5242880 bytes/,
    );
    expect(collections.length('c', b('l'), 'list')).toBe(1);
  });

  it('orders sorted-set ties by the members’ bytes, and stores a weighted union in place of what was there', () => {
    const { collections } = operations();
    collections.sortedSetPut(
      'c',
      b('a'),
      [
        [b('y'), 1],
        [b('x'), 1],
        [b('w'), 0],
      ],
      ttl(60),
    );
    collections.sortedSetPut('c', b('b'), [[b('x'), 2]], ttl(60));
    expect(collections.sortedSetFetchByRank('c', b('a'), 'ascending')!.map(([m]) => m.toString())).toEqual([
      'w',
      'x',
      'y',
    ]);
    expect(collections.sortedSetFetchByRank('c', b('a'), 'descending')!.map(([m]) => m.toString())).toEqual([
      'y',
      'x',
      'w',
    ]);
    collections.sortedSetPut('c', b('u'), [[b('old'), 9]], ttl(60));
    const length = collections.sortedSetUnionStore(
      'c',
      b('u'),
      [
        { name: b('a'), weight: 1 },
        { name: b('b'), weight: 10 },
        { name: b('missing'), weight: 1 },
      ],
      'max',
      60_000,
    );
    expect(length).toBe(3);
    expect(collections.sortedSetGetScores('c', b('u'), [b('x'), b('y'), b('w'), b('old')])).toEqual([
      20,
      1,
      0,
      undefined,
    ]);
  });

  it('keeps list and fetch ranges as the SDK sends them: negative positions count from the end', () => {
    const { collections } = operations();
    collections.listConcatenate('c', b('l'), ['a', 'b', 'c', 'd', 'e'].map(b), 'back', undefined, ttl(60));
    const text = (values: Buffer[] | undefined) => values?.map(String);
    expect(text(collections.listFetch('c', b('l'), 1, -1))).toEqual(['b', 'c', 'd']);
    expect(text(collections.listFetch('c', b('l'), -2))).toEqual(['d', 'e']);
    collections.listRetain('c', b('l'), 1, 3, ttl(60));
    expect(text(collections.listFetch('c', b('l')))).toEqual(['b', 'c']);
    expect(collections.listConcatenate('c', b('l'), [b('z')], 'front', 2, ttl(60))).toBe(2);
    expect(text(collections.listFetch('c', b('l')))).toEqual(['z', 'b']);
  });
});

describe('collections through the emulator', () => {
  it('a snapshot keeps them, byte for byte, and loads them back with their TTLs', async () => {
    const source = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    const target = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      // A standing clock: the TTLs left are the same when taken and when read back.
      source.setClock({ mode: 'virtual' });
      await source.context.items.run('default-cache', [b('d'), b('s'), b('l'), b('z')], ({ collections: c }) => {
        c.dictionarySet('default-cache', b('d'), [[Buffer.from([0, 255]), b('v')]], ttl(60));
        c.setAdd('default-cache', b('s'), [b('a'), b('b')], ttl(60));
        c.listConcatenate('default-cache', b('l'), [b('1'), b('2')], 'back', undefined, ttl(60));
        c.sortedSetPut('default-cache', b('z'), [[b('m'), 1.5]], ttl(60));
      });
      const snapshot = source.snapshot();
      expect(snapshot.items!.map((item) => item.collection?.type)).toEqual(['dictionary', 'set', 'list', 'sorted-set']);
      expect(target.restore(snapshot).items).toBe(4);
      expect(target.snapshot().items).toEqual(snapshot.items);
      const [fetched, scores] = await target.context.items.run(
        'default-cache',
        [b('d'), b('z')],
        ({ collections: t }) => [
          t.dictionaryFetch('default-cache', b('d')),
          t.sortedSetGetScores('default-cache', b('z'), [b('m')]),
        ],
      );
      expect(fetched).toEqual([[Buffer.from([0, 255]), b('v')]]);
      expect(scores).toEqual([1.5]);
    } finally {
      await source.close();
      await target.close();
    }
  });

  it('the cache HTTP API answers a Get of a collection 400 failed_precondition naming its type', async () => {
    const emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      await emulator.context.items.run('default-cache', [b('a-set')], ({ collections }) =>
        collections.setAdd('default-cache', b('a-set'), [b('x')], ttl(60)),
      );
      const response = await fetch(`${emulator.url}/cache/default-cache?key=a-set`, {
        headers: { authorization: emulator.apiKey },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'failed_precondition',
        message: expect.stringMatching(/is a set/),
      });
    } finally {
      await emulator.close();
    }
  });

  it('/_emulator/state counts the items and the bytes they hold, scalars and collections, and lets the expired go', async () => {
    const emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      emulator.setClock({ mode: 'virtual' });
      const state = async () =>
        (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as { cacheItems: unknown };
      expect((await state()).cacheItems).toEqual({
        count: 0,
        bytes: 0,
        maxCount: CACHE_BOUNDS.maxItems,
        maxBytes: CACHE_BOUNDS.maxTotalBytes,
      });
      await emulator.context.items.run('default-cache', [b('k'), b('s')], ({ cache, collections }) => {
        cache.set('default-cache', b('k'), b('value'), 10_000);
        collections.setAdd('default-cache', b('s'), [b('ab'), b('cd')], ttl(60));
      });
      // 'k' + 'value', 's' + 'ab' + 'cd'
      expect((await state()).cacheItems).toMatchObject({ count: 2, bytes: 6 + 5 });
      emulator.advanceClock(10_000);
      expect((await state()).cacheItems).toMatchObject({ count: 1, bytes: 5 });
    } finally {
      await emulator.close();
    }
  });
});

describe('GET /_emulator/caches/{cache}/items', () => {
  it('lists a cache’s live items a page at a time: key as text and base64, type, bytes, members, TTL left', async () => {
    const emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      emulator.setClock({ mode: 'virtual' });
      const keys = [b('greeting'), Buffer.from([0xff, 0x00]), b('log')];
      await emulator.context.items.run('default-cache', keys, ({ cache, collections }) => {
        cache.set('default-cache', b('greeting'), b('hello'), 30_000);
        cache.set('default-cache', Buffer.from([0xff, 0x00]), b('x'), 30_000);
        collections.listConcatenate('default-cache', b('log'), [b('a'), b('bc')], 'back', undefined, ttl(60));
      });
      const list = async (query = '') => {
        const response = await fetch(`${emulator.url}/_emulator/caches/default-cache/items${query}`);
        expect(response.status).toBe(200);
        return (await response.json()) as { count: number; items: unknown[] };
      };
      expect(await list()).toEqual({
        cache: 'default-cache',
        count: 3,
        items: [
          {
            key: 'greeting',
            keyBase64: b('greeting').toString('base64'),
            type: 'scalar',
            bytes: 5,
            ttlRemainingMs: 30_000,
          },
          { key: null, keyBase64: '/wA=', type: 'scalar', bytes: 1, ttlRemainingMs: 30_000 },
          {
            key: 'log',
            keyBase64: b('log').toString('base64'),
            type: 'list',
            bytes: 3,
            members: 2,
            ttlRemainingMs: 60_000,
          },
        ],
      });
      expect((await list('?offset=1&limit=1')).items).toEqual([expect.objectContaining({ keyBase64: '/wA=' })]);
      const missing = await fetch(`${emulator.url}/_emulator/caches/nope/items`);
      expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'cache_not_found']);
      const bad = await fetch(`${emulator.url}/_emulator/caches/default-cache/items?limit=abc`);
      expect(bad.status).toBe(400);
    } finally {
      await emulator.close();
    }
  });

  it('GET .../items/{key}: a scalar’s value, a collection’s members a page at a time; 404 for no such item or cache', async () => {
    const emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      const binary = Buffer.from([0xff, 0x00]);
      await emulator.context.items.run('default-cache', [binary, b('d')], ({ cache, collections }) => {
        cache.set('default-cache', binary, b('x'), 30_000);
        collections.dictionarySet(
          'default-cache',
          b('d'),
          [
            [b('f1'), b('v1')],
            [b('f2'), Buffer.from([0xc3])],
          ],
          ttl(60),
        );
      });
      const get = async (path: string) => {
        const response = await fetch(`${emulator.url}/_emulator/caches/default-cache/items/${path}`);
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      // A key whose base64 has a '/' is named URL-encoded, or in base64url.
      for (const path of [encodeURIComponent('/wA='), '_wA'])
        expect((await get(path)).body).toMatchObject({
          item: { key: null, keyBase64: '/wA=', type: 'scalar' },
          value: { text: 'x', base64: 'eA==' },
          memberCount: 0,
          members: [],
        });
      expect((await get(`${b('d').toString('base64')}?offset=1&limit=5`)).body).toMatchObject({
        memberCount: 2,
        members: [
          { member: { text: 'f2', base64: b('f2').toString('base64') }, value: { text: null, base64: 'ww==' } },
        ],
      });
      expect(await get(b('nope').toString('base64'))).toMatchObject({ status: 404, body: { code: 'key_not_found' } });
      const noCache = await fetch(`${emulator.url}/_emulator/caches/nope/items/eA==`);
      expect(noCache.status).toBe(404);
    } finally {
      await emulator.close();
    }
  });
});
