import { TopicSubscribe } from '@gomomento/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { until } from '../helpers/emulator.js';
import { sdkTopicClient, startGrpcEmulator } from './harness.js';

// momento-local's test-admin port, as the SDK's own retry tests use it (TestAdminClient): a
// subscription's heartbeats stop while the gRPC door is blocked, the SDK sees the connection
// lost, and it subscribes again once the door is unblocked.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const admin = (path: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${emulator!.testAdminPort}${path}`, { headers });

describe('--test-admin-port', () => {
  it('pauses a subscription while blocked (no heartbeats, connection lost) and the SDK resumes it once unblocked', async () => {
    emulator = await startGrpcEmulator({ testAdminPort: 0, grpcHeartbeatMs: 100 });
    const topics = sdkTopicClient(emulator);
    let heartbeats = 0;
    let lost = 0;
    const subscription = await topics.subscribe('default-cache', 'blocked', {
      onItem: () => {},
      onHeartbeat: () => void heartbeats++,
      onConnectionLost: () => void lost++,
    });
    expect(subscription).toBeInstanceOf(TopicSubscribe.Subscription);
    try {
      await until(() => heartbeats >= 5, 'five heartbeats', 10_000);
      expect(await (await admin('/block')).json()).toEqual({ blocked: true });
      await until(() => lost === 1, 'the connection lost', 10_000);
      const whileBlocked = heartbeats;
      // The SDK tries again while blocked and cannot get through: no heartbeat arrives.
      await until(() => emulator!.context.waiting.size === 0, 'no stream open', 10_000);
      expect(heartbeats).toBe(whileBlocked);
      expect(await (await admin('/unblock')).json()).toEqual({ blocked: false });
      await until(() => heartbeats > whileBlocked, 'heartbeats again', 20_000);
      // Journalled as control-plane requests: the dashboard's journal shows when the door was unreachable.
      for (const operation of ['testAdminBlock', 'testAdminUnblock']) {
        const { entries } = await emulator.requests({ operation });
        expect(entries.map((e) => [e.plane, e.method, e.status])).toEqual([['control', 'GET', 200]]);
      }
    } finally {
      (subscription as TopicSubscribe.Subscription).unsubscribe();
    }
  });

  it('makes gRPC-web unreachable too, and answers anything but GET /block and /unblock 404', async () => {
    emulator = await startGrpcEmulator({ testAdminPort: 0 });
    await admin('/block');
    const web = await fetch(`${emulator.url}/cache_client.pubsub.Pubsub/Publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto', authorization: emulator.apiKey },
      body: Buffer.alloc(5),
    });
    expect(Buffer.from(await web.arrayBuffer()).toString('latin1')).toMatch(/grpc-status: 14/);
    const unknown = await admin('/reset');
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, 'route_not_found']);
    await admin('/unblock');
  });

  it('needs the admin key when one is set', async () => {
    emulator = await startGrpcEmulator({ testAdminPort: 0, adminKey: 'the-admin-key' });
    expect((await admin('/block')).status).toBe(401);
    expect((await admin('/block', { 'x-emulator-admin-key': 'wrong-key!' })).status).toBe(403);
    expect((await admin('/block', { 'x-emulator-admin-key': 'the-admin-key' })).status).toBe(200);
  });
});
