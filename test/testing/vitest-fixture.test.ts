// The vitest helpers as docs/in-your-tests.md shows them: the per-file fixture, and the global
// setup with resetTopicsEmulator.
import { describe, expect, it } from 'vitest';
import {
  resetTopicsEmulator,
  topicsEmulatorGlobalSetup,
  useTopicsEmulator,
  type ProvidedTopicsEmulator,
} from '../../testing/vitest.js';

const topics = useTopicsEmulator({ caches: ['orders'] });
const publish = (body: string) =>
  fetch(`${topics.url}/topics/orders/o`, {
    method: 'POST',
    headers: { authorization: topics.apiKey, 'content-type': 'text/plain' },
    body,
  });

// These two tests run in order: the second proves the first left nothing behind.
describe('useTopicsEmulator', () => {
  it('gives a started emulator with the options asked for', async () => {
    expect(topics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await publish('first')).status).toBe(204);
    topics.emulator.addFault({ operation: 'publish', status: 429, retryAfterSeconds: 1 });
    expect(topics.emulator.context.store.snapshot()).toHaveLength(1);
  });

  it('hands out the gRPC door as forMomentoLocal takes it: the SDK publishes there', async () => {
    const { CredentialProvider, TopicClient, TopicConfigurations, TopicPublish } = await import('@gomomento/sdk');
    expect(topics.grpc).toEqual({ hostname: '127.0.0.1', port: expect.any(Number) });
    const sdk = new TopicClient({
      configuration: TopicConfigurations.Default.latest(),
      credentialProvider: CredentialProvider.forMomentoLocal(topics.grpc!),
    });
    expect(await sdk.publish('orders', 'from-sdk', 'hello')).toBeInstanceOf(TopicPublish.Success);
    expect(topics.emulator.state().topics.map((t) => t.topic)).toContain('from-sdk');
  });

  it('resets before each test: no topics, no faults from the test before', async () => {
    expect(topics.emulator.context.store.snapshot()).toEqual([]);
    expect((await publish('second')).status).toBe(204);
    const body = await (
      await fetch(`${topics.url}/topics/orders/o?sequence_number=1`, { headers: { authorization: topics.apiKey } })
    ).json();
    expect(body.items.map((e: { item: { value: { text: string } } }) => e.item.value.text)).toEqual(['second']);
  });
});

describe('topicsEmulatorGlobalSetup and resetTopicsEmulator', () => {
  it('provides url and key to the run, resets over HTTP, and tears down', async () => {
    let provided: ProvidedTopicsEmulator | undefined;
    const teardown = await topicsEmulatorGlobalSetup({ caches: ['shared'] })({
      provide: (_key, value) => (provided = value),
    });
    try {
      const url = provided!.url;
      expect(provided!.grpc?.port).toBeGreaterThan(0);
      const headers = { authorization: provided!.apiKey, 'content-type': 'text/plain' };
      expect((await fetch(`${url}/topics/shared/t`, { method: 'POST', headers, body: 'x' })).status).toBe(204);
      await resetTopicsEmulator(url);
      const state = await (await fetch(`${url}/_emulator/state`)).json();
      expect(state.topics).toEqual([]);
    } finally {
      await teardown();
    }
    await expect(fetch(`${provided!.url}/_emulator/health`)).rejects.toThrow();
  });
});
