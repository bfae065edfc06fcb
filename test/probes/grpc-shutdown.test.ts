import type { StatusObject } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { pubsub, rawPubsubClient, startGrpcEmulator } from '../grpc/harness.js';

// Probe (#43 item 7, gRPC streams ended with RST_STREAM on SIGTERM): an emulator shutting down
// (SIGTERM, close()) tore its gRPC connections down under open streams, so clients saw
// "Received RST_STREAM" (INTERNAL) instead of a status. Each open stream now ends with
// UNAVAILABLE naming the shutdown (what the SDKs retry), delivered before the connection closes.

describe('gRPC streams when the emulator shuts down', () => {
  it('an open stream ends with UNAVAILABLE naming the shutdown, not a reset', async () => {
    const emulator = await startGrpcEmulator();
    const client = rawPubsubClient(emulator);
    try {
      const streams = Array.from({ length: 3 }, (_, i) =>
        client.Subscribe(new pubsub._SubscriptionRequest({ cache_name: 'default-cache', topic: `shutdown-${i}` })),
      );
      const ended = streams.map(
        (stream) =>
          new Promise<StatusObject>((resolve) => {
            stream.on('error', () => undefined);
            stream.on('status', resolve);
          }),
      );
      await Promise.all(streams.map((stream) => new Promise((resolve) => stream.once('data', resolve))));
      await emulator.close();
      for (const status of await Promise.all(ended)) {
        expect(status.code).toBe(14);
        expect(status.details).toMatch(/shutting down/);
      }
    } finally {
      client.close();
    }
  });
});
