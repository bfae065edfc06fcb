import { randomUUID } from 'node:crypto';
import { CacheItemGetTtl, CollectionTtl, MomentoErrorCode } from '@gomomento/sdk';
import { expect, it, vi } from 'vitest';
import { validatesCacheName } from './sdk.js';

// What the provider's collection suites share (their ItBehavesLike... groups), as our own: each
// collection call validates its cache and collection names, misses on a collection that is not
// there, and keeps or refreshes its CollectionTtl. The TTL cases read the remaining TTL after the
// second write (what refreshing changes) and wait for the expiry, rather than sleeping.

export const uuid = (): string => randomUUID();
export const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

interface ErrorLike {
  errorCode(): string;
}

/** The cache name and the collection name ('  ' is refused by the SDK before it sends anything). */
export function validatesNames(
  kind: string,
  call: (cache: string, collection: string) => Promise<unknown>,
  cacheName: () => string,
): void {
  validatesCacheName((cache) => call(cache, uuid()));
  it(`validates its ${kind} name`, async () => {
    const response = (await call(cacheName(), '  ')) as ErrorLike;
    expect(response.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
  });
}

export function missesWhenAbsent(kind: string, call: (collection: string) => Promise<unknown>): void {
  it(`misses when the ${kind} does not exist`, async () => {
    expect(((await call(uuid())) as { is_miss?: boolean }).is_miss).toBe(true);
  });
}

/**
 * A write with a CollectionTtl: without refresh the second write keeps the first TTL (2 s), and the
 * collection is gone once it passes; with refresh the second sets it anew (10 s).
 */
export function hasCollectionTtl(
  write: (collection: string, ttl: CollectionTtl) => Promise<unknown>,
  present: (collection: string) => Promise<boolean>,
  client: () => { itemGetTtl(cache: string, key: string): Promise<CacheItemGetTtl.Response> },
  cacheName: () => string,
): void {
  const remaining = async (collection: string) => {
    const response = await client().itemGetTtl(cacheName(), collection);
    expect(response, response.toString()).toBeInstanceOf(CacheItemGetTtl.Hit);
    return (response as CacheItemGetTtl.Hit).remainingTtlMillis();
  };

  it('does not refresh with no refresh ttl', async () => {
    const collection = uuid();
    expect(
      ((await write(collection, CollectionTtl.of(2).withNoRefreshTtlOnUpdates())) as { is_success?: boolean })
        .is_success,
    ).toBe(true);
    expect(
      ((await write(collection, CollectionTtl.of(20).withNoRefreshTtlOnUpdates())) as { is_success?: boolean })
        .is_success,
    ).toBe(true);
    expect(await remaining(collection)).toBeLessThanOrEqual(2000);
    await vi.waitFor(async () => expect(await present(collection)).toBe(false), { timeout: 6000, interval: 100 });
  });

  it('refreshes with refresh ttl', async () => {
    const collection = uuid();
    expect(
      ((await write(collection, CollectionTtl.of(1).withRefreshTtlOnUpdates())) as { is_success?: boolean }).is_success,
    ).toBe(true);
    expect(
      ((await write(collection, CollectionTtl.of(10).withRefreshTtlOnUpdates())) as { is_success?: boolean })
        .is_success,
    ).toBe(true);
    expect(await remaining(collection)).toBeGreaterThan(5000);
    expect(await present(collection)).toBe(true);
  });
}
