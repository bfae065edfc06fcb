import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

// Probe: with 50 readers of GET /_emulator/events that never read, publishing dropped from ~9,700
// to 1,000-1,600 a second (400 readers: 59 a second): each reader encoded and wrote every event
// itself. An event is encoded once for all readers now, each reader gets one write per turn of
// the event loop, and a reader with no room is skipped at the cost of a comparison. Measured as a
// ratio in the same test (this machine is shared): the same publishes from 20 clients take at
// most twice as long with 50 stalled readers as with none (2.45-2.6x before; about 1x now).

let emulator: RunningEmulator;
let port: number;
const readers: Socket[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
  port = Number(new URL(emulator.url).port);
});
afterAll(async () => {
  for (const socket of readers) socket.destroy();
  await emulator.close();
});

/** A reader that sends its request and never reads a byte of the answer. */
function stalledReader(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /_emulator/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      socket.pause();
      resolve();
    });
    socket.once('error', reject);
    readers.push(socket);
  });
}

/** `count` publishes from 20 clients at once (many events in each turn of the event loop), timed. */
async function publishAll(count: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async (_, client) => {
      for (let i = 0; i < count / 20; i++) {
        const response = await fetch(`${emulator.url}/topics/default-cache/watched`, {
          method: 'POST',
          headers: { authorization: emulator.apiKey, 'content-type': 'text/plain' },
          body: `message ${client}.${i} ${'x'.repeat(200)}`,
        });
        await response.arrayBuffer();
      }
    }),
  );
  return performance.now() - started;
}

describe('readers of the event stream that never read', () => {
  it('cost the request path little: 50 of them at most double the time of the same publishes', async () => {
    await publishAll(200); // warm up
    const alone = await publishAll(3000);
    await Promise.all(Array.from({ length: 50 }, stalledReader));
    // The readers are in place once the stream counts them as listening.
    expect(emulator.context.events.listens('request')).toBe(true);
    const watched = await publishAll(3000);
    expect(
      watched / alone,
      `${Math.round(alone)} ms alone, ${Math.round(watched)} ms with 50 stalled readers`,
    ).toBeLessThan(2);
    const health = await fetch(`${emulator.url}/_emulator/health`);
    expect(health.status).toBe(200);
  });
});
