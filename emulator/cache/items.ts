// The cache's items, as storage and nothing more: plain keys and bytes in, plain data out, each
// item with its expiry on the emulator's clock (cache/operations.ts decides; it reads `now`).
// An item past its expiry is never answered: it is dropped when it is next touched, and swept
// when the store is full.

import type { Collection } from './collection.js';

/** One stored item: a scalar's bytes, or a collection's members (collection.ts). */
export interface StoredItem {
  /** A scalar's bytes; empty for a collection. */
  readonly value: Buffer;
  /** A dictionary, set, list or sorted set; absent for a scalar. */
  readonly collection?: Collection;
  /** Clock reading (ms) at which it expires. */
  readonly expiresAt: number;
  /** The bytes it holds (its key aside) when it was set: a collection changes in place, so its size is taken then. */
  readonly size: number;
}

/** An item as the state, snapshots and the dashboard see it. */
export interface ItemView {
  cache: string;
  key: Buffer;
  value: Buffer;
  collection?: Collection;
  expiresAt: number;
}

export interface CacheItems {
  /** The live item at a key; undefined when absent or expired at `now`. */
  get(cache: string, key: Buffer, now: number): StoredItem | undefined;
  set(cache: string, key: Buffer, item: StoredItem): void;
  /** True when a live item was removed. */
  delete(cache: string, key: Buffer, now: number): boolean;
  /** Removes every item of a cache (FlushCache, a deleted cache). */
  clear(cache: string): void;
  /** Removes every item of every cache (a reset). */
  clearAll(): void;
  /** Items held, all caches (expired ones not yet dropped included: `sweep` first for live ones only). */
  count(): number;
  /** Bytes held (keys and values), as `count`. */
  bytes(): number;
  /** Drops every item expired at `now`. */
  sweep(now: number): void;
  /** Live items, in the order they were set. */
  items(now: number): ItemView[];
}

/** A key as a Map key: one character per byte, so every byte sequence is its own string. */
const mapKey = (key: Buffer) => key.toString('latin1');

export class InMemoryCacheItems implements CacheItems {
  private readonly caches = new Map<string, Map<string, StoredItem>>();
  private held = 0;
  private size = 0;

  get(cache: string, key: Buffer, now: number): StoredItem | undefined {
    const items = this.caches.get(cache);
    const k = mapKey(key);
    const item = items?.get(k);
    if (item === undefined) return undefined;
    if (item.expiresAt > now) return item;
    this.remove(items!, k, item);
    return undefined;
  }

  set(cache: string, key: Buffer, item: StoredItem): void {
    let items = this.caches.get(cache);
    if (items === undefined) this.caches.set(cache, (items = new Map<string, StoredItem>()));
    const k = mapKey(key);
    const old = items.get(k);
    if (old !== undefined) this.held -= k.length + old.size;
    else this.size += 1;
    // Set anew: it moves to the end of the order.
    items.delete(k);
    items.set(k, item);
    this.held += k.length + item.size;
  }

  delete(cache: string, key: Buffer, now: number): boolean {
    const items = this.caches.get(cache);
    const k = mapKey(key);
    const item = items?.get(k);
    if (item === undefined) return false;
    this.remove(items!, k, item);
    return item.expiresAt > now;
  }

  clear(cache: string): void {
    const items = this.caches.get(cache);
    if (items === undefined) return;
    for (const [k, item] of items) this.held -= k.length + item.size;
    this.size -= items.size;
    this.caches.delete(cache);
  }

  clearAll(): void {
    this.caches.clear();
    this.held = 0;
    this.size = 0;
  }

  count(): number {
    return this.size;
  }

  bytes(): number {
    return this.held;
  }

  items(now: number): ItemView[] {
    this.sweep(now);
    const out: ItemView[] = [];
    for (const [cache, items] of this.caches)
      for (const [k, item] of items)
        out.push({
          cache,
          key: Buffer.from(k, 'latin1'),
          value: item.value,
          ...(item.collection ? { collection: item.collection } : {}),
          expiresAt: item.expiresAt,
        });
    return out;
  }

  /** Drops every expired item. */
  sweep(now: number): void {
    for (const items of this.caches.values())
      for (const [k, item] of items) if (item.expiresAt <= now) this.remove(items, k, item);
  }

  private remove(items: Map<string, StoredItem>, k: string, item: StoredItem): void {
    items.delete(k);
    this.held -= k.length + item.size;
    this.size -= 1;
  }
}
