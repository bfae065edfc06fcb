import {
  CacheClient,
  CacheDictionaryFetch,
  CacheGet,
  CacheIncrement,
  CacheListFetch,
  CacheSetFetch,
  CacheSortedSetFetch,
  CacheSet,
  CollectionTtl,
  Configurations,
  ListCaches,
} from '@gomomento/sdk';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { momentoLocal } from '../grpc/harness.js';
import { openStream } from '../helpers/sse.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { useFleet } from './fleet.js';

// The cache's items on replicas sharing one Redis: what one replica sets, through either door,
// every other reads; a call's read and write are one atomic change across replicas; items are
// native Redis values; TTLs run on the shared emulator clock; reset, flush, snapshots and the
// state cover them, a replica started later included.

const fleet = useFleet();
const CACHE = 'cache';
const clients: CacheClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

async function sdk(emulator: RunningEmulator): Promise<CacheClient> {
  const client = await CacheClient.create({
    configuration: Configurations.Laptop.v1(),
    credentialProvider: momentoLocal(emulator),
    defaultTtlSeconds: 60,
  });
  clients.push(client);
  return client;
}

const item = (replica: TestEmulator, key: string, init: RequestInit = {}, query = '') =>
  fetch(`${replica.url}/cache/${CACHE}?key=${encodeURIComponent(key)}${query}`, {
    ...init,
    headers: { authorization: replica.key, ...(init.headers as Record<string, string> | undefined) },
  });

const stateOf = async (replica: TestEmulator) =>
  ((await (await fetch(`${replica.url}/_emulator/state`)).json()) as { cacheItems: { count: number; bytes: number } })
    .cacheItems;

describe('the cache on replicas', () => {
  // Replicas of one emulator: a prefix of their own for each test.
  let replica: () => Promise<TestEmulator>;
  beforeEach(() => {
    replica = fleet.starter('cache', { grpcPort: 0, host: '127.0.0.1' });
  });

  it('an item set over HTTP on one replica is read byte for byte on the other, by HTTP and the SDK; a delete there is seen here', async () => {
    const [a, b] = [await replica(), await replica()];
    const value = Buffer.from([0, 1, 0xfe, 0xff, 0x7b]);
    expect((await item(a, 'shared', { method: 'PUT', body: value }, '&ttl_seconds=60')).status).toBe(204);
    const read = await item(b, 'shared');
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(value);
    const hit = await (await sdk(b.emulator)).get(CACHE, 'shared');
    expect(hit).toBeInstanceOf(CacheGet.Hit);
    expect(Buffer.from((hit as CacheGet.Hit).valueUint8Array())).toEqual(value);
    expect((await item(b, 'shared', { method: 'DELETE' })).status).toBe(204);
    expect((await item(a, 'shared')).status).toBe(404);
  });

  it('collections written through one replica are read through the other, and Redis holds them natively', async () => {
    const [a, b] = [await replica(), await replica()];
    const [ca, cb] = [await sdk(a.emulator), await sdk(b.emulator)];
    await ca.dictionarySetFields(CACHE, 'dict', { f1: 'v1', f2: 'v2' });
    await ca.setAddElements(CACHE, 'set', ['x', 'y']);
    await ca.listConcatenateBack(CACHE, 'list', ['1', '2', '3']);
    await ca.sortedSetPutElements(CACHE, 'zset', { low: 1.5, high: 1e21 });
    expect(((await cb.dictionaryFetch(CACHE, 'dict')) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({
      f1: 'v1',
      f2: 'v2',
    });
    expect(((await cb.setFetch(CACHE, 'set')) as CacheSetFetch.Hit).valueArrayString().sort()).toEqual(['x', 'y']);
    expect(((await cb.listFetch(CACHE, 'list')) as CacheListFetch.Hit).valueListString()).toEqual(['1', '2', '3']);
    expect(
      ((await cb.sortedSetFetchByRank(CACHE, 'zset')) as CacheSortedSetFetch.Hit).valueArrayStringElements(),
    ).toEqual([
      { value: 'low', score: 1.5 },
      { value: 'high', score: 1e21 },
    ]);
    // A wrong type is refused on the other replica too.
    expect((await cb.get(CACHE, 'dict')).toString()).toMatch(/is a dictionary/);
    const redis = new Redis(fleet.redis().url);
    try {
      const prefix = (a.emulator.settings.storePrefix ?? '') + `i:${CACHE}:`;
      const types = await Promise.all(
        ['dict', 'set', 'list', 'zset'].map((key) => redis.type(prefix + Buffer.from(key).toString('base64url'))),
      );
      expect(types).toEqual(['hash', 'set', 'list', 'zset']);
    } finally {
      redis.disconnect();
    }
  });

  it('increments from both replicas at once add up: each read and write is one atomic change', async () => {
    const [a, b] = [await replica(), await replica()];
    const [ca, cb] = [await sdk(a.emulator), await sdk(b.emulator)];
    const each = 25;
    const calls = Array.from({ length: each }, () => [
      ca.increment(CACHE, 'counter', 1),
      cb.increment(CACHE, 'counter', 1),
    ]);
    const answers = await Promise.all(calls.flat());
    for (const answer of answers) expect(answer, answer.toString()).toBeInstanceOf(CacheIncrement.Success);
    const values = answers.map((answer) => (answer as CacheIncrement.Success).value()).sort((x, y) => x - y);
    expect(values).toEqual(Array.from({ length: 2 * each }, (_, i) => i + 1));
    await Promise.all(
      Array.from({ length: each }, (_, i) => [
        ca.dictionaryIncrement(CACHE, 'tally', 'n', 1, { ttl: CollectionTtl.of(60) }),
        cb.listPushBack(CACHE, 'log', `b${i}`),
        ca.listPushBack(CACHE, 'log', `a${i}`),
      ]).flat(),
    );
    expect(((await cb.dictionaryFetch(CACHE, 'tally')) as CacheDictionaryFetch.Hit).valueRecord()).toEqual({ n: '25' });
    expect(((await cb.listFetch(CACHE, 'log')) as CacheListFetch.Hit).valueListString()).toHaveLength(2 * each);
  });

  it('items expire on the shared emulator clock: a virtual clock advanced on one replica expires them on both', async () => {
    const [a, b] = [await replica(), await replica()];
    a.emulator.setClock({ mode: 'virtual' });
    await vi.waitFor(() => expect(b.emulator.clock().mode).toBe('virtual'), { timeout: 5000 });
    expect((await item(a, 'brief', { method: 'PUT', body: 'soon gone' }, '&ttl_seconds=10')).status).toBe(204);
    a.emulator.advanceClock(9_999);
    await vi.waitFor(() => expect(b.emulator.clock().nowMs).toBe(a.emulator.clock().nowMs), { timeout: 5000 });
    expect((await item(b, 'brief')).status).toBe(200);
    a.emulator.advanceClock(1);
    await vi.waitFor(() => expect(b.emulator.clock().nowMs).toBe(a.emulator.clock().nowMs), { timeout: 5000 });
    expect((await item(b, 'brief')).status).toBe(404);
    expect((await item(a, 'brief')).status).toBe(404);
  });

  it('a reset and a flush on one replica remove the items for both; the state counts them on every replica, one started later included', async () => {
    const [a, b] = [await replica(), await replica()];
    for (const key of ['one', 'two'])
      expect((await item(a, key, { method: 'PUT', body: 'abc' }, '&ttl_seconds=60')).status).toBe(204);
    // 'one' + 'abc', 'two' + 'abc'
    await vi.waitFor(async () => expect(await stateOf(b)).toMatchObject({ count: 2, bytes: 12 }), { timeout: 5000 });
    const late = await replica();
    expect(await stateOf(late)).toMatchObject({ count: 2, bytes: 12 });
    expect((await fetch(`${a.url}/_emulator/caches/${CACHE}/flush`, { method: 'POST' })).status).toBe(200);
    expect((await item(b, 'one')).status).toBe(404);
    await vi.waitFor(async () => expect(await stateOf(late)).toMatchObject({ count: 0, bytes: 0 }), { timeout: 5000 });
    expect((await item(b, 'three', { method: 'PUT', body: 'x' }, '&ttl_seconds=60')).status).toBe(204);
    expect((await fetch(`${a.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect((await item(b, 'three')).status).toBe(404);
    await vi.waitFor(async () => expect(await stateOf(b)).toMatchObject({ count: 0 }), { timeout: 5000 });
  });

  it('a snapshot taken on one replica has the items; loaded on another, every replica reads them', async () => {
    const [a, b] = [await replica(), await replica()];
    await (await sdk(a.emulator)).setAddElements(CACHE, 'kept', ['m1', 'm2']);
    expect((await item(a, 'text', { method: 'PUT', body: 'hello' }, '&ttl_seconds=60')).status).toBe(204);
    await vi.waitFor(() => expect(a.emulator.snapshot().items).toHaveLength(2), { timeout: 5000 });
    const snapshot = a.emulator.snapshot();
    expect((await fetch(`${a.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect((await item(a, 'text')).status).toBe(404);
    const loaded = await fetch(`${b.url}/_emulator/snapshot`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(snapshot),
    });
    expect(loaded.status).toBe(200);
    expect(await (await item(a, 'text')).text()).toBe('hello');
    const members = await (await sdk(a.emulator)).setFetch(CACHE, 'kept');
    expect((members as CacheSetFetch.Hit).valueArrayString().sort()).toEqual(['m1', 'm2']);
  });

  it('a cache made on one replica is every replica’s, a later one’s too, topics and items alike; deleted on one, it is gone everywhere and its waiting subscribers are answered', async () => {
    const [a, b] = [await replica(), await replica()];
    const events = await openStream(b.url);
    const control = (operationId: string) =>
      events.next(
        (f) => f.event === 'control' && (JSON.parse(f.data!) as { operationId: string }).operationId === operationId,
        5000,
      );
    await events.next((f) => f.event === 'hello');
    const made = await fetch(`${a.url}/_emulator/caches/orders`, { method: 'PUT' });
    expect(made.status).toBe(201);
    // b's event stream tells of it, as of its own changes.
    await control('createCache');
    expect((await fetch(`${b.url}/_emulator/caches/orders`, { method: 'PUT' })).status).toBe(200);
    expect((await b.publish('orders', 'new', 'first')).status).toBe(204);
    const put = await fetch(`${b.url}/cache/orders?key=k&ttl_seconds=60`, {
      method: 'PUT',
      headers: { authorization: b.key },
      body: 'v',
    });
    expect(put.status).toBe(204);
    const late = await replica();
    expect(((await (await fetch(`${late.url}/_emulator/caches`)).json()) as { caches: string[] }).caches).toContain(
      'orders',
    );
    const waiting = b.subscribe('orders', 'new', { seq: 2, page: 0 });
    await vi.waitFor(
      async () =>
        expect(
          ((await (await fetch(`${b.url}/_emulator/state`)).json()) as { waitingSubscriberCount: number })
            .waitingSubscriberCount,
        ).toBe(1),
      { timeout: 5000 },
    );
    expect((await fetch(`${a.url}/_emulator/caches/orders`, { method: 'DELETE' })).status).toBe(200);
    expect((await waiting).status).toBe(200);
    await control('deleteCache');
    events.close();
    for (const replica of [a, b, late]) {
      expect((await replica.publish('orders', 'new', 'after')).status).toBe(404);
      const got = await fetch(`${replica.url}/cache/orders?key=k`, { headers: { authorization: replica.key } });
      expect(got.status).toBe(404);
    }
    // Made again, it starts empty: its old topics and items are gone from Redis too.
    expect((await fetch(`${b.url}/_emulator/caches/orders`, { method: 'PUT' })).status).toBe(201);
    expect((await fetch(`${a.url}/cache/orders?key=k`, { headers: { authorization: a.key } })).status).toBe(404);
    expect((await a.publish('orders', 'new', 'again')).status).toBe(204);
    const first = await b.subscribe('orders', 'new', { seq: 1, page: 0 });
    expect(first.json).toMatchObject({ items: [{ item: { topic_sequence_number: 1, value: { text: 'again' } } }] });
  });

  it('the SDK makes and lists caches on one replica and uses them on the other; a reset brings back the configured ones', async () => {
    const [a, b] = [await replica(), await replica()];
    const [ca, cb] = [await sdk(a.emulator), await sdk(b.emulator)];
    expect((await ca.createCache('sdk-made')).toString()).toMatch(/Success/);
    expect(await cb.set('sdk-made', 'k', 'v')).toBeInstanceOf(CacheSet.Success);
    expect(((await ca.get('sdk-made', 'k')) as CacheGet.Hit).valueString()).toBe('v');
    const listed = (await cb.listCaches()) as ListCaches.Success;
    expect(listed.getCaches().map((c) => c.getName())).toContain('sdk-made');
    expect((await fetch(`${a.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    const after = (await cb.listCaches()) as ListCaches.Success;
    expect(
      after
        .getCaches()
        .map((c) => c.getName())
        .sort(),
    ).toEqual([CACHE]);
  });
});
