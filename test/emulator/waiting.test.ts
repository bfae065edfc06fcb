import type { FastifyReply } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { CACHE, clientOf, publishMany, start, waitForWaiting } from '../control/helpers.js';

// A waiting subscribe is one object in one registry (emulator/http/waiting.ts): what readers of
// the registry see, and what a waiting request costs its response.

let emulator: RunningEmulator;
let client: ReturnType<typeof clientOf>;

beforeEach(async () => {
  emulator = await start();
  client = clientOf(emulator);
});
afterEach(() => emulator.close());

describe('the waiting registry', () => {
  it('shows each waiting request with its facts, cursor and start, and counts them once', async () => {
    await publishMany(emulator, 't', 2);
    const page = emulator.state().topics[0]!.page;
    const first = client.subscribe('t', { seq: 3, page });
    const second = client.subscribe('u');
    await waitForWaiting(emulator, 2);
    const waiting = [...emulator.context.waiting];
    expect(emulator.context.waiting.size).toBe(2);
    expect(waiting.map((w) => [w.facts, w.cursor.sequenceNumber])).toEqual(
      expect.arrayContaining([
        [{ operation: 'subscribe', protocol: 'http', cache: CACHE, topic: 't', tokenId: undefined }, 3],
        [{ operation: 'subscribe', protocol: 'http', cache: CACHE, topic: 'u', tokenId: undefined }, 1],
      ]),
    );
    expect(waiting.every((w) => w.since <= emulator.context.clock.now())).toBe(true);
    await publishMany(emulator, 't', 1);
    expect((await first).status).toBe(200);
    expect(emulator.context.waiting.size).toBe(1);
    emulator.resetTopic(CACHE, 'u');
    expect(emulator.context.waiting.size).toBe(1); // a page change onto an empty page waits for its item
    await publishMany(emulator, 'u', 1);
    expect((await second).status).toBe(200);
    expect(emulator.context.waiting.size).toBe(0);
  });

  it('a waiting request adds one close listener of its own, even with faults and limits on', async () => {
    expect(
      (
        await client.control('POST', '/faults', {
          operation: 'subscribe',
          topic: 'elsewhere',
          whileWaiting: true,
          status: 500,
        })
      ).status,
    ).toBe(201);
    expect((await client.control('PUT', '/limits', { enabled: true })).status).toBe(200);
    const pending = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    // The long-poll's sink holds its reply (http/waiting.ts).
    const [waiting] = [...emulator.context.waiting] as unknown as { sink: { reply: FastifyReply } }[];
    // One for the connection guard (every request), one for the waiting subscribe.
    expect(waiting!.sink.reply.raw.listenerCount('close')).toBe(2);
    await publishMany(emulator, 't', 1);
    expect((await pending).status).toBe(200);
  });

  it('is settled once: a reset answers it with no items, and a later publish finds nothing to answer', async () => {
    const pending = client.subscribe('t');
    await waitForWaiting(emulator, 1);
    expect(emulator.reset().answeredSubscribers).toBe(1);
    const answer = await pending;
    expect([answer.status, await answer.json()]).toEqual([200, { items: [] }]);
    await publishMany(emulator, 't', 1);
    expect(emulator.context.waiting.size).toBe(0);
  });
});
