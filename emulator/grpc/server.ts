import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import type { Principal } from '../auth/authenticator.js';
import type { Access } from '../auth/permissions.js';
import type { EmulatorContext } from '../context.js';
import { resourceNameLength } from '../documents.js';
import { EmulatorError } from '../errors.js';
import type { Effect, RequestFacts, ServiceOperation } from '../requests.js';
import type { MessageValue } from '../topics/message.js';
import { grpcFailureOf } from './status.js';
import { TopicSubscription, type SubscriptionSink } from './subscription.js';

// The gRPC front door: `cache_client.pubsub.Pubsub` (Publish, Subscribe) as the provider's SDKs
// speak it, plaintext HTTP/2 like momento-local. The messages and the service definition are the
// provider's own published generated code (@gomomento/generated-types, the same the JavaScript SDK
// uses: one wire format, nothing restated), served by @grpc/grpc-js; both are loaded only when
// the port is on. It only translates: the same authenticator, permissions, caches, fault rules,
// chaos, account limits and topics decide, as for the HTTP API.

const require = createRequire(import.meta.url);
type PubsubModule = typeof PubsubTypes.pubsub;

export interface GrpcDoor {
  /** The internal loopback port the server listens on. */
  port: number;
  /** Ends every subscription stream (the SDKs resubscribe): after a reset, a loaded snapshot, a stop. */
  endStreams(): void;
  close(): Promise<void>;
}

/** An empty credential is what `CredentialProvider.forMomentoLocal()` sends: full access, as momento-local gives. */
const ANONYMOUS: Principal = { kind: 'apiKey' };

/** A resource name as the HTTP API's path takes it (the contract's ResourceName). */
function nameOf(what: string, value: string): string {
  const { min, max } = resourceNameLength;
  if (value.length < min || value.length > max)
    throw new EmulatorError('invalid_parameter', `Invalid request: ${what} must be ${min} to ${max} characters.`);
  return value;
}

/** The gRPC server on an internal loopback port (lazy-listener.ts passes the public port's connections to it). */
export async function startGrpcDoor(context: EmulatorContext): Promise<GrpcDoor> {
  const grpc = require('@grpc/grpc-js') as typeof Grpc;
  const { pubsub } = (
    require('@gomomento/generated-types/dist/cachepubsub.js') as typeof PubsubTypes & {
      cache_client: { pubsub: PubsubModule };
    }
  ).cache_client;
  const { common } = require('@gomomento/generated-types/dist/common.js') as {
    common: { _Empty: new () => unknown };
  };
  const { auth, store, faults, limits, settings, clock } = context;
  const streams = new Set<{ end(): void }>();

  const principalOf = async (metadata: Grpc.Metadata): Promise<Principal> => {
    const [value] = metadata.get('authorization');
    const credential = typeof value === 'string' ? value : (value?.toString('utf8') ?? '');
    if (credential === '') return ANONYMOUS;
    return auth.known(credential) ?? (await auth.authenticate(credential));
  };

  /** The checks an HTTP request meets before its handler: permission, the cache, faults, limits. */
  const admit = async (
    operation: ServiceOperation,
    access: Access,
    metadata: Grpc.Metadata,
    cache: string,
    topic: string,
    end: EventEmitter,
  ): Promise<void> => {
    const principal = await principalOf(metadata);
    auth.authorize(principal, access, cache, topic);
    if (!store.hasCache(cache)) throw new EmulatorError('cache_not_found', `The cache '${cache}' does not exist.`);
    const facts: RequestFacts = {
      operation,
      cache,
      topic,
      tokenId: principal.kind === 'token' ? principal.tokenId : undefined,
    };
    if (faults.active) {
      const decision = await faults.decide(facts);
      if (decision.effect) await applyEffect(decision.effect);
    }
    if (limits.active) {
      const effect = await limits.admit(facts, end);
      if (effect) await applyEffect(effect);
    }
  };

  const serviceError = (error: unknown): Partial<Grpc.StatusObject> => {
    const failure = grpcFailureOf(error);
    const metadata = new grpc.Metadata();
    for (const [key, value] of Object.entries(failure.metadata)) metadata.set(key, value);
    return { code: failure.code, details: failure.details, metadata };
  };

  const implementation = {
    Publish(
      call: Grpc.ServerUnaryCall<PubsubTypes.pubsub._PublishRequest, unknown>,
      callback: Grpc.sendUnaryData<unknown>,
    ): void {
      const end = new EventEmitter();
      (async () => {
        const request = call.request;
        const cache = nameOf('cache_name', request.cache_name);
        const topic = nameOf('topic', request.topic);
        await admit('publish', 'publish', call.metadata, cache, topic, end);
        const value = valueOf(request.value);
        const size = 'text' in value ? Buffer.byteLength(value.text) : value.binary.byteLength;
        if (size > settings.payloadLimitBytes) throw new EmulatorError('payload_too_large');
        await store.publish(cache, topic, value);
        callback(null, new common._Empty());
      })()
        .catch((error: unknown) => callback(serviceError(error)))
        .finally(() => end.emit('close'));
    },

    Subscribe(call: Grpc.ServerWritableStream<PubsubTypes.pubsub._SubscriptionRequest, unknown>): void {
      const end = new EventEmitter();
      let subscription: TopicSubscription | undefined;
      const finish = () => {
        subscription?.end();
        streams.delete(stream);
        end.emit('close');
      };
      const stream = {
        end: () => {
          finish();
          call.end();
        },
      };
      streams.add(stream);
      call.on('cancelled', finish);
      call.on('close', finish);
      (async () => {
        const request = call.request;
        const cache = nameOf('cache_name', request.cache_name);
        const topic = nameOf('topic', request.topic);
        await admit('subscribe', 'subscribe', call.metadata, cache, topic, end);
        if (call.cancelled || !streams.has(stream)) return;
        const sink: SubscriptionSink = {
          item: (sequenceNumber, page, value) =>
            call.write(
              new pubsub._SubscriptionItem({
                item: new pubsub._TopicItem({
                  topic_sequence_number: sequenceNumber,
                  sequence_page: page,
                  value: new pubsub._TopicValue(
                    'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary, 'base64') },
                  ),
                  publisher_id: '',
                }),
              }),
            ),
          discontinuity: (d) =>
            call.write(
              new pubsub._SubscriptionItem({
                discontinuity: new pubsub._Discontinuity({
                  last_topic_sequence: d.last_topic_sequence,
                  new_topic_sequence: d.new_topic_sequence,
                  new_sequence_page: d.new_sequence_page,
                }),
              }),
            ),
          heartbeat: () => call.write(new pubsub._SubscriptionItem({ heartbeat: new pubsub._Heartbeat() })),
          get writable() {
            return call.writableLength < call.writableHighWaterMark;
          },
          onDrain: (resume) => call.once('drain', resume),
        };
        subscription = new TopicSubscription(
          store.topic(cache, topic),
          {
            sequenceNumber: request.resume_at_topic_sequence_number,
            sequencePage: request.sequence_page,
          },
          sink,
          settings.grpcHeartbeatMs,
          () => clock.now(),
        );
        subscription.start();
      })().catch((error: unknown) => {
        finish();
        // grpc-js ends a server stream with the status of the error it is given as an event.
        call.emit('error', serviceError(error));
      });
    },
  };

  const server = new grpc.Server();
  server.addService(pubsub.UnimplementedPubsubService.definition, implementation);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    port: bound,
    endStreams() {
      for (const stream of [...streams]) stream.end();
    },
    close() {
      for (const stream of [...streams]) stream.end();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 500);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

/** A fault's or a limit's effect on a gRPC call: hold it (real time), then fail it. */
async function applyEffect(effect: Effect): Promise<void> {
  if (effect.delayMs) await new Promise((resolve) => setTimeout(resolve, effect.delayMs));
  if (effect.error) throw effect.error;
  if (effect.drop) throw new EmulatorError('service_unavailable', 'The connection was dropped (a fault).');
}

function valueOf(value: PubsubTypes.pubsub._TopicValue | undefined): MessageValue {
  if (value?.has_binary) return { binary: value.binary };
  return { text: value?.text ?? '' };
}
