import type { Clock } from '../clock.js';
import { CollectionOperations } from './collections.js';
import { InMemoryCacheItems, type CacheItems, type StoredItem } from './items.js';
import { CacheOperations } from './operations.js';

// The cache's items behind the backend's seam: a call's operation (cache/operations.ts,
// cache/collections.ts) runs once, on the items at the keys it names, whichever door it came
// through. In memory the operations work on the items themselves; a shared store (Redis,
// redis/cache-items.ts) runs them on the keys as read from Redis and keeps the change only if no
// other replica changed those keys meanwhile (else it reads them again and runs it again).

/** The operations, on the items a call may touch. */
export interface ItemOps {
  readonly cache: CacheOperations;
  readonly collections: CollectionOperations;
}

/** An item to load (a snapshot restored). */
export interface LoadedItem {
  cache: string;
  key: Buffer;
  item: StoredItem;
}

export interface ItemStore {
  /**
   * Runs `op` on the items at `keys` of `cache` (every key it reads or writes) as one atomic
   * change; resolves with what it returned, or rejects with what it threw (nothing changed then).
   */
  run<T>(cache: string, keys: readonly Buffer[], op: (ops: ItemOps) => T): Promise<T>;
  /** Every item as this process knows it (state, snapshots, listings): on a shared store, kept in step with it. */
  readonly view: Pick<CacheItems, 'get' | 'count' | 'bytes' | 'sweep' | 'items'>;
  /** Removes every item of a cache (FlushCache, a deleted cache). */
  clear(cache: string): void;
  /** Removes every item (a reset). */
  clearAll(): void;
  /** Replaces every item with these (a snapshot loaded). */
  replace(items: readonly LoadedItem[]): void;
  /** Resolves once the changes asked of a shared store by clear, clearAll and replace are made and seen here. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The items in this process: each operation runs on them at once. */
export class MemoryItemStore implements ItemStore {
  private readonly items = new InMemoryCacheItems();
  private readonly ops: ItemOps;

  constructor(clock: Pick<Clock, 'now'>) {
    this.ops = {
      cache: new CacheOperations(this.items, clock),
      collections: new CollectionOperations(this.items, clock),
    };
  }

  get view(): ItemStore['view'] {
    return this.items;
  }

  async run<T>(_cache: string, _keys: readonly Buffer[], op: (ops: ItemOps) => T): Promise<T> {
    return op(this.ops);
  }

  clear(cache: string): void {
    this.items.clear(cache);
  }

  clearAll(): void {
    this.items.clearAll();
  }

  replace(items: readonly LoadedItem[]): void {
    this.items.clearAll();
    for (const { cache, key, item } of items) this.items.set(cache, key, item);
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
