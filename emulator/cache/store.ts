import type { Clock } from '../clock.js';
import { CollectionOperations } from './collections.js';
import { InMemoryCacheItems, type ItemView, type StoredItem } from './items.js';
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

export interface ItemUsage {
  count: number;
  bytes: number;
}

/** An item store's reads, answered from the items this process holds (`itemsHere`), whichever store it is. */
export abstract class ItemReads {
  protected abstract readonly itemsHere: InMemoryCacheItems;

  item(cache: string, key: Buffer, now: number): Readonly<StoredItem> | undefined {
    return this.itemsHere.get(cache, key, now);
  }

  items(now: number): ItemView[] {
    return this.itemsHere.items(now);
  }

  usage(now: number): ItemUsage {
    this.itemsHere.sweep(now);
    return { count: this.itemsHere.count(), bytes: this.itemsHere.bytes() };
  }
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
  // Reads, as this process holds the items (a shared store's copy is kept in step with it).
  /** The item at a key, undefined when absent or expired at `now`: to read, never to change. */
  item(cache: string, key: Buffer, now: number): Readonly<StoredItem> | undefined;
  /** Every item live at `now`, in the order they were set (state, snapshots, listings). */
  items(now: number): ItemView[];
  /** How many items are live at `now`, and the bytes they hold. */
  usage(now: number): ItemUsage;
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
export class MemoryItemStore extends ItemReads implements ItemStore {
  protected readonly itemsHere = new InMemoryCacheItems();
  private readonly ops: ItemOps;

  constructor(clock: Pick<Clock, 'now'>) {
    super();
    this.ops = {
      cache: new CacheOperations(this.itemsHere, clock),
      collections: new CollectionOperations(this.itemsHere, clock),
    };
  }

  async run<T>(_cache: string, _keys: readonly Buffer[], op: (ops: ItemOps) => T): Promise<T> {
    return op(this.ops);
  }

  clear(cache: string): void {
    this.itemsHere.clear(cache);
  }

  clearAll(): void {
    this.itemsHere.clearAll();
  }

  replace(items: readonly LoadedItem[]): void {
    this.itemsHere.clearAll();
    for (const { cache, key, item } of items) this.itemsHere.set(cache, key, item);
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
