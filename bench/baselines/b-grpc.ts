import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';

// B-grpc: the least a server of the provider's `cache_client.pubsub.Pubsub` does, on the same
// @grpc/grpc-js and generated code as the emulator's gRPC door: Publish numbers the message in
// its topic and writes it to the topic's open streams; Subscribe opens with a heartbeat and then
// gets what is published. No credentials, no pages, no retention, no resume: what the gRPC
// figures set the emulator beside.

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
