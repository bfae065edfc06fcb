import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as CacheTypes } from '@gomomento/generated-types/dist/cacheclient.js';
import type { Principal } from '../auth/authenticator.js';
import { checkItemAccess, confirmCache, decideAdmission } from '../admission.js';
import type { HashCondition, SetCondition, TtlChange } from '../cache/operations.js';
import type { ItemOps } from '../cache/store.js';
import type { EmulatorContext } from '../context.js';
import { EmulatorError } from '../errors.js';
import { requestFacts, type Effect, type CacheOperation } from '../requests.js';
import type { CallRecord } from './calls.js';
import type { ServedService } from './admin-services.js';
import { collectionMethods, type Unary } from './collection-calls.js';
import { foundOrMissing } from './found-or-missing.js';

// `cache_client.Scs` as the provider's SDK calls it (its CacheClient): each method translates to
// the core: momento-local's fault metadata, the caller, the item's permission and the cache
// (admission.ts), fault rules and limits, then the cache's operation (cache/operations.ts; the
// collection methods in collection-calls.ts, to cache/collections.ts), answered in the SDK's own
// response messages. The SDK names the cache in the `cache` metadata. A method the emulator does
// not serve answers UNIMPLEMENTED naming itself.

const require = createRequire(import.meta.url);
type Scs = typeof CacheTypes;

/** What the service needs of the gRPC door. */
export interface CacheDoor {
  context: EmulatorContext;
  principalOf(metadata: Grpc.Metadata, record: CallRecord): Promise<Principal>;
  record(
    operation: CacheOperation,
    call: { getPeer(): string; getPath(): string; metadata: Grpc.Metadata },
    cache: string | null,
  ): CallRecord;
  applyEffect(effect: Effect, record: CallRecord, gone: EventEmitter): Promise<void>;
  serviceError(error: unknown): Partial<Grpc.StatusObject>;
}

function textOf(metadata: Grpc.Metadata, key: string): string | undefined {
  const [value] = metadata.get(key);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.toString('utf8');
}

const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

export function cacheService(door: CacheDoor): ServedService {
  const { cache_client: scs } = require('@gomomento/generated-types/dist/cacheclient.js') as { cache_client: Scs };
  const T = scs._ItemGetTypeResponse.ItemType;
  const ITEM_TYPES = {
    scalar: T.SCALAR,
    dictionary: T.DICTIONARY,
    set: T.SET,
    list: T.LIST,
    'sorted-set': T.SORTED_SET,
  };
  const { context } = door;
  const { faults, limits } = context;
  /** A TTL the call sent; none (0, proto3's unset) is the configured default. */
  const ttl = (ms: number) => (ms === 0 ? context.settings.cacheDefaultTtlMs : ms);

  /**
   * Everything a call meets before its operation, for the keys it names; resolves with its cache.
   * `end` closes when the call ends or its client cancels it (a hold ends then).
   */
  const admit = async (
    operation: CacheOperation,
    access: 'read' | 'write',
    call: { metadata: Grpc.Metadata },
    keys: readonly Buffer[],
    record: CallRecord,
    end: EventEmitter,
  ): Promise<string> => {
    const asked = faults.momentoLocal.decide((key) => textOf(call.metadata, key), operation);
    if (asked.effect) await door.applyEffect(asked.effect, record, end);
    const cache = textOf(call.metadata, 'cache');
    if (!cache)
      throw new EmulatorError(
        'invalid_parameter',
        'Invalid request: the cache name is missing (the `cache` metadata).',
      );
    const principal = await door.principalOf(call.metadata, record);
    await confirmCache(context, cache);
    for (const key of keys) checkItemAccess(context, principal, access, cache, key);
    if (faults.active || limits.active)
      await decideAdmission(context, requestFacts(operation, 'grpc', cache, '', principal), end, (effect) =>
        door.applyEffect(effect, record, end),
      );
    return cache;
  };

  /** A unary method: admitted for its keys, answered by `answer`, journalled once. */
  const unary: Unary = <Request>(
    operation: CacheOperation,
    access: 'read' | 'write',
    keysOf: (request: Request) => Buffer[],
    answer: (cache: string, request: Request, ops: ItemOps) => unknown,
  ) => {
    return (call: Grpc.ServerUnaryCall<Request, unknown>, callback: Grpc.sendUnaryData<unknown>) => {
      const record = door.record(operation, call, textOf(call.metadata, 'cache') ?? null);
      const end = new EventEmitter();
      call.once('cancelled', () => end.emit('close'));
      (async () => {
        const keys = keysOf(call.request);
        const cache = await admit(operation, access, call, keys, record, end);
        callback(null, await context.items.run(cache, keys, (ops) => answer(cache, call.request, ops)));
        record.end({ clientGone: call.cancelled });
      })()
        .catch((error: unknown) => {
          record.end(call.cancelled ? { clientGone: true } : { error });
          callback(door.serviceError(error));
        })
        .finally(() => end.emit('close'));
    };
  };

  /** A batch: admitted for all its keys at once, then one answer per item, streamed in order. */
  function batch<Request, Item>(
    operation: CacheOperation,
    access: 'read' | 'write',
    itemsOf: (request: Request) => Item[],
    keyOf: (item: Item) => Buffer,
    answer: (cache: string, item: Item, ops: ItemOps) => unknown,
  ) {
    return (call: Grpc.ServerWritableStream<Request, unknown>) => {
      const record = door.record(operation, call, textOf(call.metadata, 'cache') ?? null);
      const end = new EventEmitter();
      call.once('cancelled', () => end.emit('close'));
      (async () => {
        const list = itemsOf(call.request);
        const keys = list.map(keyOf);
        const cache = await admit(operation, access, call, keys, record, end);
        // Each item's own error (a value too large) ends the stream with its status, after the
        // answers (and the changes) of the items before it.
        const { answers, failed } = await context.items.run(cache, keys, (ops) => {
          const answers: unknown[] = [];
          try {
            for (const item of list) answers.push(answer(cache, item, ops));
          } catch (error) {
            return { answers, failed: { error } };
          }
          return { answers, failed: undefined };
        });
        for (const answered of answers) call.write(answered);
        if (failed) throw failed.error;
        call.end();
        record.end({ clientGone: call.cancelled });
      })()
        .catch((error: unknown) => {
          record.end(call.cancelled ? { clientGone: true } : { error });
          call.emit('error', door.serviceError(error));
        })
        .finally(() => end.emit('close'));
    };
  }

  const key = (request: { cache_key: Uint8Array }) => [bytes(request.cache_key)];

  const get = (cache: string, request: CacheTypes._GetRequest, { cache: items }: ItemOps) => {
    const value = items.get(cache, bytes(request.cache_key));
    return value === undefined
      ? new scs._GetResponse({ result: scs.ECacheResult.Miss })
      : new scs._GetResponse({ result: scs.ECacheResult.Hit, cache_body: value });
  };
  const set = (cache: string, request: CacheTypes._SetRequest, { cache: items }: ItemOps) => {
    items.set(cache, bytes(request.cache_key), bytes(request.cache_body), ttl(request.ttl_milliseconds));
    // `result: Ok`: the SDK reads each answer of a SetBatch stream by it (an unset one is an error).
    return new scs._SetResponse({ result: scs.ECacheResult.Ok });
  };

  const implementation: Grpc.UntypedServiceImplementation = {
    Get: unary<CacheTypes._GetRequest>('get', 'read', key, get),
    GetWithHash: unary<CacheTypes._GetWithHashRequest>(
      'get-with-hash',
      'read',
      key,
      (cache, request, { cache: items }) => {
        const found = items.getWithHash(cache, bytes(request.cache_key));
        return foundOrMissing(scs._GetWithHashResponse, found, (found) => found);
      },
    ),
    GetBatch: batch<CacheTypes._GetBatchRequest, CacheTypes._GetRequest>(
      'get-batch',
      'read',
      (request) => request.items,
      (item) => bytes(item.cache_key),
      get,
    ),
    Set: unary<CacheTypes._SetRequest>('set', 'write', key, set),
    SetBatch: batch<CacheTypes._SetBatchRequest, CacheTypes._SetRequest>(
      'set-batch',
      'write',
      (request) => request.items,
      (item) => bytes(item.cache_key),
      set,
    ),
    SetIf: unary<CacheTypes._SetIfRequest>('set-if', 'write', key, (cache, request, { cache: items }) => {
      const stored = items.setIf(
        cache,
        bytes(request.cache_key),
        bytes(request.cache_body),
        ttl(request.ttl_milliseconds),
        setConditionOf(request),
      );
      return new scs._SetIfResponse(
        stored ? { stored: new scs._SetIfResponse._Stored() } : { not_stored: new scs._SetIfResponse._NotStored() },
      );
    }),
    SetIfNotExists: unary<CacheTypes._SetIfNotExistsRequest>(
      'set-if-not-exists',
      'write',
      key,
      (cache, request, { cache: items }) => {
        const stored = items.setIf(
          cache,
          bytes(request.cache_key),
          bytes(request.cache_body),
          ttl(request.ttl_milliseconds),
          {
            kind: 'absent',
          },
        );
        return new scs._SetIfNotExistsResponse(
          stored
            ? { stored: new scs._SetIfNotExistsResponse._Stored() }
            : { not_stored: new scs._SetIfNotExistsResponse._NotStored() },
        );
      },
    ),
    SetIfHash: unary<CacheTypes._SetIfHashRequest>('set-if-hash', 'write', key, (cache, request, { cache: items }) => {
      const hash = items.setIfHash(
        cache,
        bytes(request.cache_key),
        bytes(request.cache_body),
        ttl(request.ttl_milliseconds),
        hashConditionOf(request),
      );
      return new scs._SetIfHashResponse(
        hash === undefined
          ? { not_stored: new scs._SetIfHashResponse._NotStored() }
          : { stored: new scs._SetIfHashResponse._Stored({ new_hash: hash }) },
      );
    }),
    Delete: unary<CacheTypes._DeleteRequest>('delete', 'write', key, (cache, request, { cache: items }) => {
      items.delete(cache, bytes(request.cache_key));
      return new scs._DeleteResponse();
    }),
    KeysExist: unary<CacheTypes._KeysExistRequest>(
      'keys-exist',
      'read',
      (request) => request.cache_keys.map(bytes),
      (cache, request, { cache: items }) =>
        new scs._KeysExistResponse({ exists: items.keysExist(cache, request.cache_keys.map(bytes)) }),
    ),
    Increment: unary<CacheTypes._IncrementRequest>('increment', 'write', key, (cache, request, { cache: items }) => {
      const value = items.increment(cache, bytes(request.cache_key), request.amount, ttl(request.ttl_milliseconds));
      return new scs._IncrementResponse({ value });
    }),
    UpdateTtl: unary<CacheTypes._UpdateTtlRequest>('update-ttl', 'write', key, (cache, request, { cache: items }) => {
      const outcome = items.updateTtl(cache, bytes(request.cache_key), ttlChangeOf(request));
      const R = scs._UpdateTtlResponse;
      return new R(outcome === 'set' ? { set: new R._Set() } : { missing: new R._Missing() });
    }),
    ItemGetTtl: unary<CacheTypes._ItemGetTtlRequest>(
      'item-get-ttl',
      'read',
      key,
      (cache, request, { cache: items }) => {
        const remaining = items.remainingTtl(cache, bytes(request.cache_key));
        return foundOrMissing(scs._ItemGetTtlResponse, remaining, (remaining) => ({ remaining_ttl_millis: remaining }));
      },
    ),
    ItemGetType: unary<CacheTypes._ItemGetTypeRequest>(
      'item-get-type',
      'read',
      key,
      (cache, request, { cache: items }) => {
        const type = items.itemType(cache, bytes(request.cache_key));
        return foundOrMissing(scs._ItemGetTypeResponse, type, (type) => ({ item_type: ITEM_TYPES[type] }));
      },
    ),
    ...collectionMethods(scs, unary, ttl),
  };

  const definition = scs.UnimplementedScsService.definition as unknown as Grpc.ServiceDefinition;
  for (const method of Object.keys(definition)) {
    if (method in implementation) continue;
    implementation[method] = (_call: unknown, callback?: Grpc.sendUnaryData<unknown>) => {
      const status = {
        code: 12,
        details: `The emulator does not implement cache_client.Scs/${method}.`,
      };
      if (typeof callback === 'function') callback(status);
      else (_call as EventEmitter).emit('error', status);
    };
  }
  return { definition, implementation };
}

function setConditionOf(request: CacheTypes._SetIfRequest): SetCondition {
  switch (request.condition) {
    case 'present':
      return { kind: 'present' };
    case 'absent':
      return { kind: 'absent' };
    case 'equal':
      return { kind: 'equal', value: bytes(request.equal.value_to_check) };
    case 'not_equal':
      return { kind: 'not-equal', value: bytes(request.not_equal.value_to_check) };
    case 'present_and_not_equal':
      return { kind: 'present-and-not-equal', value: bytes(request.present_and_not_equal.value_to_check) };
    case 'absent_or_equal':
      return { kind: 'absent-or-equal', value: bytes(request.absent_or_equal.value_to_check) };
    default:
      throw new EmulatorError('invalid_parameter', 'Invalid request: SetIf needs a condition.');
  }
}

function hashConditionOf(request: CacheTypes._SetIfHashRequest): HashCondition {
  switch (request.condition) {
    case 'unconditional':
      return { kind: 'unconditional' };
    case 'present_and_hash_equal':
      return { kind: 'present-and-hash-equal', hash: bytes(request.present_and_hash_equal.hash_to_check) };
    case 'present_and_not_hash_equal':
      return { kind: 'present-and-not-hash-equal', hash: bytes(request.present_and_not_hash_equal.hash_to_check) };
    case 'absent_or_hash_equal':
      return { kind: 'absent-or-hash-equal', hash: bytes(request.absent_or_hash_equal.hash_to_check) };
    case 'absent_or_not_hash_equal':
      return { kind: 'absent-or-not-hash-equal', hash: bytes(request.absent_or_not_hash_equal.hash_to_check) };
    default:
      throw new EmulatorError('invalid_parameter', 'Invalid request: SetIfHash needs a condition.');
  }
}

function ttlChangeOf(request: CacheTypes._UpdateTtlRequest): TtlChange {
  switch (request.update_ttl) {
    case 'overwrite_to_milliseconds':
      return { kind: 'overwrite', ttlMs: request.overwrite_to_milliseconds };
    case 'increase_to_milliseconds':
      return { kind: 'increase', ttlMs: request.increase_to_milliseconds };
    case 'decrease_to_milliseconds':
      return { kind: 'decrease', ttlMs: request.decrease_to_milliseconds };
    default:
      throw new EmulatorError('invalid_parameter', 'Invalid request: UpdateTtl needs a TTL.');
  }
}
