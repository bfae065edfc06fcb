import { CacheGet, CacheGetBatch, CacheSet, CacheSetBatch } from '@gomomento/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fileCache, withFreshCache } from './sdk.js';

// The cases of the provider's shared batch suite (client-sdk-javascript,
// packages/common-integration-tests/src/cache/batch-get-set.ts), rewritten: each case on a fresh
// cache (upstream's share one, so their order matters). Its fixed 5 s waits for expiry become
// waits for the misses.

/** The file's client (and a fresh cache, unused: each case makes its own or needs none). */
const shared = fileCache();

const FRUIT: [string, string][] = [
  ['a', 'apple'],
  ['b', 'berry'],
  ['c', 'cantaloupe'],
  ['1', 'first'],
  ['2', 'second'],
  ['3', 'third'],
];
const bytes = (text: string) => new TextEncoder().encode(text);

function expectSetResults(response: unknown, count: number) {
  expect(response, (response as { toString(): string }).toString()).toBeInstanceOf(CacheSetBatch.Success);
  const results = (response as CacheSetBatch.Success).results();
  expect(results).toHaveLength(count);
  for (const result of results) expect(result).toBeInstanceOf(CacheSet.Success);
}

async function batch(cacheName: string, keys: string[]): Promise<CacheGetBatch.Success> {
  const response = await shared.client.getBatch(cacheName, keys);
  expect(response, response.toString()).toBeInstanceOf(CacheGetBatch.Success);
  const success = response as CacheGetBatch.Success;
  expect(success.results()).toHaveLength(keys.length);
  return success;
}

/** Every view of a get batch's values holds exactly `entries`. */
function expectValues(success: CacheGetBatch.Success, entries: [string, string][]) {
  const record = Object.fromEntries(entries);
  expect(success.values()).toEqual(record);
  expect(success.valuesRecord()).toEqual(record);
  expect(success.valuesRecordStringString()).toEqual(record);
  expect(success.valuesRecordStringUint8Array()).toEqual(Object.fromEntries(entries.map(([k, v]) => [k, bytes(v)])));
  expect(success.valuesMap()).toEqual(new Map(entries));
  expect(success.valuesMapStringString()).toEqual(new Map(entries));
  expect(success.valuesMapStringUint8Array()).toEqual(new Map(entries.map(([k, v]) => [k, bytes(v)])));
}

/** Every key a hit with its value, in the order asked. */
function expectHits(success: CacheGetBatch.Success, entries: [string, string][]) {
  success.results().forEach((result, i) => {
    expect(result).toBeInstanceOf(CacheGet.Hit);
    expect((result as CacheGet.Hit).value()).toBe(entries[i]![1]);
  });
  expectValues(success, entries);
}

describe('#batch get and set', () => {
  it('getBatch happy path with all misses', () =>
    withFreshCache(async (cacheName) => {
      const success = await batch(
        cacheName,
        FRUIT.map(([k]) => k),
      );
      for (const result of success.results()) expect(result).toBeInstanceOf(CacheGet.Miss);
      expectValues(success, []);
    }));

  it('setBatch happy path', () =>
    withFreshCache(async (cacheName) => {
      expectSetResults(await shared.client.setBatch(cacheName, new Map(FRUIT)), FRUIT.length);
    }));

  it('setBatch happy path with ttl', () =>
    withFreshCache(async (cacheName) => {
      expectSetResults(await shared.client.setBatch(cacheName, new Map(FRUIT), { ttl: 3 }), FRUIT.length);
      await vi.waitFor(
        async () => {
          const success = await batch(
            cacheName,
            FRUIT.map(([k]) => k),
          );
          for (const result of success.results()) expect(result).toBeInstanceOf(CacheGet.Miss);
        },
        { timeout: 8000, interval: 250 },
      );
    }));

  it('setBatch happy path with per-item ttl', () =>
    withFreshCache(async (cacheName) => {
      const items = [
        { key: 'a', value: 'apple', ttl: 3 },
        { key: 'b', value: 'berry', ttl: 1 },
        { key: 'c', value: 'cantaloupe', ttl: 20 },
        { key: '1', value: 'first' },
        { key: '2', value: 'second', ttl: 2 },
        { key: '3', value: 'third', ttl: 3 },
      ];
      expectSetResults(await shared.client.setBatch(cacheName, items, { ttl: 15 }), items.length);
      const keys = items.map((i) => i.key);
      // Once the short ones have expired: only c (20 s) and 1 (the batch's 15 s) are left.
      await vi.waitFor(
        async () =>
          expect((await batch(cacheName, keys)).valuesMapStringString()).toEqual(
            new Map([
              ['c', 'cantaloupe'],
              ['1', 'first'],
            ]),
          ),
        { timeout: 8000, interval: 250 },
      );
    }));

  it('getBatch happy path with all hits with input as Array of SetBatchItem', () =>
    withFreshCache(async (cacheName) => {
      const items = FRUIT.map(([key, value]) => ({ key, value }));
      expectSetResults(await shared.client.setBatch(cacheName, items), items.length);
      expectHits(
        await batch(
          cacheName,
          FRUIT.map(([k]) => k),
        ),
        FRUIT,
      );
    }));

  it('getBatch happy path with all hits with input as Record', () =>
    withFreshCache(async (cacheName) => {
      expectSetResults(await shared.client.setBatch(cacheName, Object.fromEntries(FRUIT)), FRUIT.length);
      expectHits(
        await batch(
          cacheName,
          FRUIT.map(([k]) => k),
        ),
        FRUIT,
      );
    }));

  it('getBatch happy path with all hits with input as Map', () =>
    withFreshCache(async (cacheName) => {
      expectSetResults(await shared.client.setBatch(cacheName, new Map(FRUIT)), FRUIT.length);
      expectHits(
        await batch(
          cacheName,
          FRUIT.map(([k]) => k),
        ),
        FRUIT,
      );
    }));

  it('getBatch happy path with some hits and misses', () =>
    withFreshCache(async (cacheName) => {
      const animals: [string, string][] = [
        ['a', 'alligator'],
        ['b', 'bear'],
        ['c', 'cougar'],
        ['e', 'elephant'],
        ['f', 'flamingo'],
        ['g', 'gorilla'],
      ];
      expectSetResults(await shared.client.setBatch(cacheName, new Map(animals)), animals.length);
      const keys = ['a', 'b', 'c', '10', '11', '12'];
      const results = (await batch(cacheName, keys)).results();
      results.forEach((result, i) => {
        if (i < 3) expect((result as CacheGet.Hit).value()).toBe(animals[i]![1]);
        else expect(result).toBeInstanceOf(CacheGet.Miss);
      });
    }));
});
