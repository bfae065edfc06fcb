import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import {
  CacheClient,
  Configurations,
  CredentialProvider,
  TopicClient,
  TopicConfigurations,
  TopicPublish,
  TopicSubscribe,
  type TopicItem,
} from '@gomomento/sdk';
import { serveParent } from '../ipc.js';

// The provider's SDK as the load of the gRPC figures, in its own process so that it does not
// share the server's event loop: publishes in parallel loops for a while (throughput), publishes
// one at a time to its own open subscription (publish -> delivery latency), and holds open many
// bare Subscribe streams (memory per parked stream; plain @grpc/grpc-js calls, as an SDK holds
// one per subscription, without an SDK client each).

const require = createRequire(import.meta.url);
const CACHE = 'default-cache';

function sdkFor(endpoint: string): TopicClient {
  const [hostname, port] = endpoint.split(':');
  return new TopicClient({
    configuration: TopicConfigurations.Default.latest(),
    credentialProvider: CredentialProvider.forMomentoLocal({ hostname: hostname!, port: Number(port) }),
  });
}

/** The cache calls the cache figures time, each one SDK call; `i` makes a write's member new (lists and the rest stay bounded by the key count). */
const CACHE_CALLS = {
  set: (c: CacheClient, i: number) => c.set(CACHE, `key-${i % 1000}`, 'a value of the cache figure'),
  get: (c: CacheClient) => c.get(CACHE, 'key-0'),
  dictionarySetField: (c: CacheClient, i: number) =>
    c.dictionarySetField(CACHE, 'dictionary', `field-${i % 1000}`, 'value'),
  dictionaryFetch: (c: CacheClient) => c.dictionaryFetch(CACHE, 'dictionary'),
  setAddElement: (c: CacheClient, i: number) => c.setAddElement(CACHE, 'set', `element-${i % 1000}`),
  setFetch: (c: CacheClient) => c.setFetch(CACHE, 'set'),
  listPushBack: (c: CacheClient, i: number) =>
    c.listPushBack(CACHE, 'list', `value-${i}`, { truncateFrontToSize: 1000 }),
  listFetch: (c: CacheClient) => c.listFetch(CACHE, 'list'),
  sortedSetPutElement: (c: CacheClient, i: number) => c.sortedSetPutElement(CACHE, 'sorted', `element-${i % 1000}`, i),
  sortedSetFetchByRank: (c: CacheClient) => c.sortedSetFetchByRank(CACHE, 'sorted', { endRank: 10 }),
} satisfies Record<string, (cache: CacheClient, i: number) => Promise<unknown>>;
export type CacheCall = keyof typeof CACHE_CALLS;

let streams: Grpc.ClientReadableStream<unknown>[] = [];
let streamClient: Grpc.Client | undefined;

serveParent({
  /** `concurrency` loops publishing for `seconds`; how many succeeded and failed. */
  publish: async (args: { endpoint: string; seconds: number; concurrency: number; topic: string }) => {
    const sdk = sdkFor(args.endpoint);
    await sdk.publish(CACHE, args.topic, 'warm-up');
    const until = performance.now() + args.seconds * 1000;
    let count = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: args.concurrency }, async () => {
        while (performance.now() < until) {
          const response = await sdk.publish(CACHE, args.topic, 'a message of the throughput figure');
          if (response instanceof TopicPublish.Success) count++;
          else failures++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { count, failures, seconds };
  },

  /** `count` publishes one at a time, each timed until the SDK's own subscription delivers it (ms). */
  latency: async (args: { endpoint: string; count: number; topic: string }) => {
    const sdk = sdkFor(args.endpoint);
    let wake: ((item: TopicItem) => void) | undefined;
    let heartbeat: (() => void) | undefined;
    const opened = new Promise<void>((resolve) => (heartbeat = resolve));
    const subscription = await sdk.subscribe(CACHE, args.topic, {
      onItem: (item) => wake?.(item),
      onHeartbeat: () => heartbeat?.(),
    });
    if (!(subscription instanceof TopicSubscribe.Subscription))
      throw new Error(`subscribe failed: ${String(subscription)}`);
    await opened;
    const samples: number[] = [];
    for (let i = 0; i < args.count; i++) {
      const delivered = new Promise<TopicItem>((resolve) => (wake = resolve));
      const started = performance.now();
      await sdk.publish(CACHE, args.topic, `latency ${i}`);
      await delivered;
      samples.push(performance.now() - started);
    }
    subscription.unsubscribe();
    return samples;
  },

  /**
   * `concurrency` loops making one of the SDK's cache calls for `seconds` (CACHE_CALLS), after one
   * call of each to warm up and to make the items the reads find; how many answered without an error.
   */
  cacheCalls: async (args: { endpoint: string; seconds: number; concurrency: number; call: CacheCall }) => {
    const [hostname, port] = args.endpoint.split(':');
    const cache = await CacheClient.create({
      configuration: Configurations.Laptop.v1(),
      credentialProvider: CredentialProvider.forMomentoLocal({ hostname: hostname!, port: Number(port) }),
      defaultTtlSeconds: 600,
    });
    try {
      for (const call of Object.values(CACHE_CALLS)) await call(cache, 0);
      const run = CACHE_CALLS[args.call];
      const until = performance.now() + args.seconds * 1000;
      let count = 0;
      let failures = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: args.concurrency }, async (_, loop) => {
          for (let i = 0; performance.now() < until; i++) {
            const response = (await run(cache, loop * 1_000_000 + i)) as { type?: string };
            if (response.type === 'Error') failures++;
            else count++;
          }
        }),
      );
      return { count, failures, seconds: (performance.now() - started) / 1000 };
    } finally {
      cache.close();
    }
  },

  /** Opens `count` Subscribe streams (over `topics` topics) and resolves once each has its first message. */
  openStreams: async (args: { endpoint: string; count: number; topics: number }) => {
    const grpc = require('@grpc/grpc-js') as typeof Grpc;
    const { pubsub } = (
      require('@gomomento/generated-types/dist/cachepubsub.js') as { cache_client: typeof PubsubTypes }
    ).cache_client;
    const client = new pubsub.PubsubClient(args.endpoint, grpc.credentials.createInsecure(), {
      'grpc.max_concurrent_streams': args.count + 10,
    });
    streamClient = client;
    const firsts: Promise<void>[] = [];
    for (let i = 0; i < args.count; i++) {
      const stream = client.Subscribe(
        new pubsub._SubscriptionRequest({ cache_name: CACHE, topic: `parked-${i % args.topics}` }),
      );
      firsts.push(
        new Promise<void>((resolve, reject) => {
          stream.once('data', () => resolve());
          stream.once('error', reject);
        }),
      );
      stream.on('error', () => undefined);
      streams.push(stream);
    }
    await Promise.all(firsts);
    return streams.length;
  },

  closeStreams: () => {
    for (const stream of streams) stream.cancel();
    streams = [];
    streamClient?.close();
    streamClient = undefined;
    return true;
  },

  close: () => {
    setImmediate(() => process.exit(0));
    return true;
  },
});
