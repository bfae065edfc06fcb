import { connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { pubsub, rawPubsubClient, startGrpcEmulator } from '../grpc/harness.js';

// Probe (#43 item 7, idle connections to the gRPC port were never closed): connections that made
// no call, or never spoke at all, stayed open for ever. A connection with no call for
// --grpc-idle-timeout is now sent a GOAWAY and closed; one with a stream open is not idle.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('idle gRPC connections', () => {
  it('a connection with no call is closed after --grpc-idle-timeout (GOAWAY), one that never spoke too; an open stream is not cut', async () => {
    emulator = await startGrpcEmulator({ grpcIdleTimeoutMs: 1000 });
    const [host, port] = emulator.grpcEndpoint!.split(':');
    // A stream opened first, on its own connection: it must outlive the idle ones.
    const client = rawPubsubClient(emulator);
    const stream = client.Subscribe(new pubsub._SubscriptionRequest({ cache_name: 'default-cache', topic: 'idle' }));
    const received: string[] = [];
    const heard = new Set<() => void>();
    stream.on('data', (item: InstanceType<typeof pubsub._SubscriptionItem>) => {
      if (item.kind === 'item') received.push(item.item.value.text);
      for (const wake of heard) wake();
    });
    stream.on('error', () => undefined);
    await new Promise<void>((resolve) => heard.add(resolve));
    heard.clear();

    const opened = Date.now();
    const session = connectHttp2(`http://${host}:${port}`);
    session.on('error', () => undefined);
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    const sessionClosed = new Promise<void>((resolve) => session.once('close', resolve));
    const silent = connectTcp({ host: host!, port: Number(port) });
    silent.on('error', () => undefined);
    // Read what the server sends (its SETTINGS), so that its close is seen.
    silent.resume();
    const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    await Promise.all([goaway, sessionClosed, silentClosed]);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(900);

    await fetch(`${emulator.url}/topics/default-cache/idle`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
      body: 'after the idle ones closed',
    });
    while (received.length === 0) await new Promise<void>((resolve) => heard.add(resolve));
    expect(received).toEqual(['after the idle ones closed']);
    stream.cancel();
    client.close();
  }, 30_000);
});
