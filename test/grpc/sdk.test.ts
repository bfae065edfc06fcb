import {
  CredentialProvider,
  TopicClient,
  TopicConfigurations,
  TopicPublishResponse,
  TopicSubscribeResponse,
  type TopicItem,
  type TopicPublish,
  type TopicSubscribe,
} from '@gomomento/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { momentoLocal, startGrpcEmulator } from './harness.js';

// The provider's own JavaScript SDK (@gomomento/sdk), unchanged, against the emulator's gRPC
// door: built with CredentialProvider.forMomentoLocal (an empty token: full access, as against
// momento-local) or with one of the emulator's tokens; publishing and subscribing on the same
// topics as the HTTP API, with the same pages, discontinuities, caches, permissions and faults.

let emulator: RunningEmulator;
let topics: TopicClient;
const subscriptions: TopicSubscribe.Subscription[] = [];

function clientFor(credential = CredentialProvider.forMomentoLocal(endpoint())): TopicClient {
  return new TopicClient({ configuration: TopicConfigurations.Default.latest(), credentialProvider: credential });
}

/** A client with one of the emulator's tokens, every endpoint the emulator's gRPC door, in plaintext. */
function tokenClient(token: string, of: RunningEmulator = emulator): TopicClient {
  const at = of.grpcEndpoint!;
  return clientFor(
    CredentialProvider.fromString({
      apiKey: token,
      endpointOverrides: { cacheEndpoint: at, controlEndpoint: at, tokenEndpoint: at, secureConnection: false },
    }),
  );
}

function endpoint(): { hostname: string; port: number } {
  const [hostname, port] = emulator.grpcEndpoint!.split(':');
  return { hostname: hostname!, port: Number(port) };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent', grpcPort: 0 });
  topics = clientFor();
});
afterEach(() => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
});
afterAll(async () => {
  await emulator?.close();
});

interface Received {
  items: TopicItem[];
  discontinuities: { lastTopicSequence: number; newTopicSequence: number; newSequencePage: number }[];
  heartbeats: number;
  errors: string[];
}

async function subscribe(
  client: TopicClient,
  cache: string,
  topic: string,
): Promise<Received & { response: TopicSubscribeResponse }> {
  const received: Received = { items: [], discontinuities: [], heartbeats: 0, errors: [] };
  const response = await client.subscribe(cache, topic, {
    onItem: (item) => received.items.push(item),
    onDiscontinuity: (d) =>
      received.discontinuities.push({
        lastTopicSequence: d.lastSequenceNumber(),
        newTopicSequence: d.newSequenceNumber(),
        newSequencePage: d.newSequencePage(),
      }),
    onHeartbeat: () => received.heartbeats++,
    onError: (error) => received.errors.push(error.errorCode()),
  });
  if (response.type === TopicSubscribeResponse.Subscription) subscriptions.push(response);
  return Object.assign(received, { response: response.type });
}

/** Waits until the stream is parked on the topic (it opens with a heartbeat, then waits). */
const parked = (received: Received) =>
  vi.waitFor(() => expect(received.heartbeats).toBeGreaterThan(0), { timeout: 5000 });

describe('the provider’s SDK over gRPC', () => {
  it('publishes and receives in order, text and binary, with the page and number of each', async () => {
    const received = await subscribe(topics, 'default-cache', 'sdk-order');
    expect(received.response).toBe(TopicSubscribeResponse.Subscription);
    await parked(received);
    for (const value of ['one', 'two', new Uint8Array([0, 255, 16])]) {
      const published = await topics.publish('default-cache', 'sdk-order', value);
      expect(published.type).toBe(TopicPublishResponse.Success);
    }
    await vi.waitFor(() => expect(received.items).toHaveLength(3), { timeout: 5000 });
    expect(received.items.map((i) => i.value())).toEqual(['one', 'two', new Uint8Array([0, 255, 16])]);
    expect(received.items.map((i) => i.sequenceNumber())).toEqual([1, 2, 3]);
    expect(received.errors).toEqual([]);
  });

  it('shares topics with the HTTP API both ways', async () => {
    const received = await subscribe(topics, 'default-cache', 'sdk-http');
    await parked(received);
    const http = await fetch(`${emulator.url}/topics/default-cache/sdk-http`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
      body: 'from http',
    });
    expect(http.status).toBe(204);
    await vi.waitFor(() => expect(received.items.map((i) => i.value())).toEqual(['from http']), { timeout: 5000 });
    const page = emulator.state().topics.find((t) => t.topic === 'sdk-http')!.page;
    const poll = fetch(`${emulator.url}/topics/default-cache/sdk-http?sequence_number=2&sequence_page=${page}`, {
      headers: { authorization: emulator.apiKey },
    });
    expect((await topics.publish('default-cache', 'sdk-http', 'from grpc')).type).toBe(TopicPublishResponse.Success);
    const answer = (await (await poll).json()) as { items: { item: { value: { text: string } } }[] };
    expect(answer.items.map((e) => e.item.value.text)).toEqual(['from grpc']);
  });

  it('tells the SDK of a page change with a discontinuity, then goes on on the new page', async () => {
    const received = await subscribe(topics, 'default-cache', 'sdk-page');
    await parked(received);
    await topics.publish('default-cache', 'sdk-page', 'before');
    await vi.waitFor(() => expect(received.items).toHaveLength(1), { timeout: 5000 });
    const change = emulator.resetTopic('default-cache', 'sdk-page', {}, 'test');
    await topics.publish('default-cache', 'sdk-page', 'after');
    await vi.waitFor(() => expect(received.items).toHaveLength(2), { timeout: 5000 });
    expect(received.discontinuities).toEqual([
      { lastTopicSequence: 1, newTopicSequence: 1, newSequencePage: change.page },
    ]);
    expect(received.items[1]!.sequenceNumber()).toBe(1);
  });

  it('answers an unknown cache with NOT_FOUND_ERROR, and a 429 fault with LIMIT_EXCEEDED_ERROR', async () => {
    const missing = await topics.publish('no-such-cache', 't', 'x');
    expect(missing.type).toBe(TopicPublishResponse.Error);
    expect((missing as TopicPublish.Error).errorCode()).toBe('NOT_FOUND_ERROR');
    emulator.addFault({ operation: 'publish', cache: 'default-cache', topic: 'sdk-fault', status: 429, count: 1 });
    const throttled = await topics.publish('default-cache', 'sdk-fault', 'x');
    expect((throttled as TopicPublish.Error).errorCode()).toBe('LIMIT_EXCEEDED_ERROR');
    expect((await topics.publish('default-cache', 'sdk-fault', 'x')).type).toBe(TopicPublishResponse.Success);
  });

  it('refuses a topic name longer than the contract takes, and a message over the payload limit (INVALID_ARGUMENT_ERROR)', async () => {
    const long = await topics.publish('default-cache', 't'.repeat(256), 'x');
    expect((long as TopicPublish.Error).errorCode()).toBe('INVALID_ARGUMENT_ERROR');
    expect((long as TopicPublish.Error).message()).toMatch(/topic must be 1 to 255 characters/);
    const large = await topics.publish('default-cache', 'sdk-large', 'x'.repeat(4097));
    expect((large as TopicPublish.Error).errorCode()).toBe('INVALID_ARGUMENT_ERROR');
    expect((await topics.publish('default-cache', 'sdk-large', 'x'.repeat(4096))).type).toBe(
      TopicPublishResponse.Success,
    );
  });

  it('refuses a subscription to an unknown cache with NOT_FOUND_ERROR, and a publish-only token with PERMISSION_ERROR', async () => {
    const missing = await topics.subscribe('no-such-cache', 't', { onItem: () => {}, onError: () => {} });
    expect(missing.type).toBe(TopicSubscribeResponse.Error);
    expect((missing as TopicSubscribe.Error).errorCode()).toBe('NOT_FOUND_ERROR');
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishonly', cache: 'default-cache', topic: '*' }],
      ttlSeconds: 600,
    });
    const refused = await tokenClient(token).subscribe('default-cache', 'sdk-publish-only', {
      onItem: () => {},
      onError: () => {},
    });
    expect((refused as TopicSubscribe.Error).errorCode()).toBe('PERMISSION_ERROR');
  });

  it('honours a token’s permissions: a subscribe-only token cannot publish (PERMISSION_ERROR)', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'subscribeonly', cache: 'default-cache', topic: '*' }],
      ttlSeconds: 600,
    });
    const scoped = tokenClient(token);
    try {
      const refused = await scoped.publish('default-cache', 'sdk-scoped', 'x');
      expect((refused as TopicPublish.Error).errorCode()).toBe('PERMISSION_ERROR');
      const received = await subscribe(scoped, 'default-cache', 'sdk-scoped');
      await parked(received);
      await topics.publish('default-cache', 'sdk-scoped', 'for the reader');
      await vi.waitFor(() => expect(received.items.map((i) => i.value())).toEqual(['for the reader']), {
        timeout: 5000,
      });
    } finally {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
    }
  });

  it('ends its streams on a reset; the SDK subscribes again and goes on from where it was', async () => {
    const received = await subscribe(topics, 'default-cache', 'sdk-reset');
    await parked(received);
    await topics.publish('default-cache', 'sdk-reset', 'before the reset');
    await vi.waitFor(() => expect(received.items).toHaveLength(1), { timeout: 5000 });
    emulator.reset();
    // The SDK resubscribes at last + 1 on its last page; the topic is new: a discontinuity, then what follows.
    await vi.waitFor(
      async () => {
        await topics.publish('default-cache', 'sdk-reset', 'after the reset');
        expect(received.items.map((i) => i.value())).toContain('after the reset');
      },
      { timeout: 10_000, interval: 250 },
    );
    expect(received.items[0]!.value()).toBe('before the reset');
  });

  it("gives each item its publisher: the publishing token's id, over gRPC and HTTP alike (none for an API key)", async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: 'default-cache', topic: '*' }],
      tokenId: 'publisher-1',
    });
    const received = await subscribe(topics, 'default-cache', 'sdk-publisher');
    await parked(received);
    await tokenClient(token).publish('default-cache', 'sdk-publisher', 'by token over grpc');
    await fetch(`${emulator.url}/topics/default-cache/sdk-publisher`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'text/plain' },
      body: 'by token over http',
    });
    await topics.publish('default-cache', 'sdk-publisher', 'by forMomentoLocal');
    await vi.waitFor(() => expect(received.items).toHaveLength(3), { timeout: 5000 });
    expect(received.items.map((i) => i.tokenId() ?? '')).toEqual(['publisher-1', 'publisher-1', '']);
  });

  it('refuses an expired token with AUTHENTICATION_ERROR', async () => {
    const { token } = await emulator.issueToken({
      permissions: [{ role: 'publishsubscribe', cache: 'default-cache', topic: '*' }],
      ttlSeconds: 600,
      tokenId: 'sdk-expiring',
    });
    emulator.expireToken('sdk-expiring', {}, 'test');
    const expired = tokenClient(token);
    const refused = await expired.publish('default-cache', 'sdk-expired', 'x');
    expect((refused as TopicPublish.Error).errorCode()).toBe('AUTHENTICATION_ERROR');
  });
});

describe('the passage from the public port', () => {
  // The public port passes each connection through to the gRPC server; without noDelay on both
  // hops every small write waited for the peer's delayed ACK: 40 ms or more per call.
  it('adds no delayed-ACK wait: the median of 20 publishes one at a time is well under 40 ms', async () => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      expect((await topics.publish('default-cache', 'sdk-timing', `m${i}`)).type).toBe(TopicPublishResponse.Success);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(25);
  });
});

describe('--grpc-empty-token refuse', () => {
  it('refuses an SDK without a token (forMomentoLocal) with AUTHENTICATION_ERROR, and serves one with a token', async () => {
    const strict = await startGrpcEmulator({ grpcEmptyToken: 'refuse' });
    try {
      const anonymous = clientFor(momentoLocal(strict));
      const refused = await anonymous.publish('default-cache', 'strict', 'x');
      expect((refused as TopicPublish.Error).errorCode()).toBe('AUTHENTICATION_ERROR');
      const { token } = await strict.issueToken({
        permissions: [{ role: 'publishsubscribe', cache: '*', topic: '*' }],
      });
      const withToken = tokenClient(token, strict);
      expect((await withToken.publish('default-cache', 'strict', 'y')).type).toBe(TopicPublishResponse.Success);
    } finally {
      await strict.close();
    }
  });
});

describe('heartbeats', () => {
  it('opens a stream with a heartbeat and sends one every --grpc-heartbeat while idle', async () => {
    const quick = await startGrpcEmulator({ grpcHeartbeatMs: 150 });
    try {
      const client = clientFor(momentoLocal(quick));
      const received = await subscribe(client, 'default-cache', 'sdk-idle');
      await vi.waitFor(() => expect(received.heartbeats).toBeGreaterThanOrEqual(3), { timeout: 5000 });
      expect(received.items).toEqual([]);
      for (const s of subscriptions.splice(0)) s.unsubscribe();
    } finally {
      await quick.close();
    }
  });
});
