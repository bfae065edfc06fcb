import { TopicClient, TopicPublish, type TopicSubscribe } from '@gomomento/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { sdkTopicClient, startGrpcEmulator } from './harness.js';

// The journal, the client rules and the fault rules see the provider's SDK as they see HTTP
// clients: each gRPC call is an entry with `protocol: grpc` (a Subscribe stream one entry, once it
// has ended, with what it delivered), judged by the same rules; a fault rule may name a protocol.

let emulator: RunningEmulator;
let sdk: TopicClient;

beforeAll(async () => {
  emulator = await startGrpcEmulator();
  sdk = sdkTopicClient(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

async function subscribed(topic: string): Promise<{ items: number[]; subscription: TopicSubscribe.Subscription }> {
  const items: number[] = [];
  let heartbeats = 0;
  const subscription = (await sdk.subscribe('default-cache', topic, {
    onItem: (item) => items.push(item.sequenceNumber()),
    onHeartbeat: () => heartbeats++,
  })) as TopicSubscribe.Subscription;
  await vi.waitFor(() => expect(heartbeats).toBeGreaterThan(0), { timeout: 5000 });
  return { items, subscription };
}

describe('gRPC calls in the journal', () => {
  it('journals each publish, and a stream once it ends, with its cursor, what it delivered and how it ended', async () => {
    const { items, subscription } = await subscribed('journal-stream');
    for (const text of ['a', 'b']) await sdk.publish('default-cache', 'journal-stream', text);
    await vi.waitFor(() => expect(items).toEqual([1, 2]), { timeout: 5000 });
    const change = emulator.resetTopic('default-cache', 'journal-stream', {}, 'test');
    await sdk.publish('default-cache', 'journal-stream', 'c');
    await vi.waitFor(() => expect(items).toEqual([1, 2, 1]), { timeout: 5000 });
    subscription.unsubscribe();

    const stream = await vi.waitFor(
      async () => {
        const [entry] = (await emulator.requests({ protocol: 'grpc', operation: 'subscribe' })).entries;
        expect(entry).toBeDefined();
        return entry!;
      },
      { timeout: 5000 },
    );
    expect(stream).toMatchObject({
      protocol: 'grpc',
      plane: 'service',
      path: '/cache_client.pubsub.Pubsub/Subscribe',
      cache: 'default-cache',
      topic: 'journal-stream',
      cursor: { sequenceNumber: 0, sequencePage: 0 },
      credentialPlace: 'none',
      status: 200,
      clientGone: true,
      // The items since the last discontinuity; `delivered` counts them all.
      items: [1],
      page: change.page,
      discontinuity: { lastTopicSequence: 2, newTopicSequence: 1, newSequencePage: change.page },
      delivered: 3,
    });
    const publishes = await emulator.requests({ protocol: 'grpc', operation: 'publish' });
    expect(publishes.entries.map((e) => [e.status, e.path, e.client])).toEqual(
      Array(3).fill([200, '/cache_client.pubsub.Pubsub/Publish', stream.client]),
    );
    // The HTTP filter leaves them out, and the control plane's query string filters the same way.
    expect((await emulator.requests({ protocol: 'http', topic: 'journal-stream' })).entries).toEqual([]);
    const listed = (await (await fetch(`${emulator.url}/_emulator/requests?protocol=grpc`)).json()) as {
      entries: { protocol: string }[];
    };
    expect(listed.entries.length).toBeGreaterThanOrEqual(4);
    expect(listed.entries.every((e) => e.protocol === 'grpc')).toBe(true);
    const http = await fetch(`${emulator.url}/_emulator/requests?protocol=http&topic=journal-stream`);
    expect(((await http.json()) as { entries: unknown[] }).entries).toEqual([]);
  });

  it('judges the SDK by the client rules: a clean run through a page change breaks none', async () => {
    const { clients } = await emulator.clients();
    const findings = clients.find((c) => c.counters.publishes === 3)!;
    expect(findings.client).toMatch(/^key:#/);
    expect(findings.counters).toMatchObject({ polls: 1, itemsReceived: 3, discontinuities: 1 });
    expect(findings.violations).toEqual([]);
  });

  it('lets a fault rule name the protocol: a gRPC-only rule refuses the SDK and lets HTTP through', async () => {
    const rule = emulator.addFault({ protocol: 'grpc', operation: 'publish', topic: 'journal-grpc-only', status: 503 });
    try {
      const refused = await sdk.publish('default-cache', 'journal-grpc-only', 'x');
      expect((refused as TopicPublish.Error).errorCode()).toBe('SERVER_UNAVAILABLE');
      const http = await fetch(`${emulator.url}/topics/default-cache/journal-grpc-only`, {
        method: 'POST',
        headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
        body: 'y',
      });
      expect(http.status).toBe(204);
      const [entry] = (await emulator.requests({ protocol: 'grpc', topic: 'journal-grpc-only' })).entries;
      expect(entry).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        decidedBy: { kind: 'fault', ruleId: rule.id },
      });
    } finally {
      emulator.removeFault(rule.id);
    }
  });
});
