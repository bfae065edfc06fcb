import type { CacheItemList, CacheItemView, StatePage } from '../../openapi/generated/control-types.js';
import { lengthOf } from '../cache/collection.js';
import type { EmulatorContext } from '../context.js';

// A cache's live items as the control plane shows them (GET /_emulator/caches/{cache}/items, the
// dashboard's Cache view): a page at a time, each key as text where its bytes are UTF-8.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function textOf(key: Buffer): string | null {
  try {
    return UTF8.decode(key);
  } catch {
    return null;
  }
}

export function cacheItemsOf(
  { items, clock }: Pick<EmulatorContext, 'items' | 'clock'>,
  cache: string,
  { offset, limit }: Required<StatePage>,
): CacheItemList {
  const now = clock.now();
  const all = items.view.items(now).filter((item) => item.cache === cache);
  return {
    cache,
    count: all.length,
    items: all.slice(offset, offset + limit).map(({ key, value, collection, expiresAt }): CacheItemView => ({
      key: textOf(key),
      keyBase64: key.toString('base64'),
      type: collection?.type ?? 'scalar',
      bytes: collection ? collection.bytes : value.length,
      ...(collection ? { members: lengthOf(collection) } : {}),
      ttlRemainingMs: expiresAt - now,
    })),
  };
}
