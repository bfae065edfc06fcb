// The cache's collection types as plain data: a dictionary (field -> value), a set of elements,
// a list of values, a sorted set (element -> score). Members are bytes; a Map or Set keys them by
// their bytes read one character per byte (`memberKey`), so every byte sequence is its own member,
// in the order it was first added. Each collection keeps the bytes its members hold, for the
// cache's byte bound. Pure: no clock, no store.

export type CollectionType = 'dictionary' | 'set' | 'list' | 'sorted-set';

export interface Dictionary {
  readonly type: 'dictionary';
  readonly fields: Map<string, Buffer>;
  bytes: number;
}

export interface CacheSet {
  readonly type: 'set';
  readonly elements: Set<string>;
  bytes: number;
}

export interface List {
  readonly type: 'list';
  values: Buffer[];
  bytes: number;
}

export interface SortedSet {
  readonly type: 'sorted-set';
  readonly scores: Map<string, number>;
  bytes: number;
}

export type Collection = Dictionary | CacheSet | List | SortedSet;
export type CollectionOf<T extends CollectionType> = Extract<Collection, { type: T }>;

/** A member's bytes as a Map or Set key (one character per byte). */
export const memberKey = (bytes: Buffer): string => bytes.toString('latin1');
/** A member key's bytes. */
export const memberBytes = (key: string): Buffer => Buffer.from(key, 'latin1');

/** A new, empty collection of a type. */
export function emptyCollection<T extends CollectionType>(type: T): CollectionOf<T> {
  switch (type) {
    case 'dictionary':
      return { type, fields: new Map(), bytes: 0 } as Dictionary as CollectionOf<T>;
    case 'set':
      return { type, elements: new Set(), bytes: 0 } as CacheSet as CollectionOf<T>;
    case 'list':
      return { type, values: [], bytes: 0 } as List as CollectionOf<T>;
    default:
      return { type: 'sorted-set', scores: new Map(), bytes: 0 } as SortedSet as CollectionOf<T>;
  }
}

/** How many members it has. */
export function lengthOf(collection: Collection): number {
  switch (collection.type) {
    case 'dictionary':
      return collection.fields.size;
    case 'set':
      return collection.elements.size;
    case 'list':
      return collection.values.length;
    case 'sorted-set':
      return collection.scores.size;
  }
}

/** A sorted set's score takes this many bytes of the item's size. */
export const SCORE_BYTES = 8;
