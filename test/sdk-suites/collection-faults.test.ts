import {
  CacheDictionaryFetch,
  CacheDictionarySetField,
  CacheListFetch,
  CacheListPushBack,
  CacheSetAddElement,
  CacheSetFetch,
  CacheSortedSetFetch,
  CacheSortedSetPutElement,
  MomentoErrorCode,
} from '@gomomento/sdk';
import { MomentoRPCMethod } from '@gomomento/sdk/dist/src/config/retry/momento-rpc-method.js';
import { describe, expect, it } from 'vitest';
import { withCacheClient } from './sdk.js';

// momento-local's fault metadata on the collection calls: the SDK names each call's RPC as
// momento-local does (`dictionary-set`, `list-fetch`, ...), and the emulator's collection
// operations carry the same names, so an error injected for one call fails that call and no other.

type Call = (cache: Parameters<Parameters<typeof withCacheClient>[2]>[0], cacheName: string) => Promise<unknown>;

const cases: [string, MomentoRPCMethod, Call, Call, { Error: abstract new (...args: never[]) => unknown }][] = [
  [
    'dictionaryFetch',
    MomentoRPCMethod.DictionaryFetch,
    (c, n) => c.dictionaryFetch(n, 'd'),
    (c, n) => c.dictionarySetField(n, 'd', 'f', 'v'),
    CacheDictionaryFetch,
  ],
  [
    'setFetch',
    MomentoRPCMethod.SetFetch,
    (c, n) => c.setFetch(n, 's'),
    (c, n) => c.setAddElement(n, 's', 'e'),
    CacheSetFetch,
  ],
  [
    'listFetch',
    MomentoRPCMethod.ListFetch,
    (c, n) => c.listFetch(n, 'l'),
    (c, n) => c.listPushBack(n, 'l', 'v'),
    CacheListFetch,
  ],
  [
    'sortedSetFetchByRank',
    MomentoRPCMethod.SortedSetFetch,
    (c, n) => c.sortedSetFetchByRank(n, 'z'),
    (c, n) => c.sortedSetPutElement(n, 'z', 'm', 1),
    CacheSortedSetFetch,
  ],
];

describe('momento-local fault metadata on collection calls', () => {
  for (const [name, rpc, failing, other, Response] of cases)
    it(`an error for ${rpc} fails ${name} and not the write beside it`, async () => {
      await withCacheClient(
        (c) => c,
        { returnError: MomentoErrorCode.SERVER_UNAVAILABLE, errorRpcs: [rpc] },
        async (cache, cacheName) => {
          const written = await other(cache, cacheName);
          expect(
            [
              CacheDictionarySetField.Success,
              CacheSetAddElement.Success,
              CacheListPushBack.Success,
              CacheSortedSetPutElement.Success,
            ].some((Success) => written instanceof Success),
            String(written),
          ).toBe(true);
          const response = await failing(cache, cacheName);
          expect(response).toBeInstanceOf(Response.Error);
          expect((response as { errorCode(): string }).errorCode()).toBe(MomentoErrorCode.SERVER_UNAVAILABLE);
        },
      );
    });
});
