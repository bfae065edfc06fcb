import type { Clock } from '../clock.js';
import { EmulatorError } from '../errors.js';
import {
  emptyCollection,
  lengthOf,
  memberBytes,
  memberKey,
  SCORE_BYTES,
  type CollectionOf,
  type CollectionType,
} from './collection.js';
import type { CacheItems } from './items.js';
import { CACHE_BOUNDS, INTEGER, makeRoom, requireKey, requireTtl, wrongType } from './operations.js';

// The cache's collection operations (dictionaries, sets, lists, sorted sets), once for every
// door: plain names, members and milliseconds in, plain results out, on the emulator's clock. A
// write creates the collection with its TTL, or keeps the one it has unless `refresh` (the SDK's
// CollectionTtl); a collection left empty is deleted, as on the live service; a call on a key
// that holds another type is refused (wrongType). Each write checks its bounds before it changes
// anything.

/** A write's TTL: the SDK's CollectionTtl (`refresh`: the write sets the TTL anew). */
export interface CollectionTtl {
  ttlMs: number;
  refresh: boolean;
}

export type End = 'front' | 'back';
export type Order = 'ascending' | 'descending';

export interface ScoreRange {
  min?: { score: number; exclusive: boolean };
  max?: { score: number; exclusive: boolean };
}

export class CollectionOperations {
  constructor(
    private readonly items: CacheItems,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  // ---- dictionaries ----

  dictionarySet(cache: string, name: Buffer, pairs: readonly (readonly [Buffer, Buffer])[], ttl: CollectionTtl): void {
    const dictionary = this.open(cache, name, 'dictionary', ttl);
    let growth = 0;
    let added = 0;
    const seen = new Set<string>();
    for (const [field, value] of pairs) {
      const k = memberKey(field);
      const old = dictionary.collection.fields.get(k);
      growth += value.length - (old?.length ?? -field.length);
      if (old === undefined && !seen.has(k)) added++;
      seen.add(k);
    }
    this.checkRoom(dictionary, growth, added);
    for (const [field, value] of pairs) dictionary.collection.fields.set(memberKey(field), Buffer.from(value));
    dictionary.collection.bytes += growth;
    this.commit(dictionary);
  }

  dictionaryGet(cache: string, name: Buffer, fields: readonly Buffer[]): (Buffer | undefined)[] | undefined {
    const dictionary = this.read(cache, name, 'dictionary');
    return dictionary && fields.map((field) => dictionary.fields.get(memberKey(field)));
  }

  dictionaryFetch(cache: string, name: Buffer): [Buffer, Buffer][] | undefined {
    const dictionary = this.read(cache, name, 'dictionary');
    return dictionary && [...dictionary.fields].map(([field, value]) => [memberBytes(field), value]);
  }

  /** Adds `amount` to the integer at a field (0 when absent): the new value. */
  dictionaryIncrement(cache: string, name: Buffer, field: Buffer, amount: number, ttl: CollectionTtl): number {
    const dictionary = this.open(cache, name, 'dictionary', ttl);
    const k = memberKey(field);
    const current = dictionary.collection.fields.get(k)?.toString('latin1');
    if (current !== undefined && !INTEGER.test(current))
      throw new EmulatorError(
        'failed_precondition',
        'Increment failed: the field holds a value that is not an integer.',
      );
    const next = Number(current ?? 0) + amount;
    if (!Number.isSafeInteger(next))
      throw new EmulatorError('failed_precondition', 'Increment failed: the result is out of the safe integer range.');
    const value = Buffer.from(String(next), 'latin1');
    const growth = value.length - (current === undefined ? -field.length : current.length);
    this.checkRoom(dictionary, growth, current === undefined ? 1 : 0);
    dictionary.collection.fields.set(k, value);
    dictionary.collection.bytes += growth;
    this.commit(dictionary);
    return next;
  }

  dictionaryRemove(cache: string, name: Buffer, fields: readonly Buffer[]): void {
    const dictionary = this.existing(cache, name, 'dictionary');
    if (!dictionary) return;
    for (const field of fields) {
      const k = memberKey(field);
      const old = dictionary.collection.fields.get(k);
      if (old === undefined) continue;
      dictionary.collection.fields.delete(k);
      dictionary.collection.bytes -= field.length + old.length;
    }
    this.commit(dictionary);
  }

  // ---- sets ----

  setAdd(cache: string, name: Buffer, elements: readonly Buffer[], ttl: CollectionTtl): void {
    const set = this.open(cache, name, 'set', ttl);
    const fresh = [...new Set(elements.map(memberKey))].filter((k) => !set.collection.elements.has(k));
    this.checkRoom(
      set,
      fresh.reduce((n, k) => n + k.length, 0),
      fresh.length,
    );
    for (const k of fresh) set.collection.elements.add(k);
    set.collection.bytes += fresh.reduce((n, k) => n + k.length, 0);
    this.commit(set);
  }

  setRemove(cache: string, name: Buffer, elements: readonly Buffer[]): void {
    const set = this.existing(cache, name, 'set');
    if (!set) return;
    for (const element of elements) {
      const k = memberKey(element);
      if (set.collection.elements.delete(k)) set.collection.bytes -= k.length;
    }
    this.commit(set);
  }

  setFetch(cache: string, name: Buffer): Buffer[] | undefined {
    const set = this.read(cache, name, 'set');
    return set && [...set.elements].map(memberBytes);
  }

  setContains(cache: string, name: Buffer, elements: readonly Buffer[]): boolean[] | undefined {
    const set = this.read(cache, name, 'set');
    return set && elements.map((element) => set.elements.has(memberKey(element)));
  }

  /** Up to `limit` distinct elements, drawn at random. */
  setSample(cache: string, name: Buffer, limit: number): Buffer[] | undefined {
    const set = this.read(cache, name, 'set');
    return set && drawn([...set.elements], limit).map(memberBytes);
  }

  /** Removes and answers up to `count` elements, drawn at random. */
  setPop(cache: string, name: Buffer, count: number): Buffer[] | undefined {
    const set = this.existing(cache, name, 'set');
    if (!set) return undefined;
    const popped = drawn([...set.collection.elements], count);
    for (const k of popped) {
      set.collection.elements.delete(k);
      set.collection.bytes -= k.length;
    }
    this.commit(set);
    return popped.map(memberBytes);
  }

  // ---- lists ----

  /** Adds values at one end (in their order), then keeps at most `truncateTo` from the other end: the new length. */
  listConcatenate(
    cache: string,
    name: Buffer,
    values: readonly Buffer[],
    end: End,
    truncateTo: number | undefined,
    ttl: CollectionTtl,
  ): number {
    if (truncateTo !== undefined && (!Number.isSafeInteger(truncateTo) || truncateTo < 1))
      throw new EmulatorError('invalid_parameter', 'Invalid request: truncateToSize must be a positive whole number.');
    const list = this.open(cache, name, 'list', ttl);
    const held = list.collection.values;
    const copies = values.map((value) => Buffer.from(value));
    // The joined list, read without building it: the new values at their end, the old at the other.
    const at = (j: number) =>
      end === 'back'
        ? j < held.length
          ? held[j]!
          : copies[j - held.length]!
        : j < copies.length
          ? copies[j]!
          : held[j - copies.length]!;
    const total = held.length + copies.length;
    const drop = truncateTo !== undefined && total > truncateTo ? total - truncateTo : 0;
    let dropped = 0;
    for (let i = 0; i < drop; i++) dropped += at(end === 'back' ? i : total - 1 - i).length;
    const added = copies.reduce((n, v) => n + v.length, 0);
    this.checkRoom(list, added - dropped, copies.length - drop);
    if (end === 'back') {
      held.push(...copies);
      if (drop > 0) held.splice(0, drop);
    } else {
      held.unshift(...copies);
      if (drop > 0) held.splice(held.length - drop, drop);
    }
    list.collection.bytes += added - dropped;
    this.commit(list);
    return held.length;
  }

  listPop(cache: string, name: Buffer, end: End): Buffer | undefined {
    const list = this.existing(cache, name, 'list');
    if (!list) return undefined;
    const value = end === 'front' ? list.collection.values.shift()! : list.collection.values.pop()!;
    list.collection.bytes -= value.length;
    this.commit(list);
    return value;
  }

  /** Values from `start` (inclusive) to `end` (exclusive); negative positions count from the end. */
  listFetch(cache: string, name: Buffer, start?: number, end?: number): Buffer[] | undefined {
    const list = this.read(cache, name, 'list');
    return list && list.values.slice(...range(list.values.length, start, end));
  }

  /** Keeps only the values from `start` to `end` (as listFetch). */
  listRetain(
    cache: string,
    name: Buffer,
    start: number | undefined,
    end: number | undefined,
    ttl: CollectionTtl,
  ): void {
    const list = this.existing(cache, name, 'list', ttl);
    if (!list) return;
    list.collection.values = list.collection.values.slice(...range(list.collection.values.length, start, end));
    list.collection.bytes = list.collection.values.reduce((n, v) => n + v.length, 0);
    this.commit(list);
  }

  /** Removes every value equal to `value`. */
  listRemove(cache: string, name: Buffer, value: Buffer): void {
    const list = this.existing(cache, name, 'list');
    if (!list) return;
    list.collection.values = list.collection.values.filter((v) => !v.equals(value));
    list.collection.bytes = list.collection.values.reduce((n, v) => n + v.length, 0);
    this.commit(list);
  }

  // ---- sorted sets ----

  sortedSetPut(
    cache: string,
    name: Buffer,
    elements: readonly (readonly [Buffer, number])[],
    ttl: CollectionTtl,
  ): void {
    for (const [, score] of elements) requireScore(score);
    const sorted = this.open(cache, name, 'sorted-set', ttl);
    const fresh = new Set<string>();
    for (const [value] of elements) {
      const k = memberKey(value);
      if (!sorted.collection.scores.has(k)) fresh.add(k);
    }
    const growth = [...fresh].reduce((n, k) => n + k.length + SCORE_BYTES, 0);
    this.checkRoom(sorted, growth, fresh.size);
    for (const [value, score] of elements) sorted.collection.scores.set(memberKey(value), score);
    sorted.collection.bytes += growth;
    this.commit(sorted);
  }

  /** Elements by rank: from `start` (inclusive) to `end` (exclusive), negative from the end. */
  sortedSetFetchByRank(cache: string, name: Buffer, order: Order, start?: number, end?: number) {
    const sorted = this.read(cache, name, 'sorted-set');
    if (!sorted) return undefined;
    const all = ranked(sorted, order);
    return all.slice(...range(all.length, start, end)).map(([k, score]) => [memberBytes(k), score] as const);
  }

  sortedSetFetchByScore(
    cache: string,
    name: Buffer,
    order: Order,
    scores: ScoreRange,
    offset = 0,
    count?: number,
  ): (readonly [Buffer, number])[] | undefined {
    const sorted = this.read(cache, name, 'sorted-set');
    if (!sorted) return undefined;
    const inRange = ranked(sorted, order).filter(([, score]) => within(scores, score));
    return inRange
      .slice(offset, count === undefined ? undefined : offset + count)
      .map(([k, score]) => [memberBytes(k), score] as const);
  }

  sortedSetGetScores(cache: string, name: Buffer, values: readonly Buffer[]): (number | undefined)[] | undefined {
    const sorted = this.read(cache, name, 'sorted-set');
    return sorted && values.map((value) => sorted.scores.get(memberKey(value)));
  }

  /** The element's rank (0: first in `order`); undefined: the set is missing; null: the element is. */
  sortedSetGetRank(cache: string, name: Buffer, value: Buffer, order: Order): number | null | undefined {
    const sorted = this.read(cache, name, 'sorted-set');
    if (!sorted) return undefined;
    const k = memberKey(value);
    if (!sorted.scores.has(k)) return null;
    return ranked(sorted, order).findIndex(([member]) => member === k);
  }

  sortedSetIncrement(cache: string, name: Buffer, value: Buffer, amount: number, ttl: CollectionTtl): number {
    requireScore(amount);
    const sorted = this.open(cache, name, 'sorted-set', ttl);
    const k = memberKey(value);
    const old = sorted.collection.scores.get(k);
    const next = (old ?? 0) + amount;
    requireScore(next);
    this.checkRoom(sorted, old === undefined ? k.length + SCORE_BYTES : 0, old === undefined ? 1 : 0);
    sorted.collection.scores.set(k, next);
    if (old === undefined) sorted.collection.bytes += k.length + SCORE_BYTES;
    this.commit(sorted);
    return next;
  }

  sortedSetRemove(cache: string, name: Buffer, values: readonly Buffer[]): void {
    const sorted = this.existing(cache, name, 'sorted-set');
    if (!sorted) return;
    for (const value of values) {
      const k = memberKey(value);
      if (sorted.collection.scores.delete(k)) sorted.collection.bytes -= k.length + SCORE_BYTES;
    }
    this.commit(sorted);
  }

  sortedSetLengthByScore(cache: string, name: Buffer, scores: ScoreRange): number | undefined {
    const sorted = this.read(cache, name, 'sorted-set');
    return sorted && [...sorted.scores.values()].filter((score) => within(scores, score)).length;
  }

  /**
   * The union of sorted sets (missing ones add nothing), each score times its source's weight and
   * combined by `aggregate`, stored at `name` in place of what was there, with a TTL of `ttlMs`:
   * its length (an empty union deletes it).
   */
  sortedSetUnionStore(
    cache: string,
    name: Buffer,
    sources: readonly { name: Buffer; weight: number }[],
    aggregate: 'sum' | 'min' | 'max',
    ttlMs: number,
  ): number {
    requireTtl(ttlMs);
    if (sources.length === 0)
      throw new EmulatorError('invalid_parameter', 'Invalid request: a union takes at least one source sorted set.');
    const union = new Map<string, number>();
    for (const source of sources) {
      requireScore(source.weight);
      const sorted = this.read(cache, source.name, 'sorted-set');
      for (const [k, score] of sorted?.scores ?? []) {
        const weighted = score * source.weight;
        const old = union.get(k);
        union.set(
          k,
          old === undefined
            ? weighted
            : aggregate === 'sum'
              ? old + weighted
              : aggregate === 'min'
                ? Math.min(old, weighted)
                : Math.max(old, weighted),
        );
      }
    }
    for (const score of union.values()) requireScore(score);
    const now = this.clock.now();
    requireKey(name);
    const target = this.items.get(cache, name, now);
    const held = target === undefined ? undefined : (target.collection?.type ?? 'scalar');
    if (held !== undefined && held !== 'sorted-set') throw wrongType(held, 'sorted-set');
    const collection = emptyCollection('sorted-set');
    const change: Change<'sorted-set'> = {
      cache,
      name,
      now,
      collection,
      added: target === undefined,
      expiresAt: now + ttlMs,
    };
    const bytes = [...union.keys()].reduce((n, k) => n + k.length + SCORE_BYTES, 0);
    this.checkRoom(change, bytes, union.size);
    for (const [k, score] of union) collection.scores.set(k, score);
    collection.bytes = bytes;
    this.commit(change);
    return union.size;
  }

  // ---- any collection ----

  /** How many members; undefined when the collection is missing. */
  length(cache: string, name: Buffer, type: CollectionType): number | undefined {
    const collection = this.read(cache, name, type);
    return collection && lengthOf(collection);
  }

  /** Deletes the whole collection (a missing one is no error). */
  remove(cache: string, name: Buffer, type: CollectionType): void {
    if (this.read(cache, name, type)) this.items.delete(cache, name, this.clock.now());
  }

  /** The collection at a key, for reading; undefined when absent; another type is refused. */
  private read<T extends CollectionType>(cache: string, name: Buffer, type: T): CollectionOf<T> | undefined {
    requireKey(name);
    const item = this.items.get(cache, name, this.clock.now());
    if (item === undefined) return undefined;
    const held = item.collection?.type ?? 'scalar';
    if (held !== type) throw wrongType(held, type);
    return item.collection as CollectionOf<T>;
  }

  /** A collection to change, made empty when absent (its TTL from `ttl`). */
  private open<T extends CollectionType>(cache: string, name: Buffer, type: T, ttl: CollectionTtl): Change<T> {
    requireTtl(ttl.ttlMs);
    const now = this.clock.now();
    const collection = this.read(cache, name, type);
    const expiresAt = collection === undefined || ttl.refresh ? now + ttl.ttlMs : this.expiryOf(cache, name, now);
    return {
      cache,
      name,
      now,
      collection: collection ?? emptyCollection(type),
      added: collection === undefined,
      expiresAt,
    };
  }

  /** A collection to change only when it exists (removals); `ttl` refreshes it when asked. */
  private existing<T extends CollectionType>(
    cache: string,
    name: Buffer,
    type: T,
    ttl?: CollectionTtl,
  ): Change<T> | undefined {
    if (ttl) requireTtl(ttl.ttlMs);
    const now = this.clock.now();
    const collection = this.read(cache, name, type);
    if (collection === undefined) return undefined;
    const expiresAt = ttl?.refresh ? now + ttl.ttlMs : this.expiryOf(cache, name, now);
    return { cache, name, now, collection, added: false, expiresAt };
  }

  private expiryOf(cache: string, name: Buffer, now: number): number {
    return this.items.get(cache, name, now)!.expiresAt;
  }

  /** Refuses a change past the bounds, before anything changes. */
  private checkRoom<T extends CollectionType>(change: Change<T>, growth: number, addedMembers: number): void {
    const members = lengthOf(change.collection) + addedMembers;
    if (members > CACHE_BOUNDS.maxMembers)
      throw new EmulatorError(
        'limit_exceeded',
        `A collection holds at most ${CACHE_BOUNDS.maxMembers} members (this one would hold ${members}).`,
      );
    const bytes = change.collection.bytes + growth;
    if (bytes > CACHE_BOUNDS.maxValueBytes)
      throw new EmulatorError(
        'payload_too_large',
        `The ${change.collection.type} would hold ${bytes} bytes; an item may hold at most ${CACHE_BOUNDS.maxValueBytes} bytes.`,
      );
    makeRoom(this.items, change.now, change.added, change.added ? bytes : growth);
  }

  /** Stores the changed collection with its TTL and size; an empty one is deleted. */
  private commit<T extends CollectionType>(change: Change<T>): void {
    const { cache, name, now, collection, expiresAt } = change;
    if (lengthOf(collection) === 0) {
      this.items.delete(cache, name, now);
      return;
    }
    this.items.set(cache, name, { value: EMPTY, collection, expiresAt, size: collection.bytes });
  }
}

interface Change<T extends CollectionType> {
  cache: string;
  name: Buffer;
  now: number;
  collection: CollectionOf<T>;
  /** A new item: it counts against the item bound. */
  added: boolean;
  expiresAt: number;
}

const EMPTY = Buffer.alloc(0);

/** `[from, to)` of a list of `length` for a start and end that may be negative or absent. */
function range(length: number, start?: number, end?: number): [number, number] {
  const at = (position: number | undefined, fallback: number) =>
    position === undefined ? fallback : position < 0 ? Math.max(0, length + position) : Math.min(position, length);
  return [at(start, 0), at(end, length)];
}

/** Up to `count` distinct members, drawn at random (Fisher–Yates over a copy). */
function drawn(members: string[], count: number): string[] {
  const take = Math.max(0, Math.min(count, members.length));
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(Math.random() * (members.length - i));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return members.slice(0, take);
}

/** A sorted set's members by score, ties by their bytes; descending reverses both. */
function ranked(sorted: CollectionOf<'sorted-set'>, order: Order): [string, number][] {
  const all = [...sorted.scores].sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0));
  return order === 'ascending' ? all : all.reverse();
}

function within({ min, max }: ScoreRange, score: number): boolean {
  if (min && (min.exclusive ? score <= min.score : score < min.score)) return false;
  if (max && (max.exclusive ? score >= max.score : score > max.score)) return false;
  return true;
}

function requireScore(score: number): void {
  if (!Number.isFinite(score))
    throw new EmulatorError('invalid_parameter', `Invalid request: a score must be a finite number (not ${score}).`);
}
