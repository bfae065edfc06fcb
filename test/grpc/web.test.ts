import { createRequire } from 'node:module';
import type { cache_client as PubsubTypes } from '@gomomento/generated-types/dist/cachepubsub.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { trailerFrame } from '../../emulator/grpc/web.js';
import { startGrpcEmulator, webFrame } from './harness.js';

// gRPC-web on the HTTP port, byte by byte (the browser SDK's own test is test/browser/sdk-web):
// binary and text framing both ways, the status as a trailer frame, a Subscribe that streams,
// and what is not gRPC-web left as it was.

const require = createRequire(import.meta.url);
const { pubsub } = (require('@gomomento/generated-types/dist/cachepubsub.js') as { cache_client: typeof PubsubTypes })
  .cache_client;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startGrpcEmulator();
});
afterAll(async () => {
  await emulator?.close();
});

const frame = webFrame;
const publishRequest = (cache: string, text: string) =>
  frame(
    new pubsub._PublishRequest({
      cache_name: cache,
      topic: 'web',
      value: new pubsub._TopicValue({ text }),
    }).serializeBinary(),
  );

/** The frames of a gRPC-web answer: [flag, payload]. */
function framesOf(bytes: Buffer): [number, Buffer][] {
  const frames: [number, Buffer][] = [];
  for (let at = 0; at + 5 <= bytes.length;) {
    const length = bytes.readUInt32BE(at + 1);
    frames.push([bytes[at]!, bytes.subarray(at + 5, at + 5 + length)]);
    at += 5 + length;
  }
  return frames;
}

/** Text mode: each chunk is its own padded base64. */
const fromText = (text: string) =>
  Buffer.concat((text.match(/[^=]+=*/g) ?? []).map((part) => Buffer.from(part, 'base64')));

/** A call as a page holding the API key makes it (gRPC-web needs a credential). */
const call = (path: string, body: Buffer | string, type: string, headers: Record<string, string> = {}) =>
  fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: emulator.apiKey, ...headers },
    body: body as BodyInit,
  });

describe('gRPC-web on the HTTP port', () => {
  it('answers a binary Publish with its message and an OK trailer frame', async () => {
    const response = await call(
      '/cache_client.pubsub.Pubsub/Publish',
      publishRequest('default-cache', 'bin'),
      'application/grpc-web+proto',
    );
    expect(response.headers.get('content-type')).toBe('application/grpc-web+proto');
    const frames = framesOf(Buffer.from(await response.arrayBuffer()));
    expect(frames.map(([flag]) => flag)).toEqual([0, 0x80]);
    expect(frames[1]![1].toString()).toMatch(/^grpc-status: 0\r\n/);
  });

  it('answers a text Publish in base64, and an error as a trailer frame with the status the SDK maps', async () => {
    const body = publishRequest('no-such-cache', 'txt').toString('base64');
    const response = await call('/cache_client.pubsub.Pubsub/Publish', body, 'application/grpc-web-text');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/grpc-web-text+proto');
    const [[flag, trailers]] = framesOf(fromText(await response.text())) as [[number, Buffer]];
    expect(flag).toBe(0x80);
    expect(trailers.toString()).toMatch(/grpc-status: 5\r\n/);
    expect(trailers.toString()).toMatch(/err: cache_not_found\r\n/);
  });

  it('streams a Subscribe: its heartbeat, then what is published, as it happens', async () => {
    const controller = new AbortController();
    const request = frame(
      new pubsub._SubscriptionRequest({ cache_name: 'default-cache', topic: 'web-stream' }).serializeBinary(),
    );
    const response = await fetch(`${emulator.url}/cache_client.pubsub.Pubsub/Subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web-text', authorization: emulator.apiKey },
      body: request.toString('base64'),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    const items: string[] = [];
    let heartbeats = 0;
    const read = async () => {
      const { value } = await reader.read();
      text += Buffer.from(value!).toString();
      const frames = framesOf(fromText(text));
      heartbeats = frames.filter(([, m]) => pubsub._SubscriptionItem.deserializeBinary(m).kind === 'heartbeat').length;
      items.splice(
        0,
        items.length,
        ...frames.flatMap(([, m]) => {
          const item = pubsub._SubscriptionItem.deserializeBinary(m);
          return item.kind === 'item' ? [item.item.value.text] : [];
        }),
      );
    };
    while (heartbeats === 0) await read();
    await fetch(`${emulator.url}/topics/default-cache/web-stream`, {
      method: 'POST',
      headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
      body: 'streamed',
    });
    while (items.length === 0) await read();
    expect(items).toEqual(['streamed']);
    controller.abort();
    // The browser's leaving cancels the call: the stream is journalled once, as gRPC, ended by its client.
    const ended = async () => (await emulator.requests({ topic: 'web-stream', operation: 'subscribe' })).entries;
    for (let i = 0; i < 100 && (await ended()).length === 0; i++) await new Promise((r) => setImmediate(r));
    expect((await ended()).map((e) => [e.protocol, e.clientGone, e.delivered])).toEqual([['grpc', true, 1]]);
  });

  it('leaves other requests as they were: another type on a method path is 404, and so is gRPC-web while the door is off', async () => {
    const other = await call('/a.b/c', 'x', 'text/plain');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'route_not_found' });
    const off = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    try {
      const response = await fetch(`${off.url}/cache_client.pubsub.Pubsub/Publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/grpc-web+proto' },
        body: publishRequest('default-cache', 'x'),
      });
      expect(response.status).toBe(404);
      expect((await response.json()).message).toMatch(/--grpc-port/);
    } finally {
      await off.close();
    }
  });

  it('writes the trailer frame gRPC-web clients read', () => {
    const bytes = trailerFrame({ 'grpc-status': '0', 'grpc-message': 'OK' });
    expect([bytes[0], bytes.readUInt32BE(1), bytes.subarray(5).toString()]).toEqual([
      0x80,
      34,
      'grpc-status: 0\r\ngrpc-message: OK\r\n',
    ]);
  });
});
