import {
  CredentialProvider,
  MomentoErrorCode,
  TopicClient,
  TopicConfigurations,
  TopicPublish,
  TopicSubscribe,
  type SubscribeCallOptions,
} from '@gomomento/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { momentoLocalMiddleware, type MomentoLocalMetadata } from './harness.js';

// momento-local's fault metadata, sent by the provider's own middleware
// (ExperimentalMomentoLocalTestConfigMiddleware) as SDK test suites send it to momento-local: the
// cases of client-sdk-javascript's topic retry tests (test/integration/retry/topic-client-retry),
// with shorter timeouts, plus counts per request id and values the emulator cannot honour.

const PUBLISH = '_PublishRequest';
const SUBSCRIBE = '_SubscriptionRequest';

let emulator: RunningEmulator;
const subscriptions: TopicSubscribe.Subscription[] = [];

beforeAll(async () => {
  // Heartbeats every 100 ms: a stream error "after 3 messages" comes within a second.
  emulator = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    grpcPort: 0,
    grpcHeartbeatMs: 100,
  });
});
afterEach(() => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
});
afterAll(async () => {
  await emulator?.close();
});

function client(metadata: MomentoLocalMetadata, timeoutMs?: number) {
  const [hostname, port] = emulator.grpcEndpoint!.split(':');
  let configuration = TopicConfigurations.Default.latest().withMiddlewares(momentoLocalMiddleware(metadata));
  if (timeoutMs !== undefined) configuration = configuration.withClientTimeoutMillis(timeoutMs);
  return new TopicClient({
    configuration,
    credentialProvider: CredentialProvider.forMomentoLocal({ hostname: hostname!, port: Number(port) }),
  });
}

async function subscribe(topics: TopicClient, topic: string, options: SubscribeCallOptions = {}) {
  const response = await topics.subscribe('default-cache', topic, options);
  if (response instanceof TopicSubscribe.Subscription) subscriptions.push(response);
  return response;
}

describe("momento-local's fault metadata", () => {
  it('ends a stream with a retryable error after N messages: the SDK loses the connection and subscribes again', async () => {
    const lost = { count: 0 };
    const errors: string[] = [];
    const topics = client({
      streamError: MomentoErrorCode.SERVER_UNAVAILABLE,
      streamErrorRpcs: [SUBSCRIBE],
      streamErrorMessageLimit: 3,
    });
    const response = await subscribe(topics, 'ml-stream-retry', {
      onConnectionLost: () => lost.count++,
      onError: (e) => errors.push(e.errorCode()),
    });
    expect(response).toBeInstanceOf(TopicSubscribe.Subscription);
    // Each new stream fails after 3 messages again: connection lost, and lost again after the resubscribe.
    await vi.waitFor(() => expect(lost.count).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(errors).toEqual([]);
    const [entry] = (await emulator.requests({ protocol: 'grpc', topic: 'ml-stream-retry', status: 503 })).entries;
    expect(entry).toMatchObject({ code: 'service_unavailable', decidedBy: { kind: 'metadata' } });
    expect(entry!.delivered).toBe(0); // three heartbeats, no items
  });

  it('ends a stream with a non-retryable error: the SDK reports it once and does not subscribe again', async () => {
    const errors: string[] = [];
    let lost = 0;
    const topics = client({
      streamError: MomentoErrorCode.CACHE_NOT_FOUND_ERROR,
      streamErrorRpcs: [SUBSCRIBE],
      streamErrorMessageLimit: 3,
    });
    await subscribe(topics, 'ml-stream-fatal', {
      onConnectionLost: () => lost++,
      onError: (e) => errors.push(e.errorCode()),
    });
    await vi.waitFor(() => expect(errors).toEqual([MomentoErrorCode.NOT_FOUND_ERROR]), { timeout: 10_000 });
    const streams = await emulator.requests({ protocol: 'grpc', topic: 'ml-stream-fatal', operation: 'subscribe' });
    expect(streams.entries.map((e) => e.status)).toEqual([404]);
    expect(lost).toBe(1);
  });

  it('delays a subscribe past the client timeout: the SDK gives up on it', async () => {
    const topics = client({ delayRpcs: [SUBSCRIBE], delayMs: 1500 }, 500);
    const response = await subscribe(topics, 'ml-delay-subscribe');
    expect(response).toBeInstanceOf(TopicSubscribe.Error);
  });

  it('delays a publish past the client timeout: TIMEOUT_ERROR', async () => {
    const topics = client({ delayRpcs: [PUBLISH], delayMs: 1500 }, 500);
    const response = await topics.publish('default-cache', 'ml-delay-publish', 'late');
    expect((response as TopicPublish.Error).errorCode()).toBe(MomentoErrorCode.TIMEOUT_ERROR);
  });

  it('fails the first error-count calls of a request id, then lets them through, and records what decided', async () => {
    const topics = client({ returnError: MomentoErrorCode.LIMIT_EXCEEDED_ERROR, errorRpcs: [PUBLISH], errorCount: 2 });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const response = await topics.publish('default-cache', 'ml-error-count', `m${i}`);
      codes.push(response instanceof TopicPublish.Error ? response.errorCode() : 'ok');
    }
    expect(codes).toEqual([MomentoErrorCode.LIMIT_EXCEEDED_ERROR, MomentoErrorCode.LIMIT_EXCEEDED_ERROR, 'ok']);
    // Another request id starts its own count; a subscribe is not in error-rpcs.
    const other = client({ returnError: MomentoErrorCode.LIMIT_EXCEEDED_ERROR, errorRpcs: [PUBLISH], errorCount: 1 });
    expect(await other.publish('default-cache', 'ml-error-count', 'x')).toBeInstanceOf(TopicPublish.Error);
    expect(await subscribe(other, 'ml-error-count')).toBeInstanceOf(TopicSubscribe.Subscription);
    const refused = await emulator.requests({ protocol: 'grpc', topic: 'ml-error-count', status: 429 });
    expect(refused.entries).toHaveLength(3);
    expect(refused.entries[0]).toMatchObject({ code: 'limit_exceeded', decidedBy: { kind: 'metadata' } });
  });

  it('refuses a value it cannot honour with INVALID_ARGUMENT naming the key, instead of injecting nothing', async () => {
    // Keys the middleware does not know are sent as they are: momento-local's own spelling.
    const topics = client({ 'error-rpcs': 'topic-publish', 'return-error': 'teapot' } as never);
    const response = await topics.publish('default-cache', 'ml-bad', 'x');
    expect(response).toBeInstanceOf(TopicPublish.Error);
    const error = response as TopicPublish.Error;
    expect(error.errorCode()).toBe(MomentoErrorCode.INVALID_ARGUMENT_ERROR);
    expect(error.message()).toMatch(/return-error: teapot' is not one of invalid-argument, not-found/);
  });
});
