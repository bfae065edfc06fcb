import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import type { Principal } from '../auth/authenticator.js';
import type { Access } from '../auth/permissions.js';
import type { EmulatorContext } from '../context.js';
import { resourceNameLength } from '../documents.js';
import { EmulatorError, shuttingDown } from '../errors.js';
import type { SubscribeCursor } from '../exchange.js';
import {
  journalledAs,
  requestFacts,
  type CacheOperation,
  type Effect,
  type RequestFacts,
  type ServiceOperation,
} from '../requests.js';
import type { MessageValue } from '../topics/message.js';
import type { TopicStore } from '../topics/store.js';
import type { MetadataDecision } from '../faults/momento-local.js';
import { adminServices, type AdminControls } from './admin-services.js';
import { cacheService } from './cache-service.js';
import { clientIdentity } from '../recording.js';
import { publishMessage } from '../service/publish.js';
import { cursorOf, waitingRefusal } from '../service/subscribe.js';
import { WAITING_SUBSCRIBERS } from '../limits/account-limits.js';
import { checkAccess, confirmCache, decideAdmission } from '../admission.js';
import { callRecorder, type AdminOperation, type CallRecord } from './calls.js';
import { grpcFailureOf } from './status.js';
import { applyEffect as applyEffectOnce, type ClientGone } from '../service/effects.js';
import type { Delays } from '../faults/delay.js';
import type { DeliveryWatch } from '../faults/deliveries.js';
import { Subscription, type SubscriptionSink } from '../service/subscription.js';
import { ADMIN_KEY_HEADER, adminKeyVerifier } from '../auth/admin-key.js';
import { DOOR_METADATA, WEB_DOOR } from './doors.js';

// The gRPC door: `cache_client.pubsub.Pubsub` (Publish, Subscribe) as the provider's SDKs speak
// it, plaintext HTTP/2 like momento-local. The messages and the service definition are the
// provider's own published generated code (@gomomento/generated-types, the same the JavaScript SDK
// uses: one wire format, nothing restated), served by @grpc/grpc-js; both are loaded only when
// the port is on. It only translates, to and from the core (core.ts): admission.ts decides,
// service/effects.ts holds a delay, service/publish.ts publishes, a Subscribe is the core's one
// Subscription (service/subscription.ts) with a sink that writes the stream's messages, and the
// SDK's set-up calls are control operations (control/controls.ts).

const require = createRequire(import.meta.url);
type PubsubModule = typeof PubsubTypes.pubsub;

export interface GrpcDoor {
  /** The internal loopback port the server listens on. */
  port: number;
  close(): Promise<void>;
}

/** What admission decided of a call: its facts, who called, and momento-local's stream error if any. */
interface Admitted {
  facts: RequestFacts;
  principal: Principal;
  client: string;
  streamError?: MetadataDecision['streamError'];
  /** The "after N items" fault rules a subscribe counts towards. */
  deliveries?: DeliveryWatch;
}

/** The cursor's parts as `_SubscriptionRequest` names them. */
const CURSOR_NAMES = { number: 'resume_at_topic_sequence_number', page: 'sequence_page' };

/**
 * An empty credential is what `CredentialProvider.forMomentoLocal()` sends: on the native door,
 * full access to topics as momento-local gives (the control methods while no admin key is set).
 * Never on gRPC-web: a browser page gets what the HTTP API gives it, which needs a credential.
 */
const ANONYMOUS: Principal = { kind: 'apiKey' };

/** A resource name as the HTTP API's path takes it (the contract's ResourceName). */
function nameOf(what: string, value: string): string {
  const { min, max } = resourceNameLength;
  if (value.length < min || value.length > max)
    throw new EmulatorError('invalid_parameter', `Invalid request: ${what} must be ${min} to ${max} characters.`);
  return value;
}

/** What the door needs of the control plane: the SDK's set-up calls (tokens, caches). */
export type GrpcControls = AdminControls;

/** The gRPC server on an internal loopback port (lazy-listener.ts passes the public port's connections to it). */
export async function startGrpcDoor(context: EmulatorContext, controls: GrpcControls): Promise<GrpcDoor> {
  const grpc = require('@grpc/grpc-js') as typeof Grpc;
  const { pubsub } = (
    require('@gomomento/generated-types/dist/cachepubsub.js') as typeof PubsubTypes & {
      cache_client: { pubsub: PubsubModule };
    }
  ).cache_client;
  const { common } = require('@gomomento/generated-types/dist/common.js') as {
    common: { _Empty: new () => unknown };
  };
  const { auth, faults, limits, settings, clock } = context;
  // Either backend's: a Publish call awaits the number (at once in memory).
  const store: TopicStore = context.store;
  const streams = new Set<{ cache: string; end(): void; fail(error: unknown): void }>();

  const recorder = callRecorder(context.events, clock, auth);
  const openRecord = (
    operation: ServiceOperation,
    call: { getPeer(): string; metadata: Grpc.Metadata; request: { cache_name: string; topic: string } },
    cursor: SubscribeCursor | null,
  ): CallRecord =>
    recorder.open({
      operation,
      path: `/cache_client.pubsub.Pubsub/${operation === 'publish' ? 'Publish' : 'Subscribe'}`,
      peer: call.getPeer(),
      cache: call.request.cache_name,
      topic: call.request.topic,
      cursor,
      credentialPresent: credentialOf(call.metadata) !== '',
    });

  const principalOf = async (metadata: Grpc.Metadata, record: CallRecord, inBody = ''): Promise<Principal> => {
    const credential = credentialOf(metadata) || inBody;
    if (credential === '' && textOf(metadata, DOOR_METADATA) === WEB_DOOR)
      throw new EmulatorError(
        'missing_token',
        "No auth token: a gRPC-web call comes from a web page, which needs a token or an API key (only the native gRPC door takes forMomentoLocal's empty credential).",
      );
    if (credential === '' && settings.grpcEmptyToken === 'refuse')
      throw new EmulatorError(
        'missing_token',
        'No auth token: this emulator refuses gRPC calls without one (--grpc-empty-token refuse).',
      );
    if (credential === '') {
      record.client('', ANONYMOUS);
      return ANONYMOUS;
    }
    try {
      const principal = auth.known(credential) ?? (await auth.authenticate(credential));
      record.client(credential, principal);
      return principal;
    } catch (error) {
      record.refused(credential);
      throw error;
    }
  };

  /**
   * What an HTTP request meets before its operation (admission.ts: permission, the cache, faults,
   * limits), after momento-local's fault metadata; what that asks of a stream is returned.
   */
  const admit = async (
    operation: ServiceOperation,
    access: Access,
    metadata: Grpc.Metadata,
    cache: string,
    topic: string,
    end: EventEmitter,
    record: CallRecord,
  ): Promise<Admitted> => {
    const asked = faults.momentoLocal.decide((key) => textOf(metadata, key), operation);
    if (asked.effect) await applyEffect(asked.effect, record, faults.delays, end);
    const principal = await principalOf(metadata, record);
    await confirmCache(context, cache);
    checkAccess(context, principal, access, cache, topic);
    const facts = requestFacts(operation, 'grpc', cache, topic, principal);
    const deliveries =
      faults.active || limits.active
        ? await decideAdmission(context, facts, end, (effect) => applyEffect(effect, record, faults.delays, end))
        : undefined;
    const client = clientIdentity(credentialOf(metadata), principal, auth);
    return {
      facts,
      principal,
      client,
      ...(asked.streamError ? { streamError: asked.streamError } : {}),
      ...(deliveries ? { deliveries } : {}),
    };
  };

  const adminKey = settings.adminKey === undefined ? undefined : adminKeyVerifier(settings.adminKey);
  /**
   * The control methods (tokens, caches) need an API key or, when one is set, the admin key (in
   * `x-emulator-admin-key`), on every door; forMomentoLocal's empty credential only on the
   * native door while no admin key is set, as momento-local gives. A token never.
   */
  const authorizeControl = async (metadata: Grpc.Metadata, record: CallRecord, inBody = ''): Promise<void> => {
    const givenAdminKey = textOf(metadata, ADMIN_KEY_HEADER);
    if (adminKey && givenAdminKey !== undefined) {
      adminKey(givenAdminKey);
      if ((credentialOf(metadata) || inBody) === '') return record.client('', ANONYMOUS);
    }
    const principal = await principalOf(metadata, record, inBody);
    if (principal.kind !== 'apiKey')
      throw new EmulatorError('permission_denied', 'Only an API key (or the admin key) may call this: not a token.');
    if (principal === ANONYMOUS && adminKey && givenAdminKey === undefined)
      throw new EmulatorError(
        'admin_key_required',
        'This emulator has an admin key: without a credential, the control methods (tokens, caches) need it in the x-emulator-admin-key metadata; or send an API key.',
      );
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
      // The client leaving ends a hold (a fault's delay), as a closed response does on HTTP.
      call.once('cancelled', () => end.emit('close'));
      const request = call.request;
      const record = openRecord('publish', call, null);
      (async () => {
        const cache = nameOf('cache_name', request.cache_name);
        const topic = nameOf('topic', request.topic);
        const { principal } = await admit('publish', 'publish', call.metadata, cache, topic, end, record);
        const value = valueOf(request.value);
        const size = 'text' in value ? Buffer.byteLength(value.text) : value.binary.byteLength;
        await publishMessage(store, settings.payloadLimitBytes, cache, topic, value, size, principal);
        callback(null, new common._Empty());
        record.end({ clientGone: call.cancelled });
      })()
        .catch((error: unknown) => {
          record.end(call.cancelled ? { clientGone: true } : { error });
          callback(serviceError(error));
        })
        .finally(() => end.emit('close'));
    },

    Subscribe(call: Grpc.ServerWritableStream<PubsubTypes.pubsub._SubscriptionRequest, unknown>): void {
      const end = new EventEmitter();
      const request = call.request;
      const record = openRecord('subscribe', call, {
        sequenceNumber: request.resume_at_topic_sequence_number,
        sequencePage: request.sequence_page,
      });
      let subscription: Subscription | undefined;
      const finish = (outcome: { error?: unknown; clientGone?: boolean } = {}) => {
        if (!streams.delete(stream)) return;
        subscription?.abandon();
        record.end(outcome);
        end.emit('close');
      };
      const stream = {
        cache: request.cache_name,
        end: () => {
          finish();
          call.end();
        },
        fail: (error: unknown) => fail(error),
      };
      /** Ends the stream with an error's status (once; nothing after it is sent). */
      const fail = (error: unknown): void => {
        if (!streams.has(stream)) return;
        finish({ error });
        // grpc-js ends a server stream with the status of the error it is given as an event.
        call.emit('error', serviceError(error));
      };
      streams.add(stream);
      call.on('cancelled', () => finish({ clientGone: true }));
      call.on('close', () => finish());
      (async () => {
        const cache = nameOf('cache_name', request.cache_name);
        const topic = nameOf('topic', request.topic);
        const cursor = cursorOf(request.resume_at_topic_sequence_number, request.sequence_page, CURSOR_NAMES);
        const { facts, client, streamError, deliveries, principal } = await admit(
          'subscribe',
          'subscribe',
          call.metadata,
          cache,
          topic,
          end,
          record,
        );
        if (call.cancelled || !streams.has(stream)) return;
        // A stream waits for its whole life: it counts against --max-waiting as it opens.
        const refused = waitingRefusal(context);
        if (refused) {
          record.decided({ decidedBy: WAITING_SUBSCRIBERS });
          throw refused;
        }
        const failWith = (effect: Effect) => {
          record.decided(effect);
          fail(effect.error ?? dropped());
        };
        // momento-local's stream-error: the stream fails once it has sent this many messages.
        const metadataError: Effect | undefined = streamError && {
          decidedBy: { kind: 'metadata' },
          error: streamError.error,
        };
        if (streamError?.afterMessages === 0 && metadataError) return failWith(metadataError);
        let sent = 0;
        const send = (message: unknown) => {
          if (!streams.has(stream)) return;
          call.write(message);
          sent++;
          if (streamError && metadataError && sent >= streamError.afterMessages) subscription?.interrupt(metadataError);
        };
        store.use(cache, topic);
        const sink: SubscriptionSink = {
          deliver(read) {
            const gap = read.discontinuity;
            if (gap) {
              record.discontinuity(gap);
              send(
                new pubsub._SubscriptionItem({
                  discontinuity: new pubsub._Discontinuity({
                    last_topic_sequence: gap.last_topic_sequence,
                    new_topic_sequence: gap.new_topic_sequence,
                    new_sequence_page: gap.new_sequence_page,
                  }),
                }),
              );
            }
            for (const { sequenceNumber, value, publisher } of store.delivered(cache, topic, read)) {
              record.item(sequenceNumber, read.page!);
              send(
                new pubsub._SubscriptionItem({
                  item: new pubsub._TopicItem({
                    topic_sequence_number: sequenceNumber,
                    sequence_page: read.page!,
                    value: new pubsub._TopicValue(
                      'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary, 'base64') },
                    ),
                    publisher_id: publisher,
                  }),
                }),
              );
            }
          },
          fail: failWith,
          end: (why) => (why ? stream.fail(why) : stream.end()),
          client,
          heartbeat: () => send(new pubsub._SubscriptionItem({ heartbeat: new pubsub._Heartbeat() })),
          get writable() {
            return call.writableLength < call.writableHighWaterMark;
          },
          onDrain: (resume) => call.once('drain', resume),
        };
        // An open stream counts as a waiting subscriber for its whole life: the dashboard and the
        // limits see it, "while waiting" fault rules end it, a reset or a deleted cache ends it.
        subscription = new Subscription(
          context,
          cursor,
          facts,
          sink,
          { kind: 'stream', heartbeatMs: settings.grpcHeartbeatMs },
          deliveries,
        );
        subscription.open();
        subscription.endsWith(principal);
        if (faults.active && subscription.isOpen) faults.waitingStarted(subscription);
      })().catch(fail);
    },
  };

  /** The journal's record of a unary call that names no topic (the cache's, the SDK's set-up calls). */
  const recordCall = (
    operation: AdminOperation | CacheOperation,
    call: { getPath(): string; getPeer(): string; metadata: Grpc.Metadata },
    cache: string | null,
  ): CallRecord =>
    recorder.open({
      operation: journalledAs(operation),
      path: call.getPath(),
      peer: call.getPeer(),
      cache,
      topic: null,
      cursor: null,
      credentialPresent: credentialOf(call.metadata) !== '',
    });

  // A connection with no call for --grpc-idle-timeout is sent a GOAWAY and closed.
  const server = new grpc.Server({ 'grpc.max_connection_idle_ms': settings.grpcIdleTimeoutMs });
  server.addService(pubsub.UnimplementedPubsubService.definition, implementation);
  const scs = cacheService({
    context,
    principalOf: (metadata, record) => principalOf(metadata, record),
    record: recordCall,
    applyEffect: (effect, record, gone) => applyEffect(effect, record, faults.delays, gone),
    serviceError,
  });
  server.addService(scs.definition, scs.implementation);
  for (const service of adminServices({
    authorize: (metadata, inBody, record) => authorizeControl(metadata, record, inBody),
    record: recordCall,
    controls: {
      issueToken: (request) => controls.issueToken(request, 'sdk'),
      cacheNames: () => controls.cacheNames(),
      createCache: (cache) => controls.createCache(cache),
      deleteCache: (cache) => {
        // Streams still being admitted are not waiting yet: they end here too.
        for (const stream of [...streams]) if (stream.cache === cache) stream.end();
        return controls.deleteCache(cache);
      },
      flushCache: (cache) => controls.flushCache(cache),
      settledAfter: (result) => controls.settledAfter(result),
    },
    serviceError,
  }))
    server.addService(service.definition, service.implementation);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    port: bound,
    close() {
      // Each open stream is told why it ends (UNAVAILABLE: the SDKs retry) before the connections close.
      for (const stream of [...streams]) stream.fail(shuttingDown());
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

/** What a dropped connection is to a gRPC call: UNAVAILABLE. */
const dropped = () => new EmulatorError('service_unavailable', 'The connection was dropped (a fault).');

/**
 * A fault's or a limit's effect on a gRPC call, applied as for every door (service/effects.ts:
 * held with the shared delays, ended by a reset, a shutdown or the call's cancellation), then
 * translated: a drop is UNAVAILABLE, an error its status.
 */
async function applyEffect(effect: Effect, record: CallRecord, delays: Delays, gone: ClientGone): Promise<void> {
  record.decided(effect);
  const outcome = await applyEffectOnce(effect, delays, gone);
  if (outcome === 'drop') throw dropped();
  if (outcome === 'client-gone') throw new EmulatorError('service_unavailable', 'The call was cancelled while held.');
}

/** A metadata value as text; undefined when the call has none. */
function textOf(metadata: Grpc.Metadata, key: string): string | undefined {
  const [value] = metadata.get(key);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.toString('utf8');
}

function credentialOf(metadata: Grpc.Metadata): string {
  return textOf(metadata, 'authorization') ?? '';
}

function valueOf(value: PubsubTypes.pubsub._TopicValue | undefined): MessageValue {
  if (value?.has_binary) return { binary: value.binary };
  return { text: value?.text ?? '' };
}
