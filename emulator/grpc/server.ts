import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import type { Principal } from '../auth/authenticator.js';
import type { Access } from '../auth/permissions.js';
import type { EmulatorContext } from '../context.js';
import { resourceNameLength } from '../documents.js';
import { EmulatorError } from '../errors.js';
import type { SubscribeCursor } from '../exchange.js';
import type { Effect, RequestFacts, ServiceOperation } from '../requests.js';
import type { MessageValue } from '../topics/message.js';
import type { TopicStore } from '../topics/store.js';
import { MomentoLocalFaults, type MetadataDecision } from '../faults/momento-local.js';
import type { IssuedToken, TokenRequest } from '../auth/tokens.js';
import { adminServices } from './admin-services.js';
import { clientIdentity } from '../recording.js';
import type { WaitingEntry } from '../waiting.js';
import { publishMessage } from '../service/publish.js';
import { cursorOf, waitingRefusal } from '../service/subscribe.js';
import { WAITING_SUBSCRIBERS } from '../limits/account-limits.js';
import { checkAccess, decideAdmission } from '../admission.js';
import { callRecorder, type CallRecord } from './calls.js';
import { grpcFailureOf } from './status.js';
import type { DeliveryWatch } from '../faults/deliveries.js';
import { TopicSubscription, type DeliveryGate, type SubscriptionSink } from './subscription.js';
import { ADMIN_KEY_HEADER, adminKeyVerifier } from '../auth/admin-key.js';
import { DOOR_METADATA, WEB_DOOR } from './doors.js';

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
  /** Ends every subscription stream (the SDKs resubscribe) and forgets momento-local's counts: after a reset or a loaded snapshot. */
  reset(): void;
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

/** What the door needs of the control plane: minting tokens for the SDK's AuthClient. */
export interface GrpcControls {
  issueToken(request: TokenRequest): Promise<IssuedToken>;
}

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
  const streams = new Set<{ cache: string; end(): void }>();

  const recorder = callRecorder(context.events, clock, auth);
  const metadataFaults = new MomentoLocalFaults();
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
    const asked = metadataFaults.decide((key) => textOf(metadata, key), operation);
    if (asked.effect) await applyEffect(asked.effect, record);
    const principal = await principalOf(metadata, record);
    checkAccess(context, principal, access, cache, topic);
    const facts: RequestFacts = {
      operation,
      protocol: 'grpc',
      cache,
      topic,
      tokenId: principal.kind === 'token' ? principal.tokenId : undefined,
    };
    const deliveries =
      faults.active || limits.active
        ? await decideAdmission(context, facts, end, (effect) => applyEffect(effect, record))
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
          record.end({ error });
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
      let subscription: TopicSubscription | undefined;
      const cleanups: (() => void)[] = [];
      const finish = (outcome: { error?: unknown; clientGone?: boolean } = {}) => {
        subscription?.end();
        if (!streams.delete(stream)) return;
        for (const cleanup of cleanups.splice(0)) cleanup();
        record.end(outcome);
        end.emit('close');
      };
      const stream = {
        cache: request.cache_name,
        end: () => {
          finish();
          call.end();
        },
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
        const { facts, client, streamError, deliveries } = await admit(
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
        // momento-local's stream-error: the stream fails once it has sent this many messages.
        let sent = 0;
        const send = (message: unknown) => {
          if (!streams.has(stream)) return;
          call.write(message);
          sent++;
          if (streamError && sent >= streamError.afterMessages) failWith(streamError.error);
        };
        const failWith = (error: unknown, effect: Effect = { decidedBy: { kind: 'metadata' } }) => {
          record.decided(effect);
          fail(error);
        };
        if (streamError && streamError.afterMessages === 0) return failWith(streamError.error);
        const sink: SubscriptionSink = {
          item: (sequenceNumber, page, value, publisher) => {
            record.item(sequenceNumber, page);
            send(
              new pubsub._SubscriptionItem({
                item: new pubsub._TopicItem({
                  topic_sequence_number: sequenceNumber,
                  sequence_page: page,
                  value: new pubsub._TopicValue(
                    'text' in value ? { text: value.text } : { binary: Buffer.from(value.binary, 'base64') },
                  ),
                  publisher_id: publisher,
                }),
              }),
            );
          },
          discontinuity: (d) => {
            record.discontinuity(d);
            send(
              new pubsub._SubscriptionItem({
                discontinuity: new pubsub._Discontinuity({
                  last_topic_sequence: d.last_topic_sequence,
                  new_topic_sequence: d.new_topic_sequence,
                  new_sequence_page: d.new_sequence_page,
                }),
              }),
            );
          },
          heartbeat: () => send(new pubsub._SubscriptionItem({ heartbeat: new pubsub._Heartbeat() })),
          get writable() {
            return call.writableLength < call.writableHighWaterMark;
          },
          onDrain: (resume) => call.once('drain', resume),
        };
        subscription = new TopicSubscription(
          store.topic(cache, topic),
          cursor,
          sink,
          settings.grpcHeartbeatMs,
          () => clock.now(),
          deliveries && gateOf(deliveries, (effect) => failWith(effect.error ?? dropped(), effect)),
        );
        // An open stream counts as a waiting subscriber for its whole life: the dashboard and the
        // limits see it, "while waiting" fault rules end it, a reset or a deleted cache ends it.
        const opened = clock.now();
        const open = subscription;
        const entry: WaitingEntry = {
          topic: store.topic(cache, topic),
          facts,
          client,
          since: opened,
          get cursor() {
            return open.cursor;
          },
          answer: () => stream.end(),
          interrupt: (effect) => {
            if (!streams.has(stream)) return false;
            record.decided(effect);
            fail(effect.error ?? dropped());
            return true;
          },
          onEnd: (cleanup) => cleanups.push(cleanup),
        };
        subscription.start();
        if (!streams.has(stream)) return; // ended by its first messages (momento-local's stream-error)
        // Entered once parked, so that the event stream hears it among the topic's waiting subscribers.
        context.waiting.enter(entry);
        cleanups.push(() => context.waiting.forget(entry));
        if (faults.active) faults.waitingStarted(entry);
      })().catch(fail);
    },
  };

  const server = new grpc.Server();
  server.addService(pubsub.UnimplementedPubsubService.definition, implementation);
  for (const service of adminServices({
    authorize: (metadata, inBody, record) => authorizeControl(metadata, record, inBody),
    record: (operation, call, cache) =>
      recorder.open({
        operation,
        path: call.getPath(),
        peer: call.getPeer(),
        cache,
        topic: null,
        cursor: null,
        credentialPresent: credentialOf(call.metadata) !== '',
      }),
    issueToken: (request) => controls.issueToken(request),
    cacheNames: () => store.cacheNames(),
    createCache: (cache) => {
      if (!store.createCache)
        throw new EmulatorError(
          'invalid_request',
          'With a Redis store, every replica is given its caches at start (--cache).',
        );
      return store.createCache(cache);
    },
    deleteCache: (cache) => {
      if (!store.deleteCache)
        throw new EmulatorError(
          'invalid_request',
          'With a Redis store, every replica is given its caches at start (--cache).',
        );
      if (!store.hasCache(cache)) return false;
      context.waiting.answerCache(cache);
      for (const stream of [...streams]) if (stream.cache === cache) stream.end();
      context.pageChanges.forgetCache(cache);
      return store.deleteCache(cache);
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
    reset() {
      for (const stream of [...streams]) stream.end();
      metadataFaults.clear();
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

/** What a dropped connection is to a gRPC call: UNAVAILABLE. */
const dropped = () => new EmulatorError('service_unavailable', 'The connection was dropped (a fault).');

/** "After N items" rules as a stream's gate: a read that an armed rule answers ends the stream with its effect. */
function gateOf(deliveries: DeliveryWatch, end: (effect: Effect) => void): DeliveryGate {
  const decide = (effect: Effect | undefined): boolean => {
    if (effect === undefined) return true;
    end(effect);
    return false;
  };
  return {
    get maxItems() {
      return deliveries.maxItems;
    },
    admit(items) {
      return deliveries.delivered(items).then(decide);
    },
  };
}

/** A fault's or a limit's effect on a gRPC call: hold it (real time), then fail it. */
async function applyEffect(effect: Effect, record: CallRecord): Promise<void> {
  record.decided(effect);
  if (effect.delayMs) await new Promise((resolve) => setTimeout(resolve, effect.delayMs));
  if (effect.error) throw effect.error;
  if (effect.drop) throw dropped();
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
