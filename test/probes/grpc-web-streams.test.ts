import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { pubsub, startGrpcEmulator, webFrame } from '../grpc/harness.js';

// Probes (#43 items 3 and 4):
// - A gRPC-web reader that stopped reading held unbounded memory: the door wrote every message
//   to the browser's connection whatever it had queued (77 → 183 MB for one paused reader while
//   80 MB was published). A paused reader now holds back its stream as a native gRPC reader does,
//   and when it reads again it is told what it missed (a discontinuity), as any reader behind the
//   retention is.
// - One client's opened-and-aborted gRPC-web calls ended every other client's open gRPC-web
//   stream: all calls shared one internal HTTP/2 session, which the aborts tore down.

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const frame = webFrame;

type Item = InstanceType<typeof pubsub._SubscriptionItem>;

/** A gRPC-web Subscribe on its own connection: its items as they are read, and a way to stop reading. */
async function subscribe(
  target: RunningEmulator,
  topic: string,
  agent = new Agent({ keepAlive: false }),
): Promise<{ response: IncomingMessage; items: Item[]; next: (test: (items: Item[]) => boolean) => Promise<void> }> {
  const body = frame(new pubsub._SubscriptionRequest({ cache_name: 'default-cache', topic }).serializeBinary());
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const call = httpRequest(
      `${target.url}/cache_client.pubsub.Pubsub/Subscribe`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/grpc-web+proto', authorization: target.apiKey },
      },
      resolve,
    );
    call.on('error', reject);
    call.end(body);
  });
  const items: Item[] = [];
  let pending = Buffer.alloc(0);
  const waiters = new Set<() => void>();
  response.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
      const length = pending.readUInt32BE(1);
      if (pending[0] === 0) items.push(pubsub._SubscriptionItem.deserializeBinary(pending.subarray(5, 5 + length)));
      pending = pending.subarray(5 + length);
    }
    for (const wake of waiters) wake();
  });
  const ended = new Promise<void>((resolve) => response.on('close', resolve));
  const next = async (test: (items: Item[]) => boolean) => {
    while (!test(items)) {
      const more = await Promise.race([
        new Promise<boolean>((resolve) => waiters.add(() => resolve(true))),
        ended.then(() => false),
      ]);
      waiters.clear();
      if (!more && !test(items)) throw new Error(`the stream ended; it had ${items.length} items`);
    }
  };
  return { response, items, next };
}

const publish = (target: RunningEmulator, topic: string, body: string) =>
  fetch(`${target.url}/topics/default-cache/${topic}`, {
    method: 'POST',
    headers: { authorization: target.apiKey, 'content-type': 'text/plain' },
    body,
  }).then((response) => {
    if (response.status !== 204) throw new Error(`publish answered ${response.status}`);
  });

/** What this process holds now (the emulator runs in it), after collections that let freed buffers go. */
const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
async function heldBytes(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const texts = (items: Item[]) => items.flatMap((item) => (item.kind === 'item' ? [item.item.value.text] : []));

describe('gRPC-web streams', () => {
  it('a paused gRPC-web reader holds back its stream: the emulator queues a bounded amount for it, and when it reads again it is told of a discontinuity', async () => {
    emulator = await startGrpcEmulator({ retention: 10, payloadLimitBytes: 65_536 });
    const reader = await subscribe(emulator, 'paused');
    await reader.next((items) => items.some((item) => item.kind === 'heartbeat'));
    reader.response.pause();
    const before = await heldBytes();
    // 1,000 messages of 60,000 bytes: 60 MB, far more than the connection's buffers hold.
    const published = 1_000;
    const body = 'x'.repeat(60_000);
    for (let sent = 0; sent < published; sent++) await publish(emulator, 'paused', body);
    const held = (await heldBytes()) - before;
    // Without the bound it held what was published (60 MB); with it, the topic's ten and the buffers.
    expect(held).toBeLessThan(16 * 1024 * 1024);
    await publish(emulator, 'paused', 'last');
    reader.response.resume();
    await reader.next((items) => texts(items).includes('last'));
    expect(reader.items.some((item) => item.kind === 'discontinuity')).toBe(true);
    expect(texts(reader.items).length).toBeLessThan(published);
    reader.response.destroy();
  }, 60_000);

  it("one client's aborted gRPC-web calls leave other clients' streams open", async () => {
    emulator = await startGrpcEmulator();
    const others = await Promise.all(Array.from({ length: 5 }, () => subscribe(emulator!, 'shared')));
    await Promise.all(others.map((other) => other.next((items) => items.some((item) => item.kind === 'heartbeat'))));
    // 2,000 calls opened and aborted by one client, each once its stream has begun.
    const aborter = new Agent({ keepAlive: true, maxSockets: 4 });
    for (let opened = 0; opened < 2_000; opened += 20)
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const call = await subscribe(emulator!, 'aborted', aborter);
          call.response.destroy();
        }),
      );
    aborter.destroy();
    await publish(emulator, 'shared', 'still here');
    await Promise.all(others.map((other) => other.next((items) => texts(items).includes('still here'))));
    for (const other of others) {
      expect(texts(other.items)).toEqual(['still here']);
      other.response.destroy();
    }
  }, 60_000);
});

describe('gRPC-web request bodies', () => {
  /** A gRPC-web call whose body is sent but not ended: its answer, if one comes before the body ends. */
  const unfinishedCall = (target: RunningEmulator, bytes: number) => {
    const call = httpRequest(`${target.url}/cache_client.pubsub.Pubsub/Publish`, {
      method: 'POST',
      agent: new Agent({ keepAlive: false }),
      headers: {
        'content-type': 'application/grpc-web+proto',
        authorization: target.apiKey,
        'content-length': String(bytes + 1),
      },
    });
    call.on('error', () => undefined);
    const answer = new Promise<{ status: number | undefined; retryAfter: unknown; body: string }>((resolve) =>
      call.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'], body }),
        );
      }),
    );
    call.write(Buffer.alloc(bytes));
    return { answer, end: () => call.destroy() };
  };

  it('the bodies of gRPC-web calls in flight are bounded together: past 64 MiB a call is answered 503 with Retry-After', async () => {
    emulator = await startGrpcEmulator();
    // Seventeen calls, each with 4 MiB sent and its last byte not: the one that takes the
    // bodies held past 64 MiB is answered; the others are still being read.
    const calls = Array.from({ length: 17 }, () => unfinishedCall(emulator!, 4 * 1024 * 1024));
    const first = await Promise.race(calls.map((call) => call.answer));
    expect([first.status, first.retryAfter]).toEqual([503, '1']);
    expect(JSON.parse(first.body)).toMatchObject({ code: 'service_unavailable' });
    for (const call of calls) call.end();
    // What they held is given back: a call fits again.
    const body = frame(
      new pubsub._PublishRequest({
        cache_name: 'default-cache',
        topic: 'after',
        value: new pubsub._TopicValue({ text: 'fits' }),
      }).serializeBinary(),
    );
    let status = 0;
    for (let tries = 0; tries < 200 && status !== 200; tries++) {
      const response = await fetch(`${emulator.url}/cache_client.pubsub.Pubsub/Publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/grpc-web+proto', authorization: emulator.apiKey },
        body,
      });
      status = response.status;
      await response.arrayBuffer();
    }
    expect(status).toBe(200);
  }, 60_000);

  it('a gRPC-web body larger than gRPC’s largest message is refused 413 as it arrives', async () => {
    emulator = await startGrpcEmulator();
    const call = unfinishedCall(emulator, 4 * 1024 * 1024 + 64);
    const answer = await call.answer;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large' });
    call.end();
  });
});
