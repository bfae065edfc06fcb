import type { SnapshotCollection, SnapshotItem } from '../../openapi/generated/control-types.js';
import { memberBytes, memberKey, SCORE_BYTES, type Collection } from '../cache/collection.js';
import type { ItemView, StoredItem } from '../cache/items.js';

// Cache items to and from a snapshot: keys, values and members as base64 of their bytes; a
// collection's members in their order; the TTL as what is left of it.

const b64 = (bytes: Buffer) => bytes.toString('base64');
const fromB64 = (text: string) => Buffer.from(text, 'base64');

export function itemToSnapshot({ cache, key, value, collection, expiresAt }: ItemView, now: number): SnapshotItem {
  return {
    cache,
    key: b64(key),
    value: b64(value),
    ttlRemainingMs: expiresAt - now,
    ...(collection ? { collection: collectionToSnapshot(collection) } : {}),
  };
}

function collectionToSnapshot(collection: Collection): SnapshotCollection {
  switch (collection.type) {
    case 'dictionary':
      return {
        type: 'dictionary',
        fields: [...collection.fields].map(([field, value]) => ({ field: b64(memberBytes(field)), value: b64(value) })),
      };
    case 'set':
      return { type: 'set', elements: [...collection.elements].map((element) => b64(memberBytes(element))) };
    case 'list':
      return { type: 'list', values: collection.values.map(b64) };
    case 'sorted-set':
      return {
        type: 'sorted-set',
        elements: [...collection.scores].map(([value, score]) => ({ value: b64(memberBytes(value)), score })),
      };
  }
}

/** The stored item a snapshot's item loads as, its TTL running from `now`. */
export function itemFromSnapshot(item: SnapshotItem, now: number): StoredItem {
  const expiresAt = now + item.ttlRemainingMs;
  if (item.collection === undefined) {
    const value = fromB64(item.value);
    return { value, expiresAt, size: value.length };
  }
  const collection = collectionFromSnapshot(item.collection);
  return { value: Buffer.alloc(0), collection, expiresAt, size: collection.bytes };
}

function collectionFromSnapshot(saved: SnapshotCollection): Collection {
  switch (saved.type) {
    case 'dictionary': {
      const fields = new Map<string, Buffer>();
      let bytes = 0;
      for (const { field, value } of saved.fields) {
        const f = fromB64(field);
        const v = fromB64(value);
        fields.set(memberKey(f), v);
        bytes += f.length + v.length;
      }
      return { type: 'dictionary', fields, bytes };
    }
    case 'set': {
      const elements = new Set(saved.elements.map((e) => memberKey(fromB64(e))));
      return { type: 'set', elements, bytes: [...elements].reduce((n, e) => n + e.length, 0) };
    }
    case 'list': {
      const values = saved.values.map(fromB64);
      return { type: 'list', values, bytes: values.reduce((n, v) => n + v.length, 0) };
    }
    case 'sorted-set': {
      const scores = new Map(saved.elements.map(({ value, score }) => [memberKey(fromB64(value)), score] as const));
      return {
        type: 'sorted-set',
        scores,
        bytes: [...scores.keys()].reduce((n, v) => n + v.length + SCORE_BYTES, 0),
      };
    }
  }
}
