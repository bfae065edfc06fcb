import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';

// B-grpc: the least a server of the provider's `cache_client.pubsub.Pubsub` does, on the same
// @grpc/grpc-js and generated code as the emulator's gRPC door: Publish numbers the message in
// its topic and writes it to the topic's open streams; Subscribe opens with a heartbeat and then
// gets what is published. No credentials, no pages, no retention, no resume: what the gRPC
// figures set the emulator beside. And the least of `cache_client.Scs` for the SDK's cache calls the
// cache figures time: Get and Set on a map, and one write and one read of each collection type
// (no TTLs, no bounds, no types checked).

const require = createRequire(import.meta.url);

export interface RunningGrpcServer {
  /** host:port */
  grpcEndpoint: string;
  close(): Promise<void>;
}

export async function startBGrpc(): Promise<RunningGrpcServer> {
  const grpc = require('@grpc/grpc-js') as typeof Grpc;
  const { pubsub } = (require('@gomomento/generated-types/dist/cachepubsub.js') as { cache_client: typeof PubsubTypes })
    .cache_client;
  const { common } = require('@gomomento/generated-types/dist/common.js') as {
    common: { _Empty: new () => unknown };
  };
  const topics = new Map<string, { next: number; streams: Set<Grpc.ServerWritableStream<unknown, unknown>> }>();
  const topicOf = (cache: string, topic: string) => {
    const key = `${cache}\u0000${topic}`;
    let found = topics.get(key);
    if (!found) topics.set(key, (found = { next: 1, streams: new Set() }));
    return found;
  };
  const server = new grpc.Server();
  server.addService(pubsub.UnimplementedPubsubService.definition, {
    Publish(
      call: Grpc.ServerUnaryCall<PubsubTypes.pubsub._PublishRequest, unknown>,
      callback: Grpc.sendUnaryData<unknown>,
    ) {
      const { cache_name, topic, value } = call.request;
      const found = topicOf(cache_name, topic);
      const item = new pubsub._SubscriptionItem({
        item: new pubsub._TopicItem({ topic_sequence_number: found.next++, sequence_page: 1, value, publisher_id: '' }),
      });
      for (const stream of found.streams) stream.write(item);
      callback(null, new common._Empty());
    },
    Subscribe(call: Grpc.ServerWritableStream<PubsubTypes.pubsub._SubscriptionRequest, unknown>) {
      const found = topicOf(call.request.cache_name, call.request.topic);
      found.streams.add(call);
      const leave = () => found.streams.delete(call);
      call.on('cancelled', leave);
      call.on('close', leave);
      call.write(new pubsub._SubscriptionItem({ heartbeat: new pubsub._Heartbeat() }));
    },
  });
  addLeastCache(server, grpc);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    grpcEndpoint: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const { streams } of topics.values()) for (const stream of streams) stream.end();
        server.tryShutdown(() => resolve());
      }),
  };
}

/** The least Scs: a map of keys to values, and one of keys to collections, no checks. */
function addLeastCache(server: Grpc.Server, grpc: typeof Grpc): void {
  const { cache_client: scs } = require('@gomomento/generated-types/dist/cacheclient.js') as {
    cache_client: typeof import('@gomomento/generated-types/dist/cacheclient.js').cache_client;
  };
  const values = new Map<string, Uint8Array>();
  const dictionaries = new Map<string, Map<string, Uint8Array>>();
  const sets = new Map<string, Set<string>>();
  const lists = new Map<string, Uint8Array[]>();
  const sorted = new Map<string, Map<string, number>>();
  const k = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
  const got = <T>(map: Map<string, T>, key: string, make: () => T) => {
    let found = map.get(key);
    if (found === undefined) map.set(key, (found = make()));
    return found;
  };
  type Unary<Request> = (call: Grpc.ServerUnaryCall<Request, unknown>, callback: Grpc.sendUnaryData<unknown>) => void;
  const unary =
    <Request>(answer: (request: Request) => unknown): Unary<Request> =>
    (call, callback) =>
      callback(null, answer(call.request));
  const implementation: Grpc.UntypedServiceImplementation = {
    Get: unary<InstanceType<typeof scs._GetRequest>>((r) => {
      const value = values.get(k(r.cache_key));
      return value === undefined
        ? new scs._GetResponse({ result: scs.ECacheResult.Miss })
        : new scs._GetResponse({ result: scs.ECacheResult.Hit, cache_body: value });
    }),
    Set: unary<InstanceType<typeof scs._SetRequest>>((r) => {
      values.set(k(r.cache_key), r.cache_body);
      return new scs._SetResponse({ result: scs.ECacheResult.Ok });
    }),
    DictionarySet: unary<InstanceType<typeof scs._DictionarySetRequest>>((r) => {
      const fields = got(dictionaries, k(r.dictionary_name), () => new Map<string, Uint8Array>());
      for (const pair of r.items) fields.set(k(pair.field), pair.value);
      return new scs._DictionarySetResponse();
    }),
    DictionaryFetch: unary<InstanceType<typeof scs._DictionaryFetchRequest>>((r) => {
      const R = scs._DictionaryFetchResponse;
      const fields = dictionaries.get(k(r.dictionary_name));
      if (!fields) return new R({ missing: new R._Missing() });
      const items = [...fields].map(
        ([field, value]) => new scs._DictionaryFieldValuePair({ field: Buffer.from(field, 'latin1'), value }),
      );
      return new R({ found: new R._Found({ items }) });
    }),
    SetUnion: unary<InstanceType<typeof scs._SetUnionRequest>>((r) => {
      const set = got(sets, k(r.set_name), () => new Set<string>());
      for (const element of r.elements) set.add(k(element));
      return new scs._SetUnionResponse();
    }),
    SetFetch: unary<InstanceType<typeof scs._SetFetchRequest>>((r) => {
      const R = scs._SetFetchResponse;
      const set = sets.get(k(r.set_name));
      if (!set) return new R({ missing: new R._Missing() });
      return new R({ found: new R._Found({ elements: [...set].map((e) => Buffer.from(e, 'latin1')) }) });
    }),
    ListPushBack: unary<InstanceType<typeof scs._ListPushBackRequest>>((r) => {
      const list = got(lists, k(r.list_name), () => [] as Uint8Array[]);
      list.push(r.value);
      if (r.truncate_front_to_size > 0 && list.length > r.truncate_front_to_size) list.shift();
      return new scs._ListPushBackResponse({ list_length: list.length });
    }),
    ListFetch: unary<InstanceType<typeof scs._ListFetchRequest>>((r) => {
      const R = scs._ListFetchResponse;
      const list = lists.get(k(r.list_name));
      if (!list) return new R({ missing: new R._Missing() });
      return new R({ found: new R._Found({ values: list }) });
    }),
    SortedSetPut: unary<InstanceType<typeof scs._SortedSetPutRequest>>((r) => {
      const scores = got(sorted, k(r.set_name), () => new Map<string, number>());
      for (const element of r.elements) scores.set(k(element.value), element.score);
      return new scs._SortedSetPutResponse();
    }),
    SortedSetFetch: unary<InstanceType<typeof scs._SortedSetFetchRequest>>((r) => {
      const R = scs._SortedSetFetchResponse;
      const scores = sorted.get(k(r.set_name));
      if (!scores) return new R({ missing: new R._Missing() });
      // By rank, as the figure asks (its own end rank): the same answer as the emulator's, with the least work.
      const start = r.by_index.start === 'inclusive_start_index' ? r.by_index.inclusive_start_index : 0;
      const end = r.by_index.end === 'exclusive_end_index' ? r.by_index.exclusive_end_index : undefined;
      const elements = [...scores]
        .sort(([, a], [, b]) => a - b)
        .slice(start, end)
        .map(([value, score]) => new scs._SortedSetElement({ value: Buffer.from(value, 'latin1'), score }));
      return new R({ found: new R._Found({ values_with_scores: new R._Found._ValuesWithScores({ elements }) }) });
    }),
  };
  const definition = scs.UnimplementedScsService.definition as unknown as Grpc.ServiceDefinition;
  for (const method of Object.keys(definition))
    implementation[method] ??= (_call: unknown, callback: Grpc.sendUnaryData<unknown>) =>
      callback({ code: grpc.status.UNIMPLEMENTED, details: method });
  server.addService(definition, implementation);
}
