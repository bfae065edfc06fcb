import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import type { CollectionType } from './collection.js';
import type { CacheItems, StoredItem } from './items.js';

// The cache's scalar operations, once for every door (the cache HTTP API, the SDK's
// `cache_client.Scs` over gRPC): plain keys, values and milliseconds in, plain results out, each
// decided on the emulator's clock (a virtual clock expires items). What a door checks first
// (permission, the cache, faults, limits) is admission's; what it answers is the door's.

/** The bounds every size and duration meets (x-emulator-cache-bounds in openapi/topics.yaml). */
export const CACHE_BOUNDS = {
  /** The largest value: the provider's default item size limit. */
  maxValueBytes: 5 * 1024 * 1024,
  maxKeyBytes: 64 * 1024,
  /** The most live items across every cache. */
  maxItems: 100_000,
  /** The most bytes (keys and values) live items hold. */
  maxTotalBytes: 256 * 1024 * 1024,
  /** The longest TTL: a year. */
  maxTtlMs: 365 * 24 * 3600 * 1000,
  /** The most members one collection holds (its bytes, members and keys, are bounded as a value's). */
  maxMembers: 100_000,
} as const;

/** A condition of the SetIf family (the SDK's setIfAbsent, setIfEqual, ...). */
export type SetCondition =
  | { kind: 'absent' }
  | { kind: 'present' }
  | { kind: 'equal'; value: Buffer }
  | { kind: 'not-equal'; value: Buffer }
  | { kind: 'present-and-not-equal'; value: Buffer }
  | { kind: 'absent-or-equal'; value: Buffer };

/** A condition on the stored value's hash (the SDK's setIfPresentAndHashEqual, ...). */
export type HashCondition =
  | { kind: 'unconditional' }
  | { kind: 'present-and-hash-equal'; hash: Buffer }
  | { kind: 'present-and-not-hash-equal'; hash: Buffer }
  | { kind: 'absent-or-hash-equal'; hash: Buffer }
  | { kind: 'absent-or-not-hash-equal'; hash: Buffer };

export type TtlChange =
  { kind: 'overwrite'; ttlMs: number } | { kind: 'increase'; ttlMs: number } | { kind: 'decrease'; ttlMs: number };

/** The hash GetWithHash answers and the hash conditions compare: a digest of the value. */
export function hashOf(value: Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}

export function requireTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0 || ttlMs > CACHE_BOUNDS.maxTtlMs)
    throw new EmulatorError(
      'invalid_parameter',
      `Invalid request: a TTL must be a whole number of milliseconds from 1 to ${CACHE_BOUNDS.maxTtlMs} (a year).`,
    );
}

export function requireKey(key: Buffer): void {
  if (key.length === 0) throw new EmulatorError('invalid_parameter', 'Invalid request: the key is empty.');
  if (key.length > CACHE_BOUNDS.maxKeyBytes)
    throw new EmulatorError(
      'invalid_parameter',
      `Invalid request: a key may be at most ${CACHE_BOUNDS.maxKeyBytes} bytes (this one is ${key.length}).`,
    );
}

function requireValue(value: Buffer): void {
  if (value.length > CACHE_BOUNDS.maxValueBytes)
    throw new EmulatorError(
      'payload_too_large',
      `The value is ${value.length} bytes; an item may hold at most ${CACHE_BOUNDS.maxValueBytes} bytes.`,
    );
}

/** A value Increment reads as an integer. */
export const INTEGER = /^-?\d{1,16}$/;

export class CacheOperations {
  constructor(
    private readonly items: CacheItems,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  get(cache: string, key: Buffer): Buffer | undefined {
    requireKey(key);
    return scalarOf(this.items.get(cache, key, this.clock.now()));
  }

  getWithHash(cache: string, key: Buffer): { value: Buffer; hash: Buffer } | undefined {
    const value = this.get(cache, key);
    return value === undefined ? undefined : { value, hash: hashOf(value) };
  }

  set(cache: string, key: Buffer, value: Buffer, ttlMs: number): void {
    requireKey(key);
    requireValue(value);
    requireTtl(ttlMs);
    this.store(cache, key, value, ttlMs);
  }

  /** SetIf and SetIfNotExists: true when the value was stored. */
  setIf(cache: string, key: Buffer, value: Buffer, ttlMs: number, condition: SetCondition): boolean {
    requireKey(key);
    requireValue(value);
    requireTtl(ttlMs);
    const current = scalarOf(this.items.get(cache, key, this.clock.now()));
    if (!setConditionHolds(condition, current)) return false;
    this.store(cache, key, value, ttlMs);
    return true;
  }

  /** SetWithHash and the hash conditions: the new value's hash when stored, else undefined. */
  setIfHash(cache: string, key: Buffer, value: Buffer, ttlMs: number, condition: HashCondition): Buffer | undefined {
    requireKey(key);
    requireValue(value);
    requireTtl(ttlMs);
    const current = scalarOf(this.items.get(cache, key, this.clock.now()));
    if (!hashConditionHolds(condition, current === undefined ? undefined : hashOf(current))) return undefined;
    this.store(cache, key, value, ttlMs);
    return hashOf(value);
  }

  /** True when a live item was deleted; deleting an absent key is no error. */
  delete(cache: string, key: Buffer): boolean {
    requireKey(key);
    return this.items.delete(cache, key, this.clock.now());
  }

  /** Adds `amount` to the integer stored at the key (0 when absent): the new value. */
  increment(cache: string, key: Buffer, amount: number, ttlMs: number): number {
    requireKey(key);
    requireTtl(ttlMs);
    const current = scalarOf(this.items.get(cache, key, this.clock.now()))?.toString('latin1');
    if (current !== undefined && !INTEGER.test(current))
      throw new EmulatorError('failed_precondition', 'Increment failed: the stored value is not an integer.');
    const next = Number(current ?? 0) + amount;
    if (!Number.isSafeInteger(next))
      throw new EmulatorError('failed_precondition', 'Increment failed: the result is out of the safe integer range.');
    this.store(cache, key, Buffer.from(String(next), 'latin1'), ttlMs);
    return next;
  }

  keysExist(cache: string, keys: readonly Buffer[]): boolean[] {
    const now = this.clock.now();
    return keys.map((key) => {
      requireKey(key);
      return this.items.get(cache, key, now) !== undefined;
    });
  }

  /** The remaining TTL in milliseconds; undefined when the key is absent. */
  remainingTtl(cache: string, key: Buffer): number | undefined {
    requireKey(key);
    const now = this.clock.now();
    const item = this.items.get(cache, key, now);
    return item === undefined ? undefined : item.expiresAt - now;
  }

  /** The item's type; undefined when the key is absent. */
  itemType(cache: string, key: Buffer): 'scalar' | CollectionType | undefined {
    requireKey(key);
    const item = this.items.get(cache, key, this.clock.now());
    return item === undefined ? undefined : (item.collection?.type ?? 'scalar');
  }

  /**
   * UpdateTtl, IncreaseTtl, DecreaseTtl: 'set' or 'missing'. An increase (decrease) to a TTL not
   * above (below) the item's remaining one is refused FAILED_PRECONDITION, as the live service
   * answers it an error (the SDK's own integration tests, x-emulator-cache).
   */
  updateTtl(cache: string, key: Buffer, change: TtlChange): 'set' | 'missing' {
    requireKey(key);
    requireTtl(change.ttlMs);
    const now = this.clock.now();
    const item = this.items.get(cache, key, now);
    if (item === undefined) return 'missing';
    const remaining = item.expiresAt - now;
    if (
      (change.kind === 'increase' && change.ttlMs <= remaining) ||
      (change.kind === 'decrease' && change.ttlMs >= remaining)
    )
      throw new EmulatorError(
        'failed_precondition',
        `The new TTL (${change.ttlMs} ms) is not ${change.kind === 'increase' ? 'above' : 'below'} the item's remaining TTL (${remaining} ms).`,
      );
    this.items.set(cache, key, { ...item, expiresAt: now + change.ttlMs });
    return 'set';
  }

  private store(cache: string, key: Buffer, value: Buffer, ttlMs: number): void {
    const now = this.clock.now();
    const replaced = this.items.get(cache, key, now);
    makeRoom(this.items, now, replaced === undefined, value.length - (replaced?.size ?? 0));
    const item: StoredItem = { value: Buffer.from(value), expiresAt: now + ttlMs, size: value.length };
    this.items.set(cache, key, item);
  }
}

/**
 * Room for an item (`added`: a new key) growing by `growth` bytes, within the bounds: expired
 * items are dropped when touched, and past a bound every expired one goes before it refuses.
 */
export function makeRoom(items: CacheItems, now: number, added: boolean, growth: number): void {
  const full = () =>
    (added && items.count() >= CACHE_BOUNDS.maxItems) || items.bytes() + growth > CACHE_BOUNDS.maxTotalBytes;
  if (full()) items.sweep(now);
  if (added && items.count() >= CACHE_BOUNDS.maxItems)
    throw new EmulatorError(
      'limit_exceeded',
      `The emulator holds at most ${CACHE_BOUNDS.maxItems} cache items: delete some, or flush a cache.`,
    );
  if (items.bytes() + growth > CACHE_BOUNDS.maxTotalBytes)
    throw new EmulatorError(
      'limit_exceeded',
      `The emulator holds at most ${CACHE_BOUNDS.maxTotalBytes} bytes of cache items: delete some, or flush a cache.`,
    );
}

/** The answer to a call on a key that holds another type of item (x-emulator-cache-types). */
export function wrongType(held: 'scalar' | CollectionType, wanted: 'scalar' | CollectionType): EmulatorError {
  return new EmulatorError(
    'failed_precondition',
    `The item at this key is ${articled(held)}; this call works on ${articled(wanted)}.`,
  );
}
const articled = (type: string) => (type === 'scalar' ? 'a scalar value' : `a ${type.replace('-', ' ')}`);

/** A scalar item's bytes; undefined when absent; a collection is the wrong type. */
function scalarOf(item: StoredItem | undefined): Buffer | undefined {
  if (item?.collection) throw wrongType(item.collection.type, 'scalar');
  return item?.value;
}

function setConditionHolds(condition: SetCondition, current: Buffer | undefined): boolean {
  switch (condition.kind) {
    case 'absent':
      return current === undefined;
    case 'present':
      return current !== undefined;
    case 'equal':
      return current !== undefined && current.equals(condition.value);
    case 'not-equal':
      return current === undefined || !current.equals(condition.value);
    case 'present-and-not-equal':
      return current !== undefined && !current.equals(condition.value);
    case 'absent-or-equal':
      return current === undefined || current.equals(condition.value);
  }
}

function hashConditionHolds(condition: HashCondition, current: Buffer | undefined): boolean {
  switch (condition.kind) {
    case 'unconditional':
      return true;
    case 'present-and-hash-equal':
      return current !== undefined && current.equals(condition.hash);
    case 'present-and-not-hash-equal':
      return current !== undefined && !current.equals(condition.hash);
    case 'absent-or-hash-equal':
      return current === undefined || current.equals(condition.hash);
    case 'absent-or-not-hash-equal':
      return current === undefined || !current.equals(condition.hash);
  }
}
