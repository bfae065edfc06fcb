import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as CacheTypes } from '@gomomento/generated-types/dist/cacheclient.js';
import type { CollectionTtl, Order, ScoreRange } from '../cache/collections.js';
import type { ItemOps } from '../cache/store.js';
import { EmulatorError } from '../errors.js';
import { foundOrMissing } from './found-or-missing.js';
import type { CacheOperation } from '../requests.js';

// `cache_client.Scs`'s collection methods (the SDK's dictionary, set, list and sorted-set calls),
// each translated to cache/collections.ts and answered in the SDK's own messages. What a call
// meets first (permission on the collection's name, the cache, faults, limits) is the `unary`
// the cache service gives, as for its scalar calls.

type Scs = typeof CacheTypes;

/** The cache service's unary method: admitted for its keys, answered by `answer`, journalled once. */
export type Unary = <Request>(
  operation: CacheOperation,
  access: 'read' | 'write',
  keysOf: (request: Request) => Buffer[],
  answer: (cache: string, request: Request, ops: ItemOps) => unknown,
) => Grpc.handleUnaryCall<Request, unknown>;

const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

export function collectionMethods(
  scs: Scs,
  unary: Unary,
  ttl: (ms: number) => number,
): Grpc.UntypedServiceImplementation {
  const ttlOf = (request: { ttl_milliseconds: number; refresh_ttl: boolean }): CollectionTtl => ({
    ttlMs: ttl(request.ttl_milliseconds),
    refresh: request.refresh_ttl,
  });
  const dictionary = (request: { dictionary_name: Uint8Array }) => [bytes(request.dictionary_name)];
  const set = (request: { set_name: Uint8Array }) => [bytes(request.set_name)];
  const list = (request: { list_name: Uint8Array }) => [bytes(request.list_name)];
  const D = scs;

  return {
    // ---- dictionaries ----
    DictionarySet: unary<CacheTypes._DictionarySetRequest>(
      'dictionary-set',
      'write',
      dictionary,
      (cache, r, { collections: ops }) => {
        ops.dictionarySet(
          cache,
          bytes(r.dictionary_name),
          r.items.map((pair) => [bytes(pair.field), bytes(pair.value)] as const),
          ttlOf(r),
        );
        return new D._DictionarySetResponse();
      },
    ),
    DictionaryGet: unary<CacheTypes._DictionaryGetRequest>(
      'dictionary-get',
      'read',
      dictionary,
      (cache, r, { collections: ops }) => {
        const R = D._DictionaryGetResponse;
        const values = ops.dictionaryGet(cache, bytes(r.dictionary_name), r.fields.map(bytes));
        if (values === undefined) return new R({ missing: new R._Missing() });
        const items = values.map((value) =>
          value === undefined
            ? new R._DictionaryGetResponsePart({ result: D.ECacheResult.Miss })
            : new R._DictionaryGetResponsePart({ result: D.ECacheResult.Hit, cache_body: value }),
        );
        return new R({ found: new R._Found({ items }) });
      },
    ),
    DictionaryFetch: unary<CacheTypes._DictionaryFetchRequest>(
      'dictionary-fetch',
      'read',
      dictionary,
      (cache, r, { collections: ops }) => {
        const R = D._DictionaryFetchResponse;
        const pairs = ops.dictionaryFetch(cache, bytes(r.dictionary_name));
        if (pairs === undefined) return new R({ missing: new R._Missing() });
        const items = pairs.map(([field, value]) => new D._DictionaryFieldValuePair({ field, value }));
        return new R({ found: new R._Found({ items }) });
      },
    ),
    DictionaryIncrement: unary<CacheTypes._DictionaryIncrementRequest>(
      'dictionary-increment',
      'write',
      dictionary,
      (cache, r, { collections: ops }) =>
        new D._DictionaryIncrementResponse({
          value: ops.dictionaryIncrement(cache, bytes(r.dictionary_name), bytes(r.field), r.amount, ttlOf(r)),
        }),
    ),
    DictionaryDelete: unary<CacheTypes._DictionaryDeleteRequest>(
      'dictionary-delete',
      'write',
      dictionary,
      (cache, r, { collections: ops }) => {
        if (r.delete === 'some') ops.dictionaryRemove(cache, bytes(r.dictionary_name), r.some.fields.map(bytes));
        else ops.remove(cache, bytes(r.dictionary_name), 'dictionary');
        return new D._DictionaryDeleteResponse();
      },
    ),
    DictionaryLength: unary<CacheTypes._DictionaryLengthRequest>(
      'dictionary-length',
      'read',
      dictionary,
      (cache, r, { collections: ops }) => {
        const length = ops.length(cache, bytes(r.dictionary_name), 'dictionary');
        return foundOrMissing(D._DictionaryLengthResponse, length, (length) => ({ length }));
      },
    ),

    // ---- sets ----
    SetUnion: unary<CacheTypes._SetUnionRequest>('set-union', 'write', set, (cache, r, { collections: ops }) => {
      ops.setAdd(cache, bytes(r.set_name), r.elements.map(bytes), ttlOf(r));
      return new D._SetUnionResponse();
    }),
    SetDifference: unary<CacheTypes._SetDifferenceRequest>(
      'set-difference',
      'write',
      set,
      (cache, r, { collections: ops }) => {
        const R = D._SetDifferenceResponse;
        const name = bytes(r.set_name);
        const existed = ops.length(cache, name, 'set') !== undefined;
        if (r.difference === 'subtrahend' && r.subtrahend.subtrahend_set === 'identity') ops.remove(cache, name, 'set');
        else if (r.difference === 'subtrahend') ops.setRemove(cache, name, r.subtrahend.set.elements.map(bytes));
        else throw new EmulatorError('invalid_parameter', 'Invalid request: SetDifference takes a subtrahend.');
        return new R(existed ? { found: new R._Found() } : { missing: new R._Missing() });
      },
    ),
    SetFetch: unary<CacheTypes._SetFetchRequest>('set-fetch', 'read', set, (cache, r, { collections: ops }) => {
      const elements = ops.setFetch(cache, bytes(r.set_name));
      return foundOrMissing(D._SetFetchResponse, elements, (elements) => ({ elements }));
    }),
    SetContains: unary<CacheTypes._SetContainsRequest>(
      'set-contains',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const contains = ops.setContains(cache, bytes(r.set_name), r.elements.map(bytes));
        return foundOrMissing(D._SetContainsResponse, contains, (contains) => ({ contains }));
      },
    ),
    SetSample: unary<CacheTypes._SetSampleRequest>('set-sample', 'read', set, (cache, r, { collections: ops }) => {
      const elements = ops.setSample(cache, bytes(r.set_name), r.limit);
      return foundOrMissing(D._SetSampleResponse, elements, (elements) => ({ elements }));
    }),
    SetPop: unary<CacheTypes._SetPopRequest>('set-pop', 'write', set, (cache, r, { collections: ops }) => {
      const elements = ops.setPop(cache, bytes(r.set_name), r.count);
      return foundOrMissing(D._SetPopResponse, elements, (elements) => ({ elements }));
    }),
    SetLength: unary<CacheTypes._SetLengthRequest>('set-length', 'read', set, (cache, r, { collections: ops }) => {
      const length = ops.length(cache, bytes(r.set_name), 'set');
      return foundOrMissing(D._SetLengthResponse, length, (length) => ({ length }));
    }),

    // ---- lists ----
    ListConcatenateFront: unary<CacheTypes._ListConcatenateFrontRequest>(
      'list-concatenate-front',
      'write',
      list,
      (cache, r, { collections: ops }) =>
        new D._ListConcatenateFrontResponse({
          list_length: ops.listConcatenate(
            cache,
            bytes(r.list_name),
            r.values.map(bytes),
            'front',
            truncation(r.truncate_back_to_size),
            ttlOf(r),
          ),
        }),
    ),
    ListConcatenateBack: unary<CacheTypes._ListConcatenateBackRequest>(
      'list-concatenate-back',
      'write',
      list,
      (cache, r, { collections: ops }) =>
        new D._ListConcatenateBackResponse({
          list_length: ops.listConcatenate(
            cache,
            bytes(r.list_name),
            r.values.map(bytes),
            'back',
            truncation(r.truncate_front_to_size),
            ttlOf(r),
          ),
        }),
    ),
    ListPushFront: unary<CacheTypes._ListPushFrontRequest>(
      'list-push-front',
      'write',
      list,
      (cache, r, { collections: ops }) =>
        new D._ListPushFrontResponse({
          list_length: ops.listConcatenate(
            cache,
            bytes(r.list_name),
            [bytes(r.value)],
            'front',
            truncation(r.truncate_back_to_size),
            ttlOf(r),
          ),
        }),
    ),
    ListPushBack: unary<CacheTypes._ListPushBackRequest>(
      'list-push-back',
      'write',
      list,
      (cache, r, { collections: ops }) =>
        new D._ListPushBackResponse({
          list_length: ops.listConcatenate(
            cache,
            bytes(r.list_name),
            [bytes(r.value)],
            'back',
            truncation(r.truncate_front_to_size),
            ttlOf(r),
          ),
        }),
    ),
    ListPopFront: unary<CacheTypes._ListPopFrontRequest>(
      'list-pop-front',
      'write',
      list,
      (cache, r, { collections: ops }) => {
        const R = D._ListPopFrontResponse;
        const name = bytes(r.list_name);
        const front = ops.listPop(cache, name, 'front');
        if (front === undefined) return new R({ missing: new R._Missing() });
        return new R({ found: new R._Found({ front, list_length: ops.length(cache, name, 'list') ?? 0 }) });
      },
    ),
    ListPopBack: unary<CacheTypes._ListPopBackRequest>(
      'list-pop-back',
      'write',
      list,
      (cache, r, { collections: ops }) => {
        const R = D._ListPopBackResponse;
        const name = bytes(r.list_name);
        const back = ops.listPop(cache, name, 'back');
        if (back === undefined) return new R({ missing: new R._Missing() });
        return new R({ found: new R._Found({ back, list_length: ops.length(cache, name, 'list') ?? 0 }) });
      },
    ),
    ListFetch: unary<CacheTypes._ListFetchRequest>('list-fetch', 'read', list, (cache, r, { collections: ops }) => {
      const values = ops.listFetch(
        cache,
        bytes(r.list_name),
        r.start_index === 'inclusive_start' ? r.inclusive_start : undefined,
        r.end_index === 'exclusive_end' ? r.exclusive_end : undefined,
      );
      return foundOrMissing(D._ListFetchResponse, values, (values) => ({ values }));
    }),
    ListRetain: unary<CacheTypes._ListRetainRequest>('list-retain', 'write', list, (cache, r, { collections: ops }) => {
      const name = bytes(r.list_name);
      ops.listRetain(
        cache,
        name,
        r.start_index === 'inclusive_start' ? r.inclusive_start : undefined,
        r.end_index === 'exclusive_end' ? r.exclusive_end : undefined,
        ttlOf(r),
      );
      const length = ops.length(cache, name, 'list');
      return foundOrMissing(D._ListRetainResponse, length, (length) => ({ list_length: length }));
    }),
    ListRemove: unary<CacheTypes._ListRemoveRequest>('list-remove', 'write', list, (cache, r, { collections: ops }) => {
      const name = bytes(r.list_name);
      ops.listRemove(cache, name, bytes(r.all_elements_with_value));
      const length = ops.length(cache, name, 'list');
      return foundOrMissing(D._ListRemoveResponse, length, (length) => ({ list_length: length }));
    }),
    ListLength: unary<CacheTypes._ListLengthRequest>('list-length', 'read', list, (cache, r, { collections: ops }) => {
      const length = ops.length(cache, bytes(r.list_name), 'list');
      return foundOrMissing(D._ListLengthResponse, length, (length) => ({ length }));
    }),

    // ---- sorted sets ----
    SortedSetPut: unary<CacheTypes._SortedSetPutRequest>(
      'sorted-set-put',
      'write',
      set,
      (cache, r, { collections: ops }) => {
        ops.sortedSetPut(
          cache,
          bytes(r.set_name),
          r.elements.map((e) => [bytes(e.value), e.score] as const),
          ttlOf(r),
        );
        return new D._SortedSetPutResponse();
      },
    ),
    SortedSetFetch: unary<CacheTypes._SortedSetFetchRequest>(
      'sorted-set-fetch',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const R = D._SortedSetFetchResponse;
        const order: Order = r.order === D._SortedSetFetchRequest.Order.DESCENDING ? 'descending' : 'ascending';
        const name = bytes(r.set_name);
        const found =
          r.range === 'by_score'
            ? ops.sortedSetFetchByScore(
                cache,
                name,
                order,
                {
                  ...(r.by_score.min === 'min_score' ? { min: r.by_score.min_score } : {}),
                  ...(r.by_score.max === 'max_score' ? { max: r.by_score.max_score } : {}),
                },
                r.by_score.offset,
                r.by_score.count < 0 ? undefined : r.by_score.count,
              )
            : ops.sortedSetFetchByRank(
                cache,
                name,
                order,
                r.by_index.start === 'inclusive_start_index' ? r.by_index.inclusive_start_index : undefined,
                r.by_index.end === 'exclusive_end_index' ? r.by_index.exclusive_end_index : undefined,
              );
        if (found === undefined) return new R({ missing: new R._Missing() });
        const elements = found.map(([value, score]) => new D._SortedSetElement({ value, score }));
        return new R({
          found: new R._Found(
            r.with_scores
              ? { values_with_scores: new R._Found._ValuesWithScores({ elements }) }
              : { values: new R._Found._Values({ values: found.map(([value]) => value) }) },
          ),
        });
      },
    ),
    SortedSetGetScore: unary<CacheTypes._SortedSetGetScoreRequest>(
      'sorted-set-get-score',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const R = D._SortedSetGetScoreResponse;
        const scores = ops.sortedSetGetScores(cache, bytes(r.set_name), r.values.map(bytes));
        if (scores === undefined) return new R({ missing: new R._SortedSetMissing() });
        const elements = scores.map((score) =>
          score === undefined
            ? new R._SortedSetGetScoreResponsePart({ result: D.ECacheResult.Miss })
            : new R._SortedSetGetScoreResponsePart({ result: D.ECacheResult.Hit, score }),
        );
        return new R({ found: new R._SortedSetFound({ elements }) });
      },
    ),
    SortedSetGetRank: unary<CacheTypes._SortedSetGetRankRequest>(
      'sorted-set-get-rank',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const R = D._SortedSetGetRankResponse;
        const order: Order = r.order === D._SortedSetGetRankRequest.Order.DESCENDING ? 'descending' : 'ascending';
        const rank = ops.sortedSetGetRank(cache, bytes(r.set_name), bytes(r.value), order);
        if (rank === undefined) return new R({ missing: new R._SortedSetMissing() });
        return new R({
          element_rank:
            rank === null
              ? new R._RankResponsePart({ result: D.ECacheResult.Miss })
              : new R._RankResponsePart({ result: D.ECacheResult.Hit, rank }),
        });
      },
    ),
    SortedSetIncrement: unary<CacheTypes._SortedSetIncrementRequest>(
      'sorted-set-increment',
      'write',
      set,
      (cache, r, { collections: ops }) =>
        new D._SortedSetIncrementResponse({
          score: ops.sortedSetIncrement(cache, bytes(r.set_name), bytes(r.value), r.amount, ttlOf(r)),
        }),
    ),
    SortedSetRemove: unary<CacheTypes._SortedSetRemoveRequest>(
      'sorted-set-remove',
      'write',
      set,
      (cache, r, { collections: ops }) => {
        if (r.remove_elements === 'some') ops.sortedSetRemove(cache, bytes(r.set_name), r.some.values.map(bytes));
        else ops.remove(cache, bytes(r.set_name), 'sorted-set');
        return new D._SortedSetRemoveResponse();
      },
    ),
    SortedSetLength: unary<CacheTypes._SortedSetLengthRequest>(
      'sorted-set-length',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const length = ops.length(cache, bytes(r.set_name), 'sorted-set');
        return foundOrMissing(D._SortedSetLengthResponse, length, (length) => ({ length }));
      },
    ),
    SortedSetLengthByScore: unary<CacheTypes._SortedSetLengthByScoreRequest>(
      'sorted-set-length-by-score',
      'read',
      set,
      (cache, r, { collections: ops }) => {
        const range: ScoreRange = {
          ...(r.min === 'inclusive_min' ? { min: { score: r.inclusive_min, exclusive: false } } : {}),
          ...(r.min === 'exclusive_min' ? { min: { score: r.exclusive_min, exclusive: true } } : {}),
          ...(r.max === 'inclusive_max' ? { max: { score: r.inclusive_max, exclusive: false } } : {}),
          ...(r.max === 'exclusive_max' ? { max: { score: r.exclusive_max, exclusive: true } } : {}),
        };
        const length = ops.sortedSetLengthByScore(cache, bytes(r.set_name), range);
        return foundOrMissing(D._SortedSetLengthByScoreResponse, length, (length) => ({ length }));
      },
    ),
    SortedSetUnionStore: unary<CacheTypes._SortedSetUnionStoreRequest>(
      'sorted-set-union-store',
      'write',
      (r) => [bytes(r.set_name), ...r.sources.map((source) => bytes(source.set_name))],
      (cache, r, { collections: ops }) => {
        const A = D._SortedSetUnionStoreRequest.AggregateFunction;
        const aggregate = r.aggregate === A.MIN ? 'min' : r.aggregate === A.MAX ? 'max' : 'sum';
        const length = ops.sortedSetUnionStore(
          cache,
          bytes(r.set_name),
          r.sources.map((source) => ({ name: bytes(source.set_name), weight: source.weight })),
          aggregate,
          ttl(r.ttl_milliseconds),
        );
        return new D._SortedSetUnionStoreResponse({ length });
      },
    ),
  };
}

/** A truncate-to-size field: 0 is none. */
const truncation = (size: number) => (size > 0 ? size : undefined);
