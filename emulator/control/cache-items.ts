import type {
  CacheBytes,
  CacheItemDetail,
  CacheItemList,
  CacheItemView,
  CacheMember,
  StatePage,
} from '../../openapi/generated/control-types.js';
import { lengthOf, memberBytes, type Collection } from '../cache/collection.js';
import type { ItemView } from '../cache/items.js';
import type { EmulatorContext } from '../context.js';

// A cache's live items as the control plane shows them (GET /_emulator/caches/{cache}/items and
// /items/{key}, the dashboard's Cache view): a page at a time, keys, values and members as text
// where their bytes are UTF-8 and always as base64.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Buffer): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

const bytesOf = (bytes: Buffer): CacheBytes => ({ text: textOf(bytes), base64: bytes.toString('base64') });

function viewOf({ key, value, collection, expiresAt }: ItemView, now: number): CacheItemView {
  return {
    key: textOf(key),
    keyBase64: key.toString('base64'),
    type: collection?.type ?? 'scalar',
    bytes: collection ? collection.bytes : value.length,
    ...(collection ? { members: lengthOf(collection) } : {}),
    ttlRemainingMs: expiresAt - now,
  };
}

export function cacheItemsOf(
  { items, clock }: Pick<EmulatorContext, 'items' | 'clock'>,
  cache: string,
  { offset, limit }: Required<StatePage>,
): CacheItemList {
  const now = clock.now();
  const all = items.items(now).filter((item) => item.cache === cache);
  return { cache, count: all.length, items: all.slice(offset, offset + limit).map((item) => viewOf(item, now)) };
}

/** One live item, a collection's members a page at a time; undefined when the cache has no such item. */
export function cacheItemOf(
  { items, clock }: Pick<EmulatorContext, 'items' | 'clock'>,
  cache: string,
  key: Buffer,
  { offset, limit }: Required<StatePage>,
): CacheItemDetail | undefined {
  const now = clock.now();
  const stored = items.item(cache, key, now);
  if (stored === undefined) return undefined;
  const item = viewOf({ cache, key, ...stored }, now);
  if (!stored.collection) return { cache, item, value: bytesOf(stored.value), memberCount: 0, members: [] };
  const members = membersOf(stored.collection);
  return { cache, item, memberCount: members.length, members: members.slice(offset, offset + limit).map((m) => m()) };
}

/** A collection's members in their order, each made into its view only when it is on the page. */
function membersOf(collection: Collection): (() => CacheMember)[] {
  switch (collection.type) {
    case 'dictionary':
      return [...collection.fields].map(([field, value]) => () => ({
        member: bytesOf(memberBytes(field)),
        value: bytesOf(value),
      }));
    case 'set':
      return [...collection.elements].map((element) => () => ({ member: bytesOf(memberBytes(element)) }));
    case 'list':
      return collection.values.map((value) => () => ({ member: bytesOf(value) }));
    case 'sorted-set':
      return [...collection.scores]
        .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
        .map(([element, score]) => () => ({ member: bytesOf(memberBytes(element)), score }));
  }
}
